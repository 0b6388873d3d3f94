package org.onlinekernels.bench;

import java.lang.foreign.MemorySegment;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.reference.ReferenceModel;
import org.onlinekernels.rules.adagrad.AdaGradKernel;
import org.onlinekernels.rules.adagrad.ReferenceAdaGrad;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Per-coordinate AdaGrad (ALGORITHMS.md section 1), gradient form, {@code eta = 0.1}, {@code delta
 * = 1e-6} (Tribuo's default epsilon, so the peer does the same arithmetic), no box. The gradient's
 * sign alternates per call (kernel {@code scale = +-1}, exact), so {@code w} oscillates; {@code Q}
 * grows by at most 1 per call and is reset every iteration.
 *
 * <p>Minimal traffic per coordinate: read {@code w, Q, g}, write {@code w, Q} = 5 elements. With
 * {@code Q} in double and {@code w, g} in float (mixed precision, {@link Dense#qType}): float 20
 * bytes, mixed 28, double 40; mixed also does all its arithmetic at double width (half float's
 * lanes).
 */
public class AdaGradBench extends KernelSuite {
  static final double ETA = 0.1;
  static final double DELTA = 1e-6;

  /** The stateless kernel's dense update: {@code w, Q} in place, gradient {@code g}. */
  public static class Dense extends DenseParams {
    /**
     * The type of {@code Q}: {@code same} as {@code w}, or {@code double} beside a float {@code w}
     * (mixed precision, {@code AdaGradKernel.mixed}; docs/GUARANTEES.md). No report profile sets
     * it: {@code -p type=float -p qType=double} measures the mixed form.
     */
    @Param({"same"})
    public String qType = "same";

    /** Weights, accumulated squared gradients, gradient. */
    public MemorySegment w, q, g;

    AdaGradKernel kernel;
    ElementType qt;
    double scale = 1;

    /** Allocates buffers. */
    @Setup(Level.Trial)
    public void setUp() {
      open();
      boolean mixed = qType.equals("double");
      if (mixed && t != ElementType.FLOAT) {
        throw new IllegalArgumentException("qType = double (mixed precision) needs type = float");
      }
      if (!mixed && !qType.equals("same")) {
        throw new IllegalArgumentException("qType must be same or double, got " + qType);
      }
      qt = mixed ? ElementType.DOUBLE : t;
      kernel = mixed ? AdaGradKernel.mixed(kernels) : AdaGradKernel.of(kernels, t);
      // JIT warm-up at a small size first (see DenseParams.WARM_D).
      MemorySegment sw = BenchData.allocate(arena, t, WARM_D),
          sq = BenchData.allocate(arena, qt, WARM_D);
      MemorySegment sg = BenchData.filled(arena, t, WARM_D, BenchData.SEED_X, 1);
      for (int i = 0; i < warmCalls; i++) {
        kernel.updateDense(
            sw,
            sq,
            sg,
            WARM_D,
            (i & 1) == 0 ? 1 : -1,
            ETA,
            DELTA,
            Double.NEGATIVE_INFINITY,
            Double.POSITIVE_INFINITY);
      }
      w = BenchData.allocate(arena, t, d);
      q = BenchData.allocate(arena, qt, d);
      g = BenchData.filled(arena, t, d, BenchData.SEED_X, 1);
    }

    /** Initial state {@code w = Q = 0}. */
    @Setup(Level.Iteration)
    public void reset() {
      BenchData.fill(w, t, d, 0);
      BenchData.fill(q, qt, d, 0);
      scale = 1;
    }

    /** One update. */
    public void step() {
      kernel.updateDense(
          w, q, g, d, scale, ETA, DELTA, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
      scale = -scale;
    }

    /** Checks finiteness and that both buffers moved. */
    @TearDown(Level.Iteration)
    public void check() {
      checksum();
    }

    /** {@code sum(w) + sum(Q)}, checked. */
    public double checksum() {
      BenchData.requireMoved("Q", q, qt, d, 0);
      BenchData.requireMoved("w", w, t, d, 0);
      return BenchData.checkedSum("w", w, t, d) + BenchData.checkedSum("Q", q, qt, d);
    }

    /** Frees buffers. */
    @TearDown(Level.Trial)
    public void tearDown() {
      close();
    }
  }

  /** Sparse update at d = 2^22 on pooled gradients. */
  public static class Sparse extends SparseParams {
    /** State. */
    public MemorySegment w, q;

    AdaGradKernel kernel;
    double scale = 1;

    /** Allocates buffers and the pool. */
    @Setup(Level.Trial)
    public void setUp() {
      open();
      kernel = AdaGradKernel.of(kernels, t);
      w = BenchData.allocate(arena, t, d);
      q = BenchData.allocate(arena, t, d);
      for (int i = 0; i < warmCalls; i++) step();
      reset();
    }

    /** Initial state. */
    @Setup(Level.Iteration)
    public void reset() {
      BenchData.fill(w, t, d, 0);
      BenchData.fill(q, t, d, 0);
      pool.rewind();
      scale = 1;
    }

    /** One sparse update. */
    public void step() {
      int k = pool.next();
      kernel.updateSparse(
          w,
          q,
          d,
          pool.idx[k],
          pool.val[k],
          nnz,
          scale,
          ETA,
          DELTA,
          Double.NEGATIVE_INFINITY,
          Double.POSITIVE_INFINITY);
      scale = -scale;
    }

    /** Checks the state. */
    @TearDown(Level.Iteration)
    public void check() {
      checksum();
    }

    /** {@code sum(w) + sum(Q)}, checked; Q must have grown. */
    public double checksum() {
      double sq = BenchData.checkedSum("Q", q, t, d);
      if (!(sq > 0)) throw new IllegalStateException("sparse AdaGrad left Q untouched");
      return BenchData.checkedSum("w", w, t, d) + sq;
    }

    /** Frees buffers. */
    @TearDown(Level.Trial)
    public void tearDown() {
      close();
    }
  }

  /**
   * What a user would write instead: a plain loop over {@code float[]}/{@code double[]} ({@link
   * FloatHandLoops#adaGrad}).
   */
  public static class HandWritten extends ArrayParams {
    /** Float state (type = float). */
    public float[] wf, qf, gf;

    /** Double state (type = double). */
    public double[] wd, qd, gd;

    double scale = 1;

    /** Allocates arrays. */
    @Setup(Level.Trial)
    public void setUp() {
      if (type.equals("float")) {
        wf = new float[d];
        qf = new float[d];
        gf = BenchData.floatValues(d, BenchData.SEED_X);
      } else {
        wd = new double[d];
        qd = new double[d];
        gd = BenchData.values(d, BenchData.SEED_X);
      }
    }

    /** Initial state. */
    @Setup(Level.Iteration)
    public void reset() {
      if (wf != null) {
        java.util.Arrays.fill(wf, 0);
        java.util.Arrays.fill(qf, 0);
      } else {
        java.util.Arrays.fill(wd, 0);
        java.util.Arrays.fill(qd, 0);
      }
      scale = 1;
    }

    /** One update. */
    public void step() {
      if (wf != null) FloatHandLoops.adaGrad(wf, qf, gf, (float) scale, (float) ETA, (float) DELTA);
      else DoubleHandLoops.adaGrad(wd, qd, gd, scale, ETA, DELTA);
      scale = -scale;
    }

    /** Checks the state. */
    @TearDown(Level.Iteration)
    public void check() {
      checksum();
    }

    /** {@code sum(w) + sum(Q)}, checked. */
    public double checksum() {
      double s =
          wf != null
              ? BenchData.checkedSum("w", wf) + BenchData.checkedSum("Q", qf)
              : BenchData.checkedSum("w", wd) + BenchData.checkedSum("Q", qd);
      double q0 = wf != null ? qf[0] : qd[0];
      if (!(q0 > 0)) throw new IllegalStateException("hand-written AdaGrad left Q untouched");
      return s;
    }
  }

  /**
   * The scalar {@code double[]} oracle, at the small sizes only (it is not meant to be fast): steps
   * on {@code g} and {@code -g}, in turn.
   */
  public static class Reference extends ReferenceRoundState {
    @Override
    protected ReferenceAdaGrad create() {
      return new ReferenceAdaGrad(d, AdaGradParams.eta(ETA).withDelta(DELTA));
    }

    /** {@code g} ({@link BenchData#SEED_X}), or the second instance {@code -g}. */
    @Override
    protected double[] input(boolean second) {
      double[] g = BenchData.values(d, BenchData.SEED_X);
      if (second) for (int i = 0; i < d; i++) g[i] = -g[i];
      return g;
    }

    /** A gradient step on {@code g} (the label is not used); returns 0. */
    @Override
    protected double call(ReferenceModel m, double[] g, double y) {
      ((ReferenceAdaGrad) m).step(g);
      return 0;
    }
  }

  /** Dense update of the library's kernel. */
  @Benchmark
  public Object dense(Dense s) {
    s.step();
    return s.w;
  }

  /** Sparse update; time per call, the report divides by nnz. */
  @Benchmark
  public Object sparse(Sparse s) {
    s.step();
    return s.w;
  }

  /** The plain Java loop. */
  @Benchmark
  public Object handwritten(HandWritten s) {
    s.step();
    return s;
  }

  /** The scalar double reference. */
  @Benchmark
  public double reference(Reference s) {
    return s.round();
  }
}
