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
  private int[] indexMap = new int[0];
  private float[] heapFloats;
  private double[] heapDoubles;
  private boolean hardwareGathers;
  private boolean hardwareScatters;
  private boolean rowRepeats;

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
    indexMap = new int[cap];
    capacity = cap;
  }

  /**
   * Lets the gathered rounds load and store records through an index map into {@code state}, the
   * heap array that backs the whole block ({@code float[]} or {@code double[]} by element type), or
   * makes them use their entry-by-entry loops over the segment ({@code null}); {@code
   * hardwareGathers} and {@code hardwareScatters}: with the vector unit's gathers and scatters.
   */
  public void gatherFrom(Object state, boolean hardwareGathers, boolean hardwareScatters) {
    heapFloats = state instanceof float[] a ? a : null;
    heapDoubles = state instanceof double[] a ? a : null;
    this.hardwareGathers = hardwareGathers;
    this.hardwareScatters = hardwareScatters;
  }

  /** Whether records are loaded with the vector unit's gathers. */
  public boolean hardwareGathers() {
    return hardwareGathers;
  }

  /**
   * Whether the row in hand's records are stored with the vector unit's scatters: asked for, and
   * the row names no coordinate twice ({@link #rowIndices}).
   */
  public boolean hardwareScatters() {
    return hardwareScatters && !rowRepeats;
  }

  /**
   * Records whether the row in hand's indices are strictly increasing (its {@link #indexMap} was
   * just written).
   */
  public void rowIndices(boolean increasing) {
    rowRepeats = !increasing;
  }

  /**
   * The float array the block state lives in, for gathers through the index map; null: entry by
   * entry.
   */
  public float[] heapFloats() {
    return heapFloats;
  }

  /**
   * The double array the block state lives in, for gathers through the index map; null: entry by
   * entry.
   */
  public double[] heapDoubles() {
    return heapDoubles;
  }

  /** The element offsets of a row's records in the heap array ({@code idx[j] * stride}). */
  public int[] indexMap() {
    return indexMap;
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
