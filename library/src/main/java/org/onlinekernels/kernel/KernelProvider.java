package org.onlinekernels.kernel;

import java.util.Locale;
import java.util.logging.Logger;

/**
 * Chooses the kernel implementation at run time, in the manner of Lucene's
 * {@code VectorizationProvider}: the Vector API implementation when the incubator module
 * {@code jdk.incubator.vector} is readable, otherwise a plain-Java scalar implementation of the
 * same API, with one warning naming the JVM flag to add.
 *
 * <p>The system property {@value #PROPERTY} forces a choice: {@code vector}, {@code scalar} or
 * {@code auto} (the default). Forcing {@code vector} without the module is an error, not a
 * silent fallback, so a benchmark can never measure the wrong thing.
 */
public abstract class KernelProvider {
  /** System property that forces the implementation: {@code auto | vector | scalar}. */
  public static final String PROPERTY = "onlinekernels.vectorization";

  private static final Logger LOG = Logger.getLogger(KernelProvider.class.getName());
  private static final String VECTOR_MODULE = "jdk.incubator.vector";
  private static final String VECTOR_PROVIDER = "org.onlinekernels.kernel.vector.VectorKernelProvider";

  /** Implementation constructors are package-internal. */
  protected KernelProvider() {}

  /** The implementation chosen for this JVM (decided once). */
  public static KernelProvider get() {
    return Holder.INSTANCE;
  }

  /** The scalar implementation, always available. */
  public static KernelProvider scalar() {
    return org.onlinekernels.kernel.scalar.ScalarKernelProvider.INSTANCE;
  }

  /**
   * The Vector API implementation.
   *
   * @throws UnsupportedOperationException when {@code jdk.incubator.vector} is not readable
   */
  public static KernelProvider vector() {
    if (!vectorModulePresent()) {
      throw new UnsupportedOperationException(
          "the Vector API module is not available; start the JVM with --add-modules " + VECTOR_MODULE);
    }
    try {
      return (KernelProvider) Class.forName(VECTOR_PROVIDER).getField("INSTANCE").get(null);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot load " + VECTOR_PROVIDER, e);
    }
  }

  /** True when {@code jdk.incubator.vector} is in the boot layer. */
  public static boolean vectorModulePresent() {
    return ModuleLayer.boot().findModule(VECTOR_MODULE).isPresent();
  }

  private static final class Holder {
    static final KernelProvider INSTANCE = choose();
  }

  private static KernelProvider choose() {
    String mode = System.getProperty(PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
    switch (mode) {
      case "scalar":
        return scalar();
      case "vector":
        return vector();
      case "auto", "":
        if (vectorModulePresent()) {
          return vector();
        }
        LOG.warning("Vector API not available: online-kernels falls back to its scalar kernels, "
            + "which are several times slower. Add the JVM flag --add-modules " + VECTOR_MODULE
            + " to use the SIMD kernels.");
        return scalar();
      default:
        throw new IllegalArgumentException(
            PROPERTY + " must be auto, vector or scalar, got '" + mode + "'");
    }
  }

  /** Short name: {@code vector} or {@code scalar}. */
  public abstract String name();

  /** Kernels shared by the predict steps: dot products and norms. */
  public abstract LinearAlgebraKernel linearAlgebra(ElementType type);

  /** The AdaGrad family (per-coordinate rate) kernel. */
  public abstract AdaGradKernel adaGrad(ElementType type);

  /** The DFEG update kernel. */
  public abstract DfegKernel dfeg(ElementType type);

  /** The ScInOL1 kernel (ALGORITHMS.md section 3). */
  public abstract ScInOL1Kernel scInOL1(ElementType type);

  /** The ScInOL2 kernel (ALGORITHMS.md section 4). */
  public abstract ScInOL2Kernel scInOL2(ElementType type);

  /** The global-rate AdaGrad step kernel (the rate itself comes from {@link #linearAlgebra}). */
  public abstract GlobalAdaGradKernel globalAdaGrad(ElementType type);

  /** The Adaptive Online Gradient Descent kernel (ball and per-coordinate forms). */
  public abstract AdaptiveOgdKernel adaptiveOgd(ElementType type);

  /**
   * Mixed-precision AdaGrad: float weights and inputs, double {@code Q} (see {@link MixedAdaGradKernel}).
   */
  public abstract MixedAdaGradKernel mixedAdaGrad();

  /**
   * Mixed-precision ScInOL2: float inputs and {@code M}, double {@code G}, {@code S2}, wealth (see
   * {@link MixedScInOL2Kernel}).
   */
  public abstract MixedScInOL2Kernel mixedScInOL2();

  @Override
  public String toString() {
    return name();
  }
}
