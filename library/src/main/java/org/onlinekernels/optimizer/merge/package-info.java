/**
 * The merge engine: carries out an algorithm's {@link org.onlinekernels.optimizer.state.MergePlan}
 * on learners that started from one state (docs/MERGING.md), checking them first ({@link
 * org.onlinekernels.optimizer.merge.MergeCompatibility}), visiting them in the canonical order, and
 * combining buffer by buffer ({@link org.onlinekernels.optimizer.merge.StateMerger}, {@link
 * org.onlinekernels.optimizer.merge.MergeColumns}) with the arithmetic every merge shares ({@link
 * org.onlinekernels.optimizer.merge.MergeArithmetic}). Works on {@link
 * org.onlinekernels.optimizer.internal.StateAccess}; {@code StatefulOptimizer#merge} and the
 * classes of {@code optimizer.parallel} call it. Internal to the library.
 */
package org.onlinekernels.optimizer.merge;
