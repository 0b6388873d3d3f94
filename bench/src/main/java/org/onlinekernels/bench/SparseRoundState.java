package org.onlinekernels.bench;

import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.InputPolicy;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The sparse twin of {@link RoundState}: one call per pooled vector, in turn ({@link #call}: {@code
 * predictSparse} + {@code update}, or a gradient step in {@link SparseStepState}); the iteration
 * teardown checks that the state is finite and moved.
 */
public abstract class SparseRoundState extends SparseParams {
  /** The optimizer under test. */
  public AbstractOptimizer opt;

  /** Sum of this iteration's predictions. */
  public double yhatSum;

  private double y = 1;
  private double initialSum;

  /** Builds the optimizer for the parsed parameters. */
  protected abstract AbstractOptimizer create();

  /** Allocates state and the pool. */
  @Setup(Level.Trial)
  public void setUp() {
    open();
    opt = create();
    // Kernel cost only: the CHECKED input scan's cost is in bench-report/kernels-notes.md.
    opt.setInputPolicy(InputPolicy.TRUSTED);
    initialSum = stateSum();
    for (int i = 0; i < warmCalls; i++) round();
    reset();
  }

  /** Restarts from the initial state and the start of the pool. */
  @Setup(Level.Iteration)
  public void reset() {
    opt.reset();
    pool.rewind();
    y = 1;
    yhatSum = 0;
  }

  /** One call on the next pooled vector; returns its {@code yhat} (0 for a step). */
  public double round() {
    double yhat = call(pool.next(), y);
    y = -y;
    yhatSum += yhat;
    return yhat;
  }

  /** The call on pooled vector {@code k} with label {@code y}: a round, returning {@code yhat}. */
  protected double call(int k, double y) {
    double yhat = opt.predictSparse(pool.idx[k], pool.val[k], nnz);
    opt.update(BenchData.logisticGrad(y, yhat));
    return yhat;
  }

  /** Throws if the state or the predictions are broken. */
  @TearDown(Level.Iteration)
  public void check() {
    checksum();
  }

  /** Sum over every state buffer after checking it is finite. */
  public double checksum() {
    BenchData.requireFinite("sum of yhat", yhatSum);
    double sum = stateSum();
    if (sum == initialSum) throw new IllegalStateException("sparse calls left the state untouched");
    return sum;
  }

  private double stateSum() {
    return BenchData.stateSum(opt, d);
  }

  /** Frees everything. */
  @TearDown(Level.Trial)
  public void tearDown() {
    opt.close();
    close();
  }
}
