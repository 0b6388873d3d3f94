package org.onlinekernels.bench;

import java.util.Arrays;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.rules.scinol2.ReferenceScInOL2;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * ScInOL2 (ALGORITHMS.md section 4), one linear-model round per call (predict + update), {@code
 * epsilon = 1}.
 *
 * <p>Minimal traffic per coordinate and round. The update needs {@code g}, which needs the whole
 * {@code yhat}, so a round is two passes by nature. Recompute mode: predict reads {@code G, S2, M,
 * eta, x} and writes {@code M}; update reads {@code G, S2, M, eta, x} and writes {@code G, S2,
 * eta}: 14 elements. Stored mode: predict also writes {@code w}, update reads {@code w} instead of
 * {@code M}: 15 elements.
 */
public class ScInOL2Bench extends KernelSuite {
  /** Recompute mode (the default optimizer). */
  public static class Round extends RoundState {
    @Override
    protected AbstractOptimizer create() {
      return new ScInOL2Optimizer(d, t, ScInOLParams.defaults(), false, arena, kernels);
    }

    @Override
    protected String movedBuffer() {
      return "G";
    }
  }

  /** Stored-weights mode. */
  public static class RoundStored extends Round {
    @Override
    protected AbstractOptimizer create() {
      return new ScInOL2Optimizer(d, t, ScInOLParams.defaults(), true, arena, kernels);
    }
  }

  /** Sparse rounds at d = 2^22 (recompute mode). */
  public static class Sparse extends SparseRoundState {
    @Override
    protected AbstractOptimizer create() {
      return new ScInOL2Optimizer(d, t, ScInOLParams.defaults(), false, arena, kernels);
    }
  }

  /**
   * What a user would write instead: two plain loops over Java arrays, storing {@code w} between
   * predict and update ({@link FloatHandLoops#predict}, {@link FloatHandLoops#update}).
   */
  public static class HandWritten extends ArrayParams {
    /** Float state. */
    public float[] gf, s2f, mf, etaf, wf, xf, xf2;

    /** Double state. */
    public double[] gd, s2d, md, etad, wd, xd, xd2;

    /** Sum of the iteration's predictions. */
    public double yhatSum;

    double y = 1;

    /** Allocates arrays. */
    @Setup(Level.Trial)
    public void setUp() {
      if (type.equals("float")) {
        gf = new float[d];
        s2f = new float[d];
        mf = new float[d];
        etaf = new float[d];
        wf = new float[d];
        xf = BenchData.floatValues(d, BenchData.SEED_X);
        xf2 = BenchData.floatValues(d, BenchData.SEED_X2);
      } else {
        gd = new double[d];
        s2d = new double[d];
        md = new double[d];
        etad = new double[d];
        wd = new double[d];
        xd = BenchData.values(d, BenchData.SEED_X);
        xd2 = BenchData.values(d, BenchData.SEED_X2);
      }
    }

    /** Initial state: {@code G = S2 = M = 0}, {@code eta = epsilon = 1}. */
    @Setup(Level.Iteration)
    public void reset() {
      if (gf != null) {
        Arrays.fill(gf, 0);
        Arrays.fill(s2f, 0);
        Arrays.fill(mf, 0);
        Arrays.fill(etaf, 1);
      } else {
        Arrays.fill(gd, 0);
        Arrays.fill(s2d, 0);
        Arrays.fill(md, 0);
        Arrays.fill(etad, 1);
      }
      y = 1;
      yhatSum = 0;
    }

    /** One round. */
    public double round() {
      double yhat;
      if (gf != null) {
        float[] x = y > 0 ? xf : xf2;
        yhat = FloatHandLoops.predict(gf, s2f, mf, etaf, wf, x);
        FloatHandLoops.update(gf, s2f, etaf, wf, x, (float) BenchData.logisticGrad(y, yhat));
      } else {
        double[] x = y > 0 ? xd : xd2;
        yhat = DoubleHandLoops.predict(gd, s2d, md, etad, wd, x);
        DoubleHandLoops.update(gd, s2d, etad, wd, x, BenchData.logisticGrad(y, yhat));
      }
      y = -y;
      yhatSum += yhat;
      return yhat;
    }

    /** Checks the state. */
    @TearDown(Level.Iteration)
    public void check() {
      checksum();
    }

    /** {@code sum(G) + sum(S2) + sum(M) + sum(eta)}, checked. */
    public double checksum() {
      BenchData.requireFinite("sum of yhat", yhatSum);
      double s =
          gf != null
              ? BenchData.checkedSum("G", gf)
                  + BenchData.checkedSum("S2", s2f)
                  + BenchData.checkedSum("M", mf)
                  + BenchData.checkedSum("eta", etaf)
              : BenchData.checkedSum("G", gd)
                  + BenchData.checkedSum("S2", s2d)
                  + BenchData.checkedSum("M", md)
                  + BenchData.checkedSum("eta", etad);
      double s20 = gf != null ? s2f[0] : s2d[0];
      if (!(s20 > 0)) throw new IllegalStateException("hand-written ScInOL2 left S2 untouched");
      return s;
    }
  }

  /** The scalar double oracle at the small sizes. */
  public static class Reference extends ReferenceRoundState {
    @Override
    protected ReferenceScInOL2 create() {
      return new ReferenceScInOL2(d, ScInOLParams.defaults());
    }
  }

  /** Round, recompute mode. */
  @Benchmark
  public double round(Round s) {
    return s.round();
  }

  /** Round, stored-weights mode. */
  @Benchmark
  public double roundStored(RoundStored s) {
    return s.round();
  }

  /** Sparse round. */
  @Benchmark
  public double sparse(Sparse s) {
    return s.round();
  }

  /** Plain Java loops. */
  @Benchmark
  public double handwritten(HandWritten s) {
    return s.round();
  }

  /** The reference. */
  @Benchmark
  public double reference(Reference s) {
    return s.round();
  }
}
