package org.onlinekernels.kernel.scalar;

import org.onlinekernels.kernel.AdaGradKernel;
import org.onlinekernels.kernel.DfegKernel;
import org.onlinekernels.kernel.AdaptiveOgdKernel;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.GlobalAdaGradKernel;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.LinearAlgebraKernel;
import org.onlinekernels.kernel.ScInOL1Kernel;
import org.onlinekernels.kernel.ScInOL2Kernel;

/** Plain-Java kernels: the fallback when the Vector API is unavailable, and the differential-test twin. */
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
    return type == ElementType.FLOAT ? FloatLinearAlgebraScalarKernel.INSTANCE : DoubleLinearAlgebraScalarKernel.INSTANCE;
  }

  @Override
  public AdaGradKernel adaGrad(ElementType type) {
    return type == ElementType.FLOAT ? FloatAdaGradScalarKernel.INSTANCE : DoubleAdaGradScalarKernel.INSTANCE;
  }

  @Override
  public DfegKernel dfeg(ElementType type) {
    return type == ElementType.FLOAT ? FloatDfegScalarKernel.INSTANCE : DoubleDfegScalarKernel.INSTANCE;
  }

  @Override
  public ScInOL1Kernel scInOL1(ElementType type) {
    return type == ElementType.FLOAT ? FloatScInOL1ScalarKernel.INSTANCE : DoubleScInOL1ScalarKernel.INSTANCE;
  }

  @Override
  public ScInOL2Kernel scInOL2(ElementType type) {
    return type == ElementType.FLOAT ? FloatScInOL2ScalarKernel.INSTANCE : DoubleScInOL2ScalarKernel.INSTANCE;
  }

  @Override
  public GlobalAdaGradKernel globalAdaGrad(ElementType type) {
    return type == ElementType.FLOAT ? FloatGlobalAdaGradScalarKernel.INSTANCE : DoubleGlobalAdaGradScalarKernel.INSTANCE;
  }

  @Override
  public AdaptiveOgdKernel adaptiveOgd(ElementType type) {
    return type == ElementType.FLOAT ? FloatAdaptiveOgdScalarKernel.INSTANCE : DoubleAdaptiveOgdScalarKernel.INSTANCE;
  }

  @Override
  public org.onlinekernels.kernel.MixedAdaGradKernel mixedAdaGrad() {
    return MixedAdaGradScalarKernel.INSTANCE;
  }

  @Override
  public org.onlinekernels.kernel.MixedScInOL2Kernel mixedScInOL2() {
    return MixedScInOL2ScalarKernel.INSTANCE;
  }
}
