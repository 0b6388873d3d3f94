package org.onlinekernels.kernel.vector;

import org.onlinekernels.kernel.AdaGradKernel;
import org.onlinekernels.kernel.DfegKernel;
import org.onlinekernels.kernel.AdaptiveOgdKernel;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.GlobalAdaGradKernel;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.LinearAlgebraKernel;
import org.onlinekernels.kernel.ScInOL1Kernel;
import org.onlinekernels.kernel.ScInOL2Kernel;

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
  public DfegKernel dfeg(ElementType type) {
    return type == ElementType.FLOAT ? FloatDfegVectorKernel.INSTANCE : DoubleDfegVectorKernel.INSTANCE;
  }

  @Override
  public ScInOL1Kernel scInOL1(ElementType type) {
    return type == ElementType.FLOAT ? FloatScInOL1VectorKernel.INSTANCE : DoubleScInOL1VectorKernel.INSTANCE;
  }

  @Override
  public ScInOL2Kernel scInOL2(ElementType type) {
    return type == ElementType.FLOAT ? FloatScInOL2VectorKernel.INSTANCE : DoubleScInOL2VectorKernel.INSTANCE;
  }

  @Override
  public GlobalAdaGradKernel globalAdaGrad(ElementType type) {
    return type == ElementType.FLOAT ? FloatGlobalAdaGradVectorKernel.INSTANCE : DoubleGlobalAdaGradVectorKernel.INSTANCE;
  }

  @Override
  public AdaptiveOgdKernel adaptiveOgd(ElementType type) {
    return type == ElementType.FLOAT ? FloatAdaptiveOgdVectorKernel.INSTANCE : DoubleAdaptiveOgdVectorKernel.INSTANCE;
  }

  @Override
  public org.onlinekernels.kernel.MixedAdaGradKernel mixedAdaGrad() {
    return MixedAdaGradVectorKernel.INSTANCE;
  }

  @Override
  public org.onlinekernels.kernel.MixedScInOL2Kernel mixedScInOL2() {
    return MixedScInOL2VectorKernel.INSTANCE;
  }
}
