package org.onlinekernels.optimizer;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.LinearAlgebraKernel;

/**
 * The {@link InputPolicy} of one optimizer: under {@code CHECKED} an input's elements must be
 * finite and within the magnitude limit, and so must {@code |g|} and {@code |g| max|x|} of the
 * pending instance at its update; under {@code TRUSTED} nothing is scanned.
 */
final class InputGuard {
  private final ElementType type;
  private final LinearAlgebraKernel scan;
  private InputPolicy policy = InputPolicy.CHECKED;

  /** {@code max |x_i|} of the pending instance (for the {@code g * x} bound at its update). */
  private double pendingMaxAbs;

  InputGuard(ElementType type, KernelProvider kernels) {
    this.type = type;
    this.scan = kernels.linearAlgebra(type);
  }

  InputPolicy policy() {
    return policy;
  }

  void setPolicy(InputPolicy policy) {
    if (policy == null) {
      throw new IllegalArgumentException("input policy must be CHECKED or TRUSTED, got null");
    }
    this.policy = policy;
  }

  /**
   * {@code max |x|} over {@code n} elements of {@code v} (0 under TRUSTED), refusing a bad element
   * by name.
   */
  double scan(String name, MemorySegment v, int n) {
    if (policy == InputPolicy.TRUSTED) {
      return 0;
    }
    double m = scan.maxAbs(v, n);
    double limit = InputPolicy.magnitudeLimit(type);
    if (!(m <= limit)) {
      // Slow path, only on failure: name the first offending element.
      for (int i = 0; i < n; i++) {
        double e =
            type == ElementType.FLOAT
                ? v.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i)
                : v.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
        if (!(Math.abs(e) <= limit)) {
          throw new IllegalArgumentException(
              name
                  + "["
                  + i
                  + "] = "
                  + e
                  + (Double.isFinite(e)
                      ? " exceeds the input magnitude limit "
                          + limit
                          + " for "
                          + typeName()
                          + "; rescale the input"
                      : " is not finite; clean the input, or use InputPolicy.TRUSTED to skip this check at your own risk"));
        }
      }
    }
    return m;
  }

  /**
   * A row of validated rows ({@link SparseRows}) whose recorded {@code max|x_j|} is {@code maxAbs}.
   */
  void checkRow(int row, double maxAbs) {
    if (policy == InputPolicy.CHECKED && !(maxAbs <= InputPolicy.magnitudeLimit(type))) {
      throw new IllegalArgumentException(
          "row "
              + row
              + ": max |x_j| = "
              + maxAbs
              + " exceeds the input magnitude limit "
              + InputPolicy.magnitudeLimit(type)
              + " for "
              + typeName()
              + "; rescale the input");
    }
  }

  /** Records {@code max|x|} of the instance whose update comes next. */
  void pending(double maxAbs) {
    pendingMaxAbs = maxAbs;
  }

  /**
   * Under CHECKED: {@code |g|} and {@code |g| * max|x|} of the pending instance within the limit.
   */
  void checkGradient(double g) {
    if (policy == InputPolicy.TRUSTED) {
      return;
    }
    double limit = InputPolicy.magnitudeLimit(type);
    if (!(Math.abs(g) <= limit) || !(Math.abs(g) * pendingMaxAbs <= limit)) {
      throw new IllegalArgumentException(
          "g = "
              + g
              + ": |g| and |g| * max|x_i| (max|x_i| = "
              + pendingMaxAbs
              + ") must be <= "
              + limit
              + " for "
              + typeName()
              + "; rescale the loss or the input");
    }
  }

  /** Whether {@code out}'s {@code n} elements are all finite (a read-out's post-check). */
  boolean allFinite(MemorySegment out, int n) {
    return Double.isFinite(scan.maxAbs(out, n));
  }

  private String typeName() {
    return type.name().toLowerCase();
  }
}
