package org.onlinekernels.kernel.lanes;

/**
 * Constants of the ScInOL1 kernels' own {@code expm1(h)} for {@code 0 <= h <= cap} (the saturation
 * cap of the ScInOL1 rule), one set per element type; the {@code FLOAT_} names are used by the
 * float lanes, the {@code DOUBLE_} names by their generated double twins. The scalar forms evaluate
 * the same polynomial with the same fused operations ({@link FloatLaneMath#expm1}), so vector and
 * scalar ScInOL1 agree bit for bit; {@link Math#expm1} stays the reference's.
 *
 * <p>Why the kernels do not use {@code VectorOperators.EXPM1}: on x86 it is a call to an SVML stub,
 * and around that call C2 spills and reloads every vector live in the ScInOL1 loop. Measured on
 * this machine kind (float, one JVM, variants side by side), the ScInOL1 predict pass with the SVML
 * {@code expm1} took about twice the time of the polynomial below written into the loop
 * (bench-report/kernels-notes.md).
 *
 * <p>The method (as fdlibm's): {@code h = k ln2 + r} with {@code k = round(h / ln2)} and {@code |r|
 * <= ln2/2}; {@code expm1(r) = r + r^2 P(r)} with Taylor coefficients {@code P(r) = 1/2! + r/3! +
 * ...}; then {@code expm1(h) = 2^k expm1(r) + (2^k - 1)} in one fused multiply-add, which has no
 * cancellation for {@code h >= 0}. {@code k} is rounded with the magic-number trick (adding {@code
 * 1.5 * 2^(p-1)} leaves {@code k} in the low bits of the sum), and {@code 2^k} is built from those
 * bits. {@code ln2} is split in two so that {@code k * LN2_HI} is exact for every {@code k} the cap
 * allows. The Taylor tail left out is below {@code |r|^(n+1)/(n+1)! < 2^-p} relative: degree 8 for
 * float ({@code p = 24}), 13 for double ({@code p = 53}). Accuracy is tested against {@link
 * Math#expm1} by {@code VectorExpm1Test} (at most 2 ulps, the bound the agreement tolerance of the
 * ScInOL1 property tests assumes).
 */
public final class Expm1Constants {
  private Expm1Constants() {}

  /** {@code 1/ln2}, rounded to float. */
  public static final float FLOAT_LOG2E = (float) (1 / Math.log(2));

  /** {@code 1/ln2}. */
  public static final double DOUBLE_LOG2E = 1 / Math.log(2);

  /** {@code 1.5 * 2^23}: adding it rounds a float below {@code 2^22} to an integer. */
  public static final float FLOAT_ROUNDER = 0x1.8p23f;

  /** {@code 1.5 * 2^52}: adding it rounds a double below {@code 2^51} to an integer. */
  public static final double DOUBLE_ROUNDER = 0x1.8p52;

  /**
   * High part of {@code ln2}: 15 significant bits, so {@code k * LN2_HI} is exact for {@code k <
   * 2^9}.
   */
  public static final float FLOAT_LN2_HI = 0x1.62e4p-1f;

  /** {@code ln2 - FLOAT_LN2_HI}, rounded to float. */
  public static final float FLOAT_LN2_LO = 0x1.7f7d1cp-20f;

  /**
   * High part of {@code ln2} (fdlibm's): 32 significant bits, exact products for {@code k < 2^21}.
   */
  public static final double DOUBLE_LN2_HI = 0x1.62e42feep-1;

  /** {@code ln2 - DOUBLE_LN2_HI}, rounded to double (fdlibm's). */
  public static final double DOUBLE_LN2_LO = 0x1.a39ef35793c76p-33;

  /**
   * Added to the bits of {@code k + ROUNDER} to give the biased exponent of {@code 2^k}: {@code 127
   * - bits(ROUNDER)} (integer arithmetic wraps; the shift below drops the excess).
   */
  public static final int FLOAT_BITS_OFFSET =
      Float.MAX_EXPONENT - Float.floatToRawIntBits(FLOAT_ROUNDER);

  /** {@code 1023 - bits(ROUNDER)}. */
  public static final long DOUBLE_BITS_OFFSET =
      Double.MAX_EXPONENT - Double.doubleToRawLongBits(DOUBLE_ROUNDER);

  /** Left shift that moves a biased exponent into place: the stored significand bits. */
  public static final int FLOAT_SIGNIFICAND_BITS = Float.PRECISION - 1;

  /** Left shift that moves a biased exponent into place: the stored significand bits. */
  public static final int DOUBLE_SIGNIFICAND_BITS = Double.PRECISION - 1;

  /** {@code 1/8!, 1/7!, ..., 1/2!}, highest degree first (Horner order). */
  public static final float[] FLOAT_COEFFS = toFloats(coefficients(8));

  /** {@code 1/13!, ..., 1/2!}, highest degree first. */
  public static final double[] DOUBLE_COEFFS = coefficients(13);

  /** A copy of {@code FLOAT_COEFFS}, for the vector kernel. */
  public static float[] floatCoefficients() {
    return FLOAT_COEFFS.clone();
  }

  /** A copy of {@code DOUBLE_COEFFS}, for the vector kernel's double twin. */
  public static double[] doubleCoefficients() {
    return DOUBLE_COEFFS.clone();
  }

  /** {@code 2^k} from {@code kr = k + ROUNDER}, as the vector kernel builds it from the bits. */
  public static float floatPow2(float kr) {
    return Float.intBitsToFloat(
        (Float.floatToRawIntBits(kr) + FLOAT_BITS_OFFSET) << FLOAT_SIGNIFICAND_BITS);
  }

  /** {@code 2^k} from {@code kr = k + ROUNDER}. */
  public static double doublePow2(double kr) {
    return Double.longBitsToDouble(
        (Double.doubleToRawLongBits(kr) + DOUBLE_BITS_OFFSET) << DOUBLE_SIGNIFICAND_BITS);
  }

  private static double[] coefficients(int degree) {
    double[] c = new double[degree - 1];
    double factorial = 1;
    for (int k = 2; k <= degree; k++) {
      factorial *= k;
      c[degree - k] = 1 / factorial;
    }
    return c;
  }

  private static float[] toFloats(double[] d) {
    float[] f = new float[d.length];
    for (int i = 0; i < d.length; i++) {
      f[i] = (float) d[i];
    }
    return f;
  }
}
