package org.onlinekernels.kernel.scalar;

import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.LinearAlgebraKernel;

/**
 * Plain-Java kernels: the fallback when the Vector API is unavailable, and the differential-test
 * twin.
 */
public final class ScalarKernelProvider extends KernelProvider {
  /** The one instance. */
  public static final ScalarKernelProvider INSTANCE = new ScalarKernelProvider();

  private ScalarKernelProvider() {}

  @Override
  public String name() {
    return "scalar";
  }

  @Override
  public LinearAlgebraKernel linearAlgebra(ElementType type) {
    return type == ElementType.FLOAT
        ? FloatLinearAlgebraScalarKernel.INSTANCE
        : DoubleLinearAlgebraScalarKernel.INSTANCE;
  }
}
