package org.onlinekernels.params;

/**
 * Parameter of ScInOL1 and ScInOL2 (Kempka, Kotlowski and Warmuth 2019).
 *
 * @param epsilon initial wealth / prior scale, finite and {@code > 0} (default 1)
 */
public record ScInOLParams(double epsilon) {
  public ScInOLParams {
    Checks.positiveFinite("epsilon", epsilon);
  }

  /** {@code epsilon = 1}. */
  public static ScInOLParams defaults() {
    return new ScInOLParams(1);
  }
}
