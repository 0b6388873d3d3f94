/**
 * What every rule's scalar double-precision reference shares: the oracle the kernels and optimizers
 * are tested against, simple rather than fast. Each rule's own reference ({@code ReferenceScInOL2},
 * ...) lives in the rule's package and builds on the learners here: the two forms of
 * docs/ALGORITHMS.md ({@link org.onlinekernels.reference.ReferenceLinearModel}, {@link
 * org.onlinekernels.reference.ReferenceGradientLearner}), the learners they share ({@link
 * org.onlinekernels.reference.ReferenceCoordinateLearner}, {@link
 * org.onlinekernels.reference.ReferenceStoredWeightsLearner}) and the merge rules written literally
 * ({@link org.onlinekernels.reference.ReferenceMerge}).
 *
 * <p>Choices made where ALGORITHMS.md is silent (the kernels must make the same ones):
 *
 * <ul>
 *   <li>Dense and sparse inputs are reduced to the list of nonzero entries in increasing index
 *       order and run through one loop, so dense == sparse bit for bit; {@code -0.0} counts as 0.
 *       Reductions ({@code <w, x>}, {@code ||g||^2}, {@code ||x||^2}) are sequential sums in
 *       increasing index order over the nonzero entries, starting from +0.0.
 *   <li>In the linear-model form, the gradient entry is the product {@code g * x_i}; a product that
 *       underflows to 0 is treated like a zero gradient entry (skipped).
 *   <li>Every prediction takes exactly one {@code update}; a second one, or one without a
 *       prediction, throws {@link java.lang.IllegalStateException}.
 *   <li>Inputs must be finite (NaN and infinities are refused), curvatures {@code H_t} finite and
 *       {@code >= 0}.
 * </ul>
 *
 * <p>Each rule's own choices (ScInOL1's {@code expm1}, DFEG's {@code H^(3/2)} and overflow,
 * Adaptive OGD's {@code c}) are written in its reference and in its section of docs/ALGORITHMS.md.
 */
package org.onlinekernels.reference;
