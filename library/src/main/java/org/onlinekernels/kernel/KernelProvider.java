package org.onlinekernels.kernel;

import java.util.Locale;
import java.util.logging.Logger;
import org.onlinekernels.kernel.scalar.ScalarKernelProvider;

/**
 * Chooses the kernel implementation at run time, in the manner of Lucene's {@code
 * VectorizationProvider}: the Vector API implementation when the incubator module {@code
 * jdk.incubator.vector} is readable, otherwise a plain-Java scalar implementation of the same API,
 * with one warning naming the JVM flag to add.
 *
 * <p>The system property {@value #PROPERTY} forces a choice: {@code vector}, {@code scalar} or
 * {@code auto} (the default). Forcing {@code vector} without the module is an error, not a silent
 * fallback, so a benchmark can never measure the wrong thing.
 */
public abstract class KernelProvider {
  /** System property that forces the implementation: {@code auto | vector | scalar}. */
  public static final String PROPERTY = "onlinekernels.vectorization";

  private static final Logger LOG = Logger.getLogger(KernelProvider.class.getName());
  private static final String VECTOR_MODULE = "jdk.incubator.vector";
  private static final String VECTOR_PROVIDER =
      "org.onlinekernels.kernel.vector.VectorKernelProvider";

  /** Implementation constructors are package-internal. */
  protected KernelProvider() {}

  /** The implementation chosen for this JVM (decided once). */
  public static KernelProvider get() {
    return Holder.INSTANCE;
  }

  /** The scalar implementation, always available. */
  public static KernelProvider scalar() {
    return ScalarKernelProvider.INSTANCE;
  }

  /**
   * The Vector API implementation.
   *
   * @throws UnsupportedOperationException when {@code jdk.incubator.vector} is not readable
   */
  public static KernelProvider vector() {
    if (!vectorModulePresent()) {
      throw new UnsupportedOperationException(
          "the Vector API module is not available; start the JVM with --add-modules "
              + VECTOR_MODULE);
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
        LOG.warning(
            "Vector API not available: online-kernels falls back to its scalar kernels, "
                + "which are several times slower. Add the JVM flag --add-modules "
                + VECTOR_MODULE
                + " to use the SIMD kernels.");
        return scalar();
      default:
        throw new IllegalArgumentException(
            PROPERTY + " must be auto, vector or scalar, got '" + mode + "'");
    }
  }

  /** Short name: {@code vector} or {@code scalar}. */
  public abstract String name();

  /** Whether this is the Vector API implementation. */
  public final boolean isVector() {
    return name().equals("vector");
  }

  /**
   * Kernels shared by the predict steps: dot products and norms. The rules' own kernels come from
   * their generated classes, e.g. {@code ScInOL2Kernel.of(provider, type)}, which ask this provider
   * whether to run the Vector API ({@link #isVector}).
   */
  public abstract LinearAlgebraKernel linearAlgebra(ElementType type);

  @Override
  public String toString() {
    return name();
  }
}
