package org.onlinekernels.kernel;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.provider.Arguments;

/** Buffers, adversarial gradient streams and bit comparison shared by the differential tests. */
public final class KernelTestSupport {
  private KernelTestSupport() {}

  /** Sizes around the lane counts of every species (4, 8, 16) plus two long ones. */
  public static final int[] SIZES = {1, 7, 8, 9, 15, 16, 17, 31, 33, 1023, 4097};

  /** Every size x type x byte offset 0..7 (offsets 1..7 are misaligned for both types). */
  public static List<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (int n : SIZES) {
      for (ElementType t : ElementType.values()) {
        for (int off = 0; off < 8; off++) {
          out.add(Arguments.of(t, n, off));
        }
      }
    }
    return out;
  }

  /** A zeroed segment of {@code n} elements starting {@code off} bytes into its allocation. */
  public static MemorySegment slice(Arena a, ElementType t, int n, int off) {
    return a.allocate((long) n * t.bytes() + off + 8).asSlice(off, (long) n * t.bytes());
  }

  public static void set(MemorySegment m, ElementType t, int i, double v) {
    if (t == ElementType.FLOAT) m.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, (float) v);
    else m.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, v);
  }

  public static double get(MemorySegment m, ElementType t, int i) {
    return t == ElementType.FLOAT
        ? m.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i)
        : m.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
  }

  /** Raw bits, so that -0 != +0 and NaN payloads count. */
  public static long bits(MemorySegment m, ElementType t, int i) {
    return t == ElementType.FLOAT
        ? Float.floatToRawIntBits(m.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i))
        : Double.doubleToRawLongBits(m.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i));
  }

  /** Fails with the first coordinate whose bits differ. */
  public static void assertBitEqual(
      String what, MemorySegment expected, MemorySegment actual, ElementType t, int n) {
    for (int i = 0; i < n; i++) {
      if (bits(expected, t, i) != bits(actual, t, i)) {
        throw new AssertionError(
            what
                + "["
                + i
                + "]: expected "
                + get(expected, t, i)
                + " but was "
                + get(actual, t, i));
      }
    }
  }

  /**
   * Gradient stream: per coordinate a sign that flips rarely (long runs of one sign), magnitudes
   * {@code 2^-20 .. 2^20}, a quarter exact zeros. Each round fills the dense {@code x} and the
   * sparse pair with the same vector: every nonzero, plus some explicit zero entries.
   */
  public static final class Stream {
    private final SplittableRandom r;
    private final int n;
    private final ElementType t;
    private final boolean[] negative;

    /** Dense gradient (zeros where absent). */
    public final MemorySegment x;

    /** Sparse indices. */
    public final MemorySegment idx;

    /** Sparse values. */
    public final MemorySegment val;

    /** Sparse count of the last round. */
    public int nnz;

    public Stream(Arena a, ElementType t, int n, int off, long seed) {
      this.r = new SplittableRandom(seed);
      this.n = n;
      this.t = t;
      this.negative = new boolean[n];
      this.x = slice(a, t, n, off);
      this.idx = a.allocate(4L * n + off).asSlice(off);
      this.val = slice(a, t, n, off);
    }

    /** Next round; {@code density} is the chance a coordinate is nonzero. */
    public void next(double density) {
      nnz = 0;
      for (int i = 0; i < n; i++) {
        if (r.nextInt(50) == 0) negative[i] = !negative[i];
        double v = 0;
        if (r.nextDouble() < density) {
          v = Math.scalb(1 + r.nextDouble(), r.nextInt(-20, 21)) * (negative[i] ? -1 : 1);
        }
        set(x, t, i, v);
        if (v != 0 || r.nextInt(8) == 0) {
          idx.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, nnz, i);
          set(val, t, nnz++, v);
        }
      }
    }

    public SplittableRandom random() {
      return r;
    }
  }
}
