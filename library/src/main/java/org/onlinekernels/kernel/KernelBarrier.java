package org.onlinekernels.kernel;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Keeps every kernel body a compilation root of its own.
 *
 * <p>Why: the Vector API only runs at native speed when C2 inlines its (deep) internals and turns
 * them into intrinsics; past {@code MaxInlineLevel} (15) it gives up, and every vector is boxed on
 * the heap (measured: a double AdaGrad update ran many times slower and left garbage on every call;
 * bench-report/kernels-notes.md). A kernel body inlined into a caller's chain (trainer loop ->
 * optimizer -> kernel entry -> body -> vector ops) lands exactly there, and which body is hit
 * depended on which element type happened to run first. A call through a {@link MethodHandle} held
 * in an instance field is not a constant to C2, so it cannot inline through it: the body is
 * compiled on its own and its vector operations sit a few levels deep. The price is one indirect
 * call per kernel call (a few nanoseconds), not per element.
 */
public final class KernelBarrier {
  private KernelBarrier() {}

  /** A handle to {@code owner}'s implementation of {@code name}, bound to {@code kernel}. */
  static MethodHandle bind(Object kernel, Class<?> owner, String name, MethodType type) {
    return bind(MethodHandles.lookup(), kernel, owner, name, type);
  }

  /**
   * A handle to {@code owner}'s implementation of {@code name}, bound to {@code kernel}, found with
   * the caller's {@code lookup} (so a kernel may keep its bodies package-private).
   */
  public static MethodHandle bind(
      MethodHandles.Lookup lookup, Object kernel, Class<?> owner, String name, MethodType type) {
    try {
      return lookup.findVirtual(owner, name, type).bindTo(kernel);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(
          "kernel method " + owner.getSimpleName() + "." + name + " not found", e);
    }
  }

  /** Rethrows what a kernel body threw: unchecked exceptions and errors as they are. */
  public static RuntimeException rethrow(Throwable t) {
    if (t instanceof RuntimeException r) {
      throw r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    throw new IllegalStateException("kernel body threw " + t, t);
  }
}
