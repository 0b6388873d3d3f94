package org.onlinekernels.bench;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.GradientOptimizer;
import org.onlinekernels.optimizer.InputPolicy;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/** Sparse twin of {@link StepState}: {@code stepSparse} on the next pooled gradient. */
public abstract class SparseStepState extends SparseParams {
  /** The optimizer under test. */
  public AbstractOptimizer opt;

  private GradientOptimizer step;
  private double initialSum;

  /** Builds the optimizer. */
  protected abstract AbstractOptimizer create();

  /** Allocates state and the pool. */
  @Setup(Level.Trial)
  public void setUp() {
    open();
    opt = create();
    // Kernel cost only: the CHECKED input scan's cost is in bench-report/kernels-notes.md.
    opt.setInputPolicy(InputPolicy.TRUSTED);
    step = (GradientOptimizer) opt;
    initialSum = stateSum();
    for (int i = 0; i < warmCalls; i++) step();
    reset();
  }

  /** Restarts from the initial state and the start of the pool. */
  @Setup(Level.Iteration)
  public void reset() {
    opt.reset();
    pool.rewind();
  }

  /** One sparse step. */
  public void step() {
    int k = pool.next();
    step.stepSparse(pool.idx[k], pool.val[k], nnz);
  }

  /** Throws if the state is broken or untouched. */
  @TearDown(Level.Iteration)
  public void check() {
    checksum();
  }

  /** Sum over the state after checking it. */
  public double checksum() {
    double sum = stateSum();
    if (sum == initialSum) throw new IllegalStateException("sparse steps left the state untouched");
    return sum;
  }

  private double stateSum() {
    double sum = 0;
    for (Map.Entry<String, MemorySegment> e : opt.state().entrySet()) {
      sum += BenchData.checkedSum(e.getKey(), e.getValue(), t, d);
    }
    return sum;
  }

  /** Frees everything. */
  @TearDown(Level.Trial)
  public void tearDown() {
    opt.close();
    close();
  }
}
