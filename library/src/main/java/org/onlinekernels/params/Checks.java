package org.onlinekernels.params;

/** Argument checks whose messages name the parameter and say what would fix it. */
final class Checks {
  private Checks() {}

  static double positiveFinite(String name, double v) {
    if (!(v > 0) || !Double.isFinite(v)) {
      throw new IllegalArgumentException(name + " must be a finite number > 0, got " + v);
    }
    return v;
  }

  static double nonNegativeFinite(String name, double v) {
    if (!(v >= 0) || !Double.isFinite(v)) {
      throw new IllegalArgumentException(name + " must be a finite number >= 0, got " + v);
    }
    return v;
  }
}
