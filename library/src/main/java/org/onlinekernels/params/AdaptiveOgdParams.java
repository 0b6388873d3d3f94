package org.onlinekernels.params;

/**
 * Parameters of Adaptive Online Gradient Descent (Bartlett, Hazan and Rakhlin 2007, Algorithm 2).
 *
 * <p>Ball form: the L2 ball of radius {@code radius}. Per-coordinate form: the box {@code [-R_i,
 * R_i]} with {@code R_i = radii[i]} when {@code radii} is given, else {@code radius}.
 *
 * @param radius half-width / ball radius {@code R}, finite and {@code > 0}
 * @param radii optional per-coordinate half-widths (per-coordinate form only), or {@code null}
 */
public record AdaptiveOgdParams(double radius, double[] radii) {
  public AdaptiveOgdParams {
    Checks.positiveFinite("radius R", radius);
    if (radii != null) {
      radii = radii.clone();
      for (int i = 0; i < radii.length; i++) {
        Checks.positiveFinite("radius R[" + i + "]", radii[i]);
      }
    }
  }

  /** One radius for the ball, or for every coordinate. */
  public static AdaptiveOgdParams radius(double r) {
    return new AdaptiveOgdParams(r, null);
  }

  /** Per-coordinate half-widths. */
  public static AdaptiveOgdParams radii(double[] r) {
    if (r == null || r.length == 0) {
      throw new IllegalArgumentException("radii must hold one half-width per coordinate");
    }
    double max = 0;
    for (double v : r) max = Math.max(max, v);
    return new AdaptiveOgdParams(max > 0 && Double.isFinite(max) ? max : 1, r);
  }

  /** Half-width of coordinate {@code i} in the per-coordinate form. */
  public double radiusOf(int i) {
    return radii == null ? radius : radii[i];
  }

  @Override
  public double[] radii() {
    return radii == null ? null : radii.clone();
  }

  /** Checks that per-coordinate radii match dimension {@code d}. */
  public void checkDimension(int d) {
    if (radii != null && radii.length != d) {
      throw new IllegalArgumentException(
          "radii has " + radii.length + " entries but the model has dimension " + d);
    }
  }
}
