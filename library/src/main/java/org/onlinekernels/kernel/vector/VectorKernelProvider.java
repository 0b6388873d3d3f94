package org.onlinekernels.kernel.vector;

import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.LinearAlgebraKernel;

/**
 * The Vector API kernels. Loaded reflectively by {@link KernelProvider} only when the module is
 * readable.
 */
public final class VectorKernelProvider extends KernelProvider {
  /** The one instance. */
  public static final VectorKernelProvider INSTANCE = new VectorKernelProvider();

  private VectorKernelProvider() {}

  @Override
  public String name() {
    return "vector";
  }

  @Override
  public LinearAlgebraKernel linearAlgebra(ElementType type) {
    return type == ElementType.FLOAT
        ? FloatLinearAlgebraVectorKernel.INSTANCE
        : DoubleLinearAlgebraVectorKernel.INSTANCE;
  }
}
