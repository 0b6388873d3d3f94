package org.onlinekernels.properties;

/** Path length {@code sum |s_t - s_{t-1}|} and peak {@code max |s_t|} of each element of a vector over rounds. */
final class Tracker {
  final double[] path;
  final double[] peak;
  private final double[] last;

  Tracker(double[] initial) {
    last = initial.clone();
    path = new double[initial.length];
    peak = new double[initial.length];
    for (int i = 0; i < initial.length; i++) {
      peak[i] = Math.abs(initial[i]);
    }
  }

  void observe(double[] now) {
    for (int i = 0; i < now.length; i++) {
      path[i] += Math.abs(now[i] - last[i]);
      peak[i] = Math.max(peak[i], Math.abs(now[i]));
      last[i] = now[i];
    }
  }
}
