/**
 * What training on several threads or machines needs of the optimizers: one state trained by
 * several threads ({@link org.onlinekernels.optimizer.parallel.SharedState}), a merge that visits
 * only the coordinates the learners changed, by ranges on several threads ({@link
 * org.onlinekernels.optimizer.parallel.CoordinateMerge}), and a merge held as sums that combine two
 * at a time up a tree ({@link org.onlinekernels.optimizer.parallel.MergeSummary}). docs/MERGING.md
 * and docs/parallel/README.md.
 */
package org.onlinekernels.optimizer.parallel;
