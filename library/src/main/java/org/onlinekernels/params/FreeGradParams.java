package org.onlinekernels.params;

/**
 * Parameter of per-coordinate FreeGrad (Mhammedi and Koolen 2020; docs/ALGORITHMS.md section 13.3).
 *
 * @param epsilon the scale of the weights (the implementations' initial wealth), finite and {@code
 *     > 0} (default 1)
 */
public record FreeGradParams(double epsilon) {
  public FreeGradParams {
    Checks.positiveFinite("epsilon", epsilon);
  }

  /** {@code epsilon = 1}. */
  public static FreeGradParams defaults() {
    return new FreeGradParams(1);
  }
}
