package org.onlinekernels.kernel.vector;

import org.onlinekernels.kernel.AdaGradKernel;
import org.onlinekernels.kernel.AdaptiveOgdKernel;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.GlobalAdaGradKernel;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.LinearAlgebraKernel;

/** The Vector API kernels. Loaded reflectively by {@link KernelProvider} only when the module is readable. */
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
    return type == ElementType.FLOAT ? FloatLinearAlgebraVectorKernel.INSTANCE : DoubleLinearAlgebraVectorKernel.INSTANCE;
  }

  @Override
  public AdaGradKernel adaGrad(ElementType type) {
    return type == ElementType.FLOAT ? FloatAdaGradVectorKernel.INSTANCE : DoubleAdaGradVectorKernel.INSTANCE;
  }

  @Override
  public GlobalAdaGradKernel globalAdaGrad(ElementType type) {
    return type == ElementType.FLOAT ? FloatGlobalAdaGradVectorKernel.INSTANCE : DoubleGlobalAdaGradVectorKernel.INSTANCE;
  }

  @Override
  public AdaptiveOgdKernel adaptiveOgd(ElementType type) {
    return type == ElementType.FLOAT ? FloatAdaptiveOgdVectorKernel.INSTANCE : DoubleAdaptiveOgdVectorKernel.INSTANCE;
  }
}
