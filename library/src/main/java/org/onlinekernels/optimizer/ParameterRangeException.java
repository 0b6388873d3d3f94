package org.onlinekernels.optimizer;

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
   * @param message   the whole one-line message
   */
  public ParameterRangeException(String parameter, String message) {
    super(message);
    this.parameter = parameter;
  }

  /** The parameter, as named in its params record ({@code R}, {@code epsilon}, ...). */
  public String parameter() {
    return parameter;
  }
}
