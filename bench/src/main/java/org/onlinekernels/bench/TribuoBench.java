package org.onlinekernels.bench;

import org.onlinekernels.kernel.ElementType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.tribuo.math.Parameters;
import org.tribuo.math.la.DenseVector;
import org.tribuo.math.la.SparseVector;
import org.tribuo.math.la.Tensor;
import org.tribuo.math.optimisers.AdaGrad;

/**
 * The peer: Tribuo's AdaGrad ({@code org.tribuo.math.optimisers.AdaGrad}, learning rate 0.1,
 * epsilon 1e-6 as in our {@link AdaGradBench}) on one {@link DenseVector} parameter, as Tribuo's
 * SGD trainers drive it: {@code step(grads, weight)} turns the gradient into the update in place
 * (two passes: {@code Q += g^2}, then {@code g *= eta / (eps + sqrt(Q))}) and {@code
 * Parameters.update} adds it to the weights (a third pass). Doubles only.
 *
 * <p>What differs in the work, honestly: Tribuo overwrites the gradient, so the dense benchmark
 * refills it from a source vector before every step ({@code setElements}, an in-place copy: 2 more
 * element moves per coordinate, no allocation; a real Tribuo trainer allocates a fresh gradient per
 * example instead). The sparse benchmark builds a {@link SparseVector} per call (one allocation of
 * {@code nnz} indices and values), as Tribuo's objectives do per example. The alternating sign is
 * passed as Tribuo's {@code weight} argument.
 */
public class TribuoBench extends KernelSuite {
  /** One dense weight vector as Tribuo {@link Parameters}. */
  static final class OneVector implements Parameters {
    private static final long serialVersionUID = 1L;

    final DenseVector w;

    OneVector(int d) {
      w = new DenseVector(d);
    }

    @Override
    public Tensor[] getEmptyCopy() {
      return new Tensor[] {new DenseVector(w.size())};
    }

    @Override
    public Tensor[] get() {
      return new Tensor[] {w};
    }

    @Override
    public void set(Tensor[] p) {
      w.setElements((DenseVector) p[0]);
    }

    @Override
    public void update(Tensor[] gradients) {
      w.intersectAndAddInPlace(gradients[0]);
    }

    @Override
    public org.tribuo.math.protos.ParametersProto serialize() {
      throw new UnsupportedOperationException("not used by the benchmark");
    }

    @Override
    public Tensor[] merge(Tensor[][] gradients, int size) {
      throw new UnsupportedOperationException("not used by the benchmark");
    }
  }

  /** Dense gradients. */
  @State(Scope.Thread)
  public static class Dense {
    /** Dimension. */
    @Param({"1024", "16384", "262144", "4194304", "16777216"})
    public int d;

    /** Weights. */
    public OneVector params;

    AdaGrad opt;
    DenseVector source, grad;
    Tensor[] grads;
    double sign = 1;

    /** Builds the gradient source. */
    @Setup(Level.Trial)
    public void setUp() {
      source = DenseVector.createDenseVector(BenchData.values(d, BenchData.SEED_X));
      grad = new DenseVector(d);
      grads = new Tensor[] {grad};
    }

    /** Fresh optimizer state. */
    @Setup(Level.Iteration)
    public void reset() {
      params = new OneVector(d);
      opt = new AdaGrad(AdaGradBench.ETA, AdaGradBench.DELTA);
      opt.initialise(params);
      sign = 1;
    }

    /** One step. */
    public void step() {
      grad.setElements(source);
      params.update(opt.step(grads, sign));
      sign = -sign;
    }

    /** Checks the weights. */
    @TearDown(Level.Iteration)
    public void check() {
      checksum();
    }

    /** Sum of the weights, checked. */
    public double checksum() {
      if (params.w.get(0) == 0) throw new IllegalStateException("Tribuo AdaGrad left w untouched");
      return BenchData.checkedSum("w", params.w.toArray());
    }
  }

  /** Sparse gradients at d = 2^22 from the same pool as ours. */
  @State(Scope.Thread)
  public static class Sparse {
    /** Dimension. */
    @Param({"4194304"})
    public int d;

    /** Nonzeros. */
    @Param({"16", "128", "1024"})
    public int nnz;

    /** Pool size in nonzeros (the unit test lowers it). */
    public int poolNonzeros = 1 << 20;

    /** Weights. */
    public OneVector params;

    AdaGrad opt;
    SparsePool pool;
    java.lang.foreign.Arena arena;
    double sign = 1;

    /** Builds the pool (its Java arrays are used). */
    @Setup(Level.Trial)
    public void setUp() {
      arena = java.lang.foreign.Arena.ofShared();
      pool = new SparsePool(arena, ElementType.DOUBLE, d, nnz, poolNonzeros, BenchData.SEED_SPARSE);
    }

    /** Fresh optimizer state. */
    @Setup(Level.Iteration)
    public void reset() {
      params = new OneVector(d);
      opt = new AdaGrad(AdaGradBench.ETA, AdaGradBench.DELTA);
      opt.initialise(params);
      pool.rewind();
      sign = 1;
    }

    /** One step. */
    public void step() {
      int k = pool.next();
      Tensor[] g = {SparseVector.createSparseVector(d, pool.idxArrays[k], pool.valArrays[k])};
      params.update(opt.step(g, sign));
      sign = -sign;
    }

    /** Checks the weights. */
    @TearDown(Level.Iteration)
    public void check() {
      checksum();
    }

    /** Sum of the weights, checked. */
    public double checksum() {
      double s = BenchData.checkedSum("w", params.w.toArray());
      if (s == 0) throw new IllegalStateException("Tribuo sparse AdaGrad left w untouched");
      return s;
    }

    /** Frees the pool. */
    @TearDown(Level.Trial)
    public void tearDown() {
      arena.close();
    }
  }

  /** Dense AdaGrad step of Tribuo. */
  @Benchmark
  public Object dense(Dense s) {
    s.step();
    return s.params;
  }

  /** Sparse AdaGrad step of Tribuo. */
  @Benchmark
  public Object sparse(Sparse s) {
    s.step();
    return s.params;
  }
}
