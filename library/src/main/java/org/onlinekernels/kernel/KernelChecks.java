package org.onlinekernels.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Validation done once at each public kernel entry, before any state is touched, so a rejected call
 * leaves every buffer bit-identical. The kernel bodies below it do no checks of their own beyond
 * the Vector API's bounds checks, which stay on.
 */
public final class KernelChecks {
  private KernelChecks() {}

  /** Dimension or count {@code n >= 0}. */
  public static void count(String name, int n) {
    if (n < 0) {
      throw new IllegalArgumentException(name + " must be >= 0, got " + n);
    }
  }

  /** A readable segment holding at least {@code n} elements of {@code type}. */
  public static void input(String name, MemorySegment s, int n, ElementType type) {
    // The element name is only built for the message: this check runs on every predict/update,
    // and the trainer's hot loop must not allocate.
    if (s == null || s.byteSize() < (long) n * type.bytes() || !s.scope().isAlive()) {
      input(name, s, (long) n * type.bytes(), n, type.name().toLowerCase());
    }
  }

  /** A writable segment holding at least {@code n} elements of {@code type}. */
  public static void state(String name, MemorySegment s, int n, ElementType type) {
    input(name, s, n, type);
    if (s.isReadOnly()) {
      throw new IllegalArgumentException(
          name + " is read-only; pass a writable segment for state that the kernel updates");
    }
  }

  private static void input(String name, MemorySegment s, long bytes, int n, String what) {
    if (s == null) {
      throw new IllegalArgumentException(name + " must not be null");
    }
    if (!s.scope().isAlive()) {
      throw new IllegalStateException(name + " belongs to an arena that is already closed");
    }
    // Checked here, before any state is written: a segment of another thread's confined arena
    // would otherwise fail at its first access, possibly after the kernel wrote some state.
    if (!s.isAccessibleBy(Thread.currentThread())) {
      throw new WrongThreadException(
          name
              + " belongs to a confined arena of another thread; pass a segment this thread may access");
    }
    if (s.byteSize() < bytes) {
      throw new IllegalArgumentException(
          name
              + " holds "
              + s.byteSize()
              + " bytes but "
              + n
              + " "
              + what
              + " elements need "
              + bytes
              + "; pass a larger segment or a smaller count");
    }
  }

  /** A finite scalar. */
  public static void finite(String name, double v) {
    if (!Double.isFinite(v)) {
      throw new IllegalArgumentException(name + " must be finite, got " + v);
    }
  }

  /** A finite scalar {@code >= 0}. */
  public static void nonNegative(String name, double v) {
    if (!(v >= 0) || v == Double.POSITIVE_INFINITY) {
      throw new IllegalArgumentException(name + " must be finite and >= 0, got " + v);
    }
  }

  /** A finite scalar {@code > 0}. */
  public static void positive(String name, double v) {
    if (!(v > 0) || v == Double.POSITIVE_INFINITY) {
      throw new IllegalArgumentException(name + " must be finite and > 0, got " + v);
    }
  }

  /** A scalar box {@code [lo, hi]} with {@code lo <= hi}, no NaN. */
  public static void box(double lo, double hi) {
    if (Double.isNaN(lo) || Double.isNaN(hi) || !(lo <= hi)) {
      throw new IllegalArgumentException(
          "box [" + lo + ", " + hi + "] must satisfy lo <= hi with no NaN");
    }
  }

  /**
   * Sparse input: {@code nnz} strictly increasing {@code int} indices in {@code [0, n)} and {@code
   * nnz} values. O(nnz).
   */
  public static void sparse(
      MemorySegment idx, MemorySegment val, int nnz, int n, ElementType type) {
    count("nnz", nnz);
    input("indices", idx, (long) nnz * Integer.BYTES, nnz, "int");
    input("values", val, nnz, type);
    int prev = -1;
    for (int j = 0; j < nnz; j++) {
      int i = idx.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, j);
      if (i <= prev || i >= n) {
        throw new IllegalArgumentException(
            i >= n || i < 0
                ? "indices["
                    + j
                    + "] = "
                    + i
                    + " is outside [0, "
                    + n
                    + "); sparse indices must address the model's coordinates"
                : "indices["
                    + j
                    + "] = "
                    + i
                    + " after "
                    + prev
                    + ": sparse indices must be strictly increasing");
      }
      prev = i;
    }
  }
}
