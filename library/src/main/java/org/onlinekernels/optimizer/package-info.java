/**
 * The optimizer protocol and the optimizers that implement it. A caller sees {@link
 * org.onlinekernels.optimizer.LinearModelOptimizer} (predict, then update with the loss derivative;
 * fused rounds on {@link org.onlinekernels.optimizer.SparseRows} or on its own buffers) and {@link
 * org.onlinekernels.optimizer.GradientOptimizer}; every library optimizer is a {@link
 * org.onlinekernels.optimizer.StatefulOptimizer} (configuration, owner thread, state access,
 * merges) and an {@link org.onlinekernels.optimizer.AbstractOptimizer} (input checks, the pairing
 * of a predict with its update, rounds, read-out), and {@link
 * org.onlinekernels.optimizer.RuleOptimizer} runs any generated rule on it. {@link
 * org.onlinekernels.optimizer.RuleInfo} is how a rule presents itself to the registry.
 *
 * <p>The floors below, each importing only those under it: {@code optimizer.state} (how state is
 * held), {@code optimizer.internal} (what the pieces reach in an optimizer), {@code
 * optimizer.rounds} (the round engine's parts), {@code optimizer.merge} (the merge engine); above:
 * {@code optimizer.checkpoint} and {@code optimizer.parallel}, which act on whole optimizers.
 */
package org.onlinekernels.optimizer;
