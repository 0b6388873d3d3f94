package org.onlinekernels.kernel.lanes;

/**
 * The per-entry values a fused round keeps between its halves (a rule's predict values that its
 * update reads or that it commits later), one array per value, float or double by element type.
 * Owned by one optimizer; grown to the longest row, never per round.
 */
public final class RoundScratch {
  private float[][] floats;
  private double[][] doubles;
  private int capacity = -1;

  /** Scratch for {@code values} kept values of the given element type. */
  public RoundScratch(int values, boolean isFloat) {
    floats = isFloat ? new float[values][0] : null;
    doubles = isFloat ? null : new double[values][0];
  }

  /** Grows every array to at least {@code n} entries. */
  public void ensure(int n) {
    if (n <= capacity) {
      return;
    }
    int cap =
        Math.max(
            Math.max(n, 16), (int) Math.min(Integer.MAX_VALUE - 8, 2L * Math.max(capacity, 0)));
    if (floats != null) {
      for (int k = 0; k < floats.length; k++) {
        floats[k] = new float[cap];
      }
    } else {
      for (int k = 0; k < doubles.length; k++) {
        doubles[k] = new double[cap];
      }
    }
    capacity = cap;
  }

  /** Kept float value {@code k}. */
  public float[] f(int k) {
    return floats[k];
  }

  /** Kept double value {@code k}. */
  public double[] d(int k) {
    return doubles[k];
  }
}
