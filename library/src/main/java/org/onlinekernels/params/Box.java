package org.onlinekernels.params;

import java.util.Arrays;

/**
 * A feasible box {@code [a_i, b_i]} for the AdaGrad family: none (the whole space), one scalar
 * interval for every coordinate, or one interval per coordinate. Immutable; the per-coordinate
 * bounds are copied in and out.
 */
public final class Box {
  private static final Box NONE =
      new Box(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, null, null);

  private final double lo;
  private final double hi;
  private final double[] los;
  private final double[] his;

  private Box(double lo, double hi, double[] los, double[] his) {
    this.lo = lo;
    this.hi = hi;
    this.los = los;
    this.his = his;
  }

  /** No box: every coordinate is unconstrained. */
  public static Box none() {
    return NONE;
  }

  /** The same interval {@code [lo, hi]} for every coordinate; infinite ends are allowed. */
  public static Box of(double lo, double hi) {
    checkInterval("box", -1, lo, hi);
    return new Box(lo, hi, null, null);
  }

  /** The symmetric box {@code [-r, r]}. */
  public static Box symmetric(double r) {
    return of(-r, r);
  }

  /** One interval per coordinate: {@code [lo[i], hi[i]]}; the arrays are copied. */
  public static Box perCoordinate(double[] lo, double[] hi) {
    if (lo == null || hi == null) {
      throw new IllegalArgumentException("box: lo and hi arrays must not be null");
    }
    if (lo.length != hi.length) {
      throw new IllegalArgumentException(
          "box: lo has "
              + lo.length
              + " entries but hi has "
              + hi.length
              + "; give one pair per coordinate");
    }
    for (int i = 0; i < lo.length; i++) {
      checkInterval("box", i, lo[i], hi[i]);
    }
    return new Box(Double.NaN, Double.NaN, lo.clone(), hi.clone());
  }

  private static void checkInterval(String name, int i, double lo, double hi) {
    String where = i < 0 ? name : name + "[" + i + "]";
    if (Double.isNaN(lo) || Double.isNaN(hi)) {
      throw new IllegalArgumentException(where + ": bounds must not be NaN");
    }
    if (!(lo <= hi)) {
      throw new IllegalArgumentException(
          where + ": lower bound " + lo + " exceeds upper bound " + hi);
    }
    if (lo == Double.POSITIVE_INFINITY || hi == Double.NEGATIVE_INFINITY) {
      throw new IllegalArgumentException(
          where + ": the interval [" + lo + ", " + hi + "] is empty of finite points");
    }
  }

  /** True when no coordinate is constrained. */
  public boolean isNone() {
    return this == NONE
        || (los == null && lo == Double.NEGATIVE_INFINITY && hi == Double.POSITIVE_INFINITY);
  }

  /** True when the bounds differ per coordinate. */
  public boolean isPerCoordinate() {
    return los != null;
  }

  /** Number of coordinates of a per-coordinate box; -1 for a scalar box or none. */
  public int dimension() {
    return los == null ? -1 : los.length;
  }

  /** Lower bound of coordinate {@code i}. */
  public double lo(int i) {
    return los == null ? lo : los[i];
  }

  /** Upper bound of coordinate {@code i}. */
  public double hi(int i) {
    return his == null ? hi : his[i];
  }

  /** Width {@code D_i = b_i - a_i} (infinite for an unbounded side). */
  public double width(int i) {
    return hi(i) - lo(i);
  }

  /** True when every bound is finite. */
  public boolean isFinite() {
    if (los == null) {
      return Double.isFinite(lo) && Double.isFinite(hi);
    }
    for (int i = 0; i < los.length; i++) {
      if (!Double.isFinite(los[i]) || !Double.isFinite(his[i])) {
        return false;
      }
    }
    return true;
  }

  /** Euclidean diameter {@code sqrt(sum_i D_i^2)} over {@code d} coordinates. */
  public double euclideanDiameter(int d) {
    if (los == null) {
      return Math.sqrt((double) d) * (hi - lo);
    }
    double s = 0;
    for (int i = 0; i < los.length; i++) {
      double w = his[i] - los[i];
      s += w * w;
    }
    return Math.sqrt(s);
  }

  /** A copy of the lower bounds over {@code d} coordinates. */
  public double[] lowerBounds(int d) {
    if (los != null) {
      return los.clone();
    }
    double[] a = new double[d];
    Arrays.fill(a, lo);
    return a;
  }

  /** A copy of the upper bounds over {@code d} coordinates. */
  public double[] upperBounds(int d) {
    if (his != null) {
      return his.clone();
    }
    double[] a = new double[d];
    Arrays.fill(a, hi);
    return a;
  }

  /** Projection of {@code v} into coordinate {@code i}'s interval. */
  public double clamp(int i, double v) {
    return Math.min(Math.max(v, lo(i)), hi(i));
  }

  /** Checks that a per-coordinate box matches dimension {@code d}. */
  public void checkDimension(int d) {
    if (los != null && los.length != d) {
      throw new IllegalArgumentException(
          "box has " + los.length + " coordinates but the model has dimension " + d);
    }
  }

  @Override
  public String toString() {
    if (isNone()) return "none";
    if (los == null) return "[" + lo + ", " + hi + "]";
    return "per-coordinate(" + los.length + ")";
  }
}
