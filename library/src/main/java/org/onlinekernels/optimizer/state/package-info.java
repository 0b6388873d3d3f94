/**
 * How an optimizer's state is held: its {@link org.onlinekernels.optimizer.state.Precision} and
 * {@link org.onlinekernels.optimizer.state.StateLayout}, the {@link
 * org.onlinekernels.optimizer.state.StateStore} that allocates and names every buffer and variable,
 * what a rule declares about its state beyond its math ({@link
 * org.onlinekernels.optimizer.state.Invariants} a value must hold, the {@link
 * org.onlinekernels.optimizer.state.MergePlan} by which learners' states combine), and the arena
 * through which the views of one shared state get the same buffers.
 */
package org.onlinekernels.optimizer.state;
