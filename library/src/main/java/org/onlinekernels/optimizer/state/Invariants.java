package org.onlinekernels.optimizer.state;

/**
 * The phrases an optimizer's invariant check answers with: each helper returns {@code null} when
 * the value holds, else "{@code what} is ..." naming the quantity and the rule, e.g. {@code "S2
 * (sum of squared gradients) is finite and >= 0"}. {@link
 * org.onlinekernels.optimizer.AbstractOptimizer#writeState}, {@link
 * org.onlinekernels.optimizer.AbstractOptimizer#writeScalarState} and {@link
 * org.onlinekernels.optimizer.checkpoint.Checkpoint#load} refuse a value that breaks one.
 */
public final class Invariants {
  private Invariants() {}

  /** An optimizer's invariants: the one each state variable or scalar keeps. */
  @FunctionalInterface
  public interface Check {
    /** The invariant {@code value} would break as state {@code name}, or null if it holds. */
    String broken(String name, double value);
  }

  /** Null if {@code v} is finite. */
  public static String finite(double v, String what) {
    return Double.isFinite(v) ? null : what + " is finite";
  }

  /** Null if {@code v} is finite and {@code >= 0}. */
  public static String nonNegative(double v, String what) {
    return Double.isFinite(v) && v >= 0 ? null : what + " is finite and >= 0";
  }

  /** Null if {@code v} is finite and {@code > 0}. */
  public static String positive(double v, String what) {
    return Double.isFinite(v) && v > 0 ? null : what + " is finite and > 0";
  }

  /** Null if {@code v} is finite and {@code >= 1} (a round counter). */
  public static String atLeastOne(double v, String what) {
    return Double.isFinite(v) && v >= 1 ? null : what + " is finite and >= 1";
  }

  /** Null if {@code |v| <= cap}. */
  public static String within(double v, double cap, String what) {
    return Math.abs(v) <= cap
        ? null
        : what + " is finite and within +-" + cap + " (its saturation bound)";
  }
}
