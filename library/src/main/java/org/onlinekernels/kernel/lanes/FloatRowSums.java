package org.onlinekernels.kernel.lanes;

/**
 * The summation order of a sparse row's prediction in a fused round: entry {@code j}'s contribution
 * into partial sum {@code j mod 4}, each partial sum in entry order, combined as {@code (s0 + s1) +
 * (s2 + s3)}. Four independent chains of additions keep the adder busy where one would wait for
 * each sum in turn; the generated entry-by-entry forms sum in the same order, so a gathered round
 * gives their bits. Source of the generated {@code Double} twin: edit only this file.
 */
public final class FloatRowSums {
  private FloatRowSums() {}

  /** The sum of {@code c[0..n)} in the rows' order. */
  public static float sum4(float[] c, int n) {
    float a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    int j = 0;
    for (; j + 3 < n; j += 4) {
      a0 += c[j];
      a1 += c[j + 1];
      a2 += c[j + 2];
      a3 += c[j + 3];
    }
    if (j < n) {
      a0 += c[j];
    }
    if (j + 1 < n) {
      a1 += c[j + 1];
    }
    if (j + 2 < n) {
      a2 += c[j + 2];
    }
    return (a0 + a1) + (a2 + a3);
  }
}
