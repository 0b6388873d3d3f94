package org.onlinekernels.optimizer;

import org.onlinekernels.kernel.ElementType;

/**
 * A parameter valid in itself but too large for the optimizer's element type: the algorithm's
 * arithmetic in that type would overflow (Adaptive OGD's {@code 3 R^2} in float, a rate or a
 * starting wealth beyond the type's range). Thrown by constructors before any state is allocated.
 */
public final class ParameterRangeException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String parameter;

  /**
   * @param parameter the parameter, as named in its params record
   * @param message the whole one-line message
   */
  public ParameterRangeException(String parameter, String message) {
    super(message);
    this.parameter = parameter;
  }

  /** The parameter, as named in its params record ({@code R}, {@code epsilon}, ...). */
  public String parameter() {
    return parameter;
  }

  /**
   * Refuses a parameter whose magnitude exceeds {@code limit}, a bound that keeps the algorithm's
   * arithmetic in {@code type} finite; for constructors, before any state is allocated.
   *
   * @param name the parameter, as named in its params record
   * @param why what would go wrong beyond it, e.g. {@code "3 R^2 would overflow"}
   * @throws ParameterRangeException if {@code |value| > limit}
   */
  public static void check(
      String algorithm, ElementType type, String name, double value, double limit, String why) {
    if (Double.isFinite(value) && Math.abs(value) > limit) {
      throw new ParameterRangeException(
          name,
          algorithm
              + ": "
              + name
              + " = "
              + value
              + " is too large for "
              + type.name().toLowerCase()
              + " elements ("
              + why
              + "); |"
              + name
              + "| must be at most "
              + limit
              + (type == ElementType.FLOAT ? ", or use double elements" : ""));
    }
  }
}
