package org.onlinekernels.bench;

/**
 * The suites' hand-written loops over {@code float[]} (what a user would write instead of linking
 * the library), left to C2's auto-vectorizer; {@code DoubleHandLoops} is their generated twin
 * (codegen's {@code Twins}, as the library's kernels get theirs; there the float casts are
 * redundant).
 */
@SuppressWarnings("cast")
final class FloatHandLoops {
  private FloatHandLoops() {}

  /**
   * Per-coordinate AdaGrad on gradient {@code scale * g}: no branch, and {@code (float) Math.sqrt}
   * is recognised as a float square root, so C2 vectorizes it.
   */
  static void adaGrad(float[] w, float[] q, float[] g, float scale, float eta, float delta) {
    for (int i = 0; i < w.length; i++) {
      float gi = scale * g[i];
      float qi = q[i] + gi * gi;
      q[i] = qi;
      w[i] -= eta * gi / (delta + (float) Math.sqrt(qi));
    }
  }

  /**
   * ScInOL2's predict, storing {@code w}. The {@code s = 0} case (a coordinate whose {@code x} was
   * always 0) is handled branch-free by flooring {@code s} at the smallest normal number: then
   * {@code G = 0}, so {@code theta = 0} and {@code w = 0}, as the rule says. {@code max}/{@code
   * min} instead of a ternary keep the loop vectorizable by C2; {@code yhat} is summed in double.
   */
  static double predict(float[] bigG, float[] s2, float[] m, float[] eta, float[] w, float[] x) {
    double yhat = 0;
    for (int i = 0; i < x.length; i++) {
      float xi = x[i];
      float mi = Math.max(m[i], Math.abs(xi));
      m[i] = mi;
      float s = Math.max((float) Math.sqrt(s2[i] + mi * mi), Float.MIN_NORMAL);
      float clipped = Math.max(-1f, Math.min(1f, bigG[i] / s));
      float wi = clipped * eta[i] / (2 * s);
      w[i] = wi;
      yhat += xi * wi;
    }
    return yhat;
  }

  /** ScInOL2's update from the stored {@code w}. */
  static void update(float[] bigG, float[] s2, float[] eta, float[] w, float[] x, float g) {
    for (int i = 0; i < x.length; i++) {
      float gx = g * x[i];
      bigG[i] -= gx;
      s2[i] += gx * gx;
      eta[i] -= gx * w[i];
    }
  }
}
