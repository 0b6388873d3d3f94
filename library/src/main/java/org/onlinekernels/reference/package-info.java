/**
 * Scalar double-precision reference implementations of every update rule of ALGORITHMS.md: the
 * oracle the SIMD kernels are tested against. Simple, not fast.
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
 *   <li>ScInOL1 uses {@code Math.expm1(|theta|/2)} for {@code exp(|theta|/2) - 1}; its round
 *       counter {@code t} is a double and advances in {@code update}.
 *   <li>DFEG computes {@code H^(3/2)} as {@code H * sqrt(H)}, clamps the incrementally kept {@code
 *       ||theta||^2} at 0, and throws {@link java.lang.ArithmeticException} (state unchanged) when
 *       {@code exp} or {@code theta} would overflow.
 *   <li>Adaptive OGD computes {@code c} as {@code 8 * G2 / (3 * (R * R))} with {@code G2} the
 *       squared norm summed directly (no square root and re-squaring).
 * </ul>
 */
package org.onlinekernels.reference;
