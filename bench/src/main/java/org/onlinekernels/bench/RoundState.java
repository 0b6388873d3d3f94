package org.onlinekernels.bench;

import java.lang.foreign.MemorySegment;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.InputPolicy;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One dense linear-model round of an optimizer, the unit a user pays per example: {@code yhat =
 * predict(x)}, {@code g = logistic'(y, yhat)}, {@code update(g)}; rounds alternate between two
 * instances, {@code x1} labelled +1 and {@code x2} labelled -1 (see {@link BenchData#SEED_X2}). The
 * state is reset at every iteration so its growth is bounded by one iteration's rounds; the
 * iteration teardown checks that every state buffer is finite and moved. {@link StepState} runs a
 * gradient step instead of the round ({@link #call}) in the same harness.
 */
public abstract class RoundState extends DenseParams {
  /** The optimizer under test. */
  public AbstractOptimizer opt;

  /** The two instances. */
  public MemorySegment x1, x2;

  /** Sum of this iteration's predictions: checked finite, and consumed so nothing is dead code. */
  public double yhatSum;

  private double y = 1;

  /** Builds the optimizer for the parsed parameters. */
  protected abstract AbstractOptimizer create();

  /** Name of a state buffer that is nonzero at both ends after one round. */
  protected abstract String movedBuffer();

  /** Allocates state and input. */
  @Setup(Level.Trial)
  public void setUp() {
    open();
    warmUp();
    opt = create();
    // Kernel cost only: the CHECKED input scan's cost is in bench-report/kernels-notes.md.
    opt.setInputPolicy(InputPolicy.TRUSTED);
    x1 = input(false);
    x2 = input(true);
  }

  /** The first instance ({@link BenchData#SEED_X}) or the second ({@link BenchData#SEED_X2}). */
  protected MemorySegment input(boolean second) {
    return BenchData.filled(arena, t, d, second ? BenchData.SEED_X2 : BenchData.SEED_X, 1);
  }

  /** One round of {@code o} on {@code x} labelled {@code y}; returns {@code yhat}. */
  protected double call(AbstractOptimizer o, MemorySegment x, double y) {
    double yhat = o.predict(x);
    o.update(BenchData.logisticGrad(y, yhat));
    return yhat;
  }

  /** JIT warm-up on a small optimizer of the same kind (see {@link DenseParams#WARM_D}). */
  private void warmUp() {
    int realD = d;
    d = WARM_D;
    try (AbstractOptimizer small = create()) {
      MemorySegment a = input(false);
      MemorySegment b = input(true);
      for (int i = 0; i < warmCalls; i++) {
        if (i % 500 == 0) small.reset();
        call(small, (i & 1) == 0 ? a : b, (i & 1) == 0 ? 1 : -1);
      }
    } finally {
      d = realD;
    }
  }

  /** Restarts from the initial state. */
  @Setup(Level.Iteration)
  public void reset() {
    opt.reset();
    y = 1;
    yhatSum = 0;
  }

  /** One round; returns {@code yhat} for JMH to consume. */
  public double round() {
    double yhat = call(opt, y > 0 ? x1 : x2, y);
    y = -y;
    yhatSum += yhat;
    return yhat;
  }

  /** Throws if the state or the predictions are broken. */
  @TearDown(Level.Iteration)
  public void check() {
    checksum();
  }

  /** Sum over every state buffer, after checking each is finite and the moved buffer moved. */
  public double checksum() {
    BenchData.requireFinite("sum of yhat", yhatSum);
    double sum = BenchData.stateSum(opt, d);
    BenchData.requireMoved(movedBuffer(), opt.state().get(movedBuffer()), opt.elementType(), d, 0);
    return sum;
  }

  /** Frees everything. */
  @TearDown(Level.Trial)
  public void tearDown() {
    opt.close();
    close();
  }
}
