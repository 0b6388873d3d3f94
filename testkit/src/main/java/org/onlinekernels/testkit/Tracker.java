package org.onlinekernels.testkit;

/**
 * Path length {@code sum |s_t - s_{t-1}|} and peak {@code max |s_t|} of each element of a vector
 * over rounds.
 */
public final class Tracker {
  /** Each element's path length so far. */
  public final double[] path;

  /** Each element's largest magnitude so far. */
  public final double[] peak;

  private final double[] last;

  /** Tracks from the values {@code initial}. */
  public Tracker(double[] initial) {
    last = initial.clone();
    path = new double[initial.length];
    peak = new double[initial.length];
    for (int i = 0; i < initial.length; i++) {
      peak[i] = Math.abs(initial[i]);
    }
  }

  /** Takes in the next values of the vector. */
  public void observe(double[] now) {
    for (int i = 0; i < now.length; i++) {
      path[i] += Math.abs(now[i] - last[i]);
      peak[i] = Math.max(peak[i], Math.abs(now[i]));
      last[i] = now[i];
    }
  }
}
