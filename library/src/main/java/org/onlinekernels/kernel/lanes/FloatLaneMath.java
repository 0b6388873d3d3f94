package org.onlinekernels.kernel.lanes;

/**
 * Lane functions that rules call and whose vector form is not a single operation: the generator
 * writes the vector form out with the same operations in the same order, so both give the same
 * bits. Source of the generated {@code Double} twin: edit only this file.
 */
public final class FloatLaneMath {
  private FloatLaneMath() {}

  /** {@code 1/ln2}, {@link Expm1Constants#FLOAT_LOG2E}. */
  public static final float LOG2E = Expm1Constants.FLOAT_LOG2E;

  /** The rounding constant of {@link #expm1}'s reduction. */
  public static final float ROUNDER = Expm1Constants.FLOAT_ROUNDER;

  /** High part of {@code ln2}. */
  public static final float LN2_HI = Expm1Constants.FLOAT_LN2_HI;

  /** Low part of {@code ln2}. */
  public static final float LN2_LO = Expm1Constants.FLOAT_LN2_LO;

  /** The polynomial's coefficients, highest degree first (read only, never written). */
  public static final float[] COEFFS = Expm1Constants.floatCoefficients();

  /**
   * {@code expm1(h)} for {@code 0 <= h} below the exponent's range (or NaN) by the polynomial of
   * {@link Expm1Constants}, in the operation order the vector form repeats (within 2 ulps of {@link
   * Math#expm1}).
   */
  public static float expm1(float h) {
    float kr = Math.fma(h, LOG2E, ROUNDER);
    float nk = -(kr - ROUNDER);
    float r = Math.fma(nk, LN2_LO, Math.fma(nk, LN2_HI, h));
    float p = COEFFS[0];
    for (int c = 1; c < COEFFS.length; c++) {
      p = Math.fma(p, r, COEFFS[c]);
    }
    float twoK = Expm1Constants.floatPow2(kr);
    return Math.fma(Math.fma(r * r, p, r), twoK, twoK - 1);
  }
}
