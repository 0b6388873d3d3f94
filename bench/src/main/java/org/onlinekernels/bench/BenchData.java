package org.onlinekernels.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import java.util.SplittableRandom;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;

/**
 * Seeded inputs and result checks shared by every benchmark.
 *
 * <p>Input values are drawn from {@code +-[0.25, 1]}: bounded away from 0 so that squares and
 * products never approach the denormal range (denormals would make a kernel look slow for a reason
 * that has nothing to do with the kernel), and of both signs so that accumulated state such as
 * {@code G} or {@code theta} oscillates instead of drifting. Every array and segment of the same
 * length and seed holds the same values, rounded to the element type, so the vector, scalar,
 * hand-written, reference and peer variants all see the same work.
 */
public final class BenchData {
  private BenchData() {}

  /** Seed of dense inputs ({@code x} or {@code g}). */
  public static final long SEED_X = 0x5EED_0001L;

  /**
   * Seed of the second instance of the linear-model rounds. Rounds alternate between two instances
   * with opposite labels: with one instance and alternating labels, DFEG's {@code theta} returns to
   * exactly 0 every second round at large d (its prediction is then ~0, so both gradients are -+0.5
   * x), which is a degenerate workload.
   */
  public static final long SEED_X2 = 0x5EED_0003L;

  /** Seed of the sparse index pools. */
  public static final long SEED_SPARSE = 0x5EED_0002L;

  /** The parsed {@code type} parameter. */
  public static ElementType type(String name) {
    return ElementType.parse(name);
  }

  /** The {@code impl} parameter: {@code vector} or {@code scalar} (the fallback). */
  public static KernelProvider provider(String impl) {
    return switch (impl) {
      case "vector" -> KernelProvider.vector();
      case "scalar" -> KernelProvider.scalar();
      default -> throw new IllegalArgumentException("impl must be vector or scalar, got " + impl);
    };
  }

  /** {@code n} seeded values in {@code +-[0.25, 1]}. */
  public static double[] values(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      double m = 0.25 + 0.75 * r.nextDouble();
      v[i] = r.nextBoolean() ? m : -m;
    }
    return v;
  }

  /** {@link #values} rounded to float. */
  public static float[] floatValues(int n, long seed) {
    double[] v = values(n, seed);
    float[] f = new float[n];
    for (int i = 0; i < n; i++) f[i] = (float) v[i];
    return f;
  }

  /**
   * A zeroed segment of {@code n} elements on a cache-line boundary (as the optimizers allocate).
   */
  public static MemorySegment allocate(Arena arena, ElementType t, long n) {
    return arena.allocate(n * t.bytes(), 64);
  }

  /** A segment holding {@link #values}{@code (n, seed)} scaled by {@code sign}. */
  public static MemorySegment filled(Arena arena, ElementType t, int n, long seed, double sign) {
    MemorySegment s = allocate(arena, t, n);
    double[] v = values(n, seed);
    for (int i = 0; i < n; i++) set(s, t, i, sign * v[i]);
    return s;
  }

  /** Element {@code i} as a double. */
  public static double get(MemorySegment s, ElementType t, long i) {
    return t == ElementType.FLOAT
        ? s.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i)
        : s.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
  }

  /** Sets element {@code i}, rounded to the element type. */
  public static void set(MemorySegment s, ElementType t, long i, double v) {
    if (t == ElementType.FLOAT) s.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, (float) v);
    else s.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, v);
  }

  /** Fills {@code n} elements with {@code v}. */
  public static void fill(MemorySegment s, ElementType t, long n, double v) {
    if (v == 0) {
      s.asSlice(0, n * t.bytes()).fill((byte) 0);
      return;
    }
    for (long i = 0; i < n; i++) set(s, t, i, v);
  }

  /**
   * Sum of the first {@code n} elements; throws if any is NaN or infinite, so a broken kernel
   * cannot post a time. Used as the checksum that the unit test compares across implementations.
   */
  public static double checkedSum(String what, MemorySegment s, ElementType t, long n) {
    double sum = 0;
    for (long i = 0; i < n; i++) {
      double v = get(s, t, i);
      if (!Double.isFinite(v)) {
        throw new IllegalStateException(
            what + "[" + i + "] = " + v + ": the benchmarked kernel produced a non-finite state");
      }
      sum += v;
    }
    return sum;
  }

  /** {@link #checkedSum} of every state buffer of {@code opt} (its first {@code d} elements). */
  public static double stateSum(AbstractOptimizer opt, long d) {
    double sum = 0;
    for (Map.Entry<String, MemorySegment> e : opt.state().entrySet()) {
      sum += checkedSum(e.getKey(), e.getValue(), opt.elementType(), d);
    }
    return sum;
  }

  /** {@link #checkedSum} for a {@code double[]}. */
  public static double checkedSum(String what, double[] a) {
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      if (!Double.isFinite(a[i]))
        throw new IllegalStateException(what + "[" + i + "] = " + a[i] + " is not finite");
      sum += a[i];
    }
    return sum;
  }

  /** {@link #checkedSum} for a {@code float[]}. */
  public static double checkedSum(String what, float[] a) {
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      if (!Float.isFinite(a[i]))
        throw new IllegalStateException(what + "[" + i + "] = " + a[i] + " is not finite");
      sum += a[i];
    }
    return sum;
  }

  /**
   * Throws unless the first and last elements moved away from {@code initial}: a kernel that
   * returns without writing would otherwise post the best time of the suite.
   */
  public static void requireMoved(
      String what, MemorySegment s, ElementType t, long n, double initial) {
    if (get(s, t, 0) == initial || get(s, t, n - 1) == initial) {
      throw new IllegalStateException(
          what + " was not updated: [0] = " + get(s, t, 0) + ", [n-1] = " + get(s, t, n - 1));
    }
  }

  /** Throws unless {@code v} is finite (e.g. the accumulated predictions of an iteration). */
  public static void requireFinite(String what, double v) {
    if (!Double.isFinite(v)) throw new IllegalStateException(what + " = " + v + " is not finite");
  }

  /**
   * Logistic-loss derivative {@code dl/dyhat = -y / (1 + exp(y yhat))}: the scalar gradient of a
   * linear-model round. Bounded by 1 and never 0, and the label alternates per round, so the state
   * stays finite and keeps moving over millions of rounds.
   */
  public static double logisticGrad(double y, double yhat) {
    return -y / (1 + Math.exp(y * yhat));
  }
}
