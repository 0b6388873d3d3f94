package org.onlinekernels.bench;

import org.onlinekernels.reference.ReferenceLinearModel;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A linear-model round of the scalar double oracle at the small sizes, with the same two
 * alternating instances as {@link RoundState}; one subclass per algorithm supplies the learner and
 * the check of its state.
 */
@State(Scope.Thread)
public abstract class ReferenceRoundState {
  /** Dimension. */
  @Param({"1024", "16384", "262144"})
  public int d;

  /** Sum of predictions. */
  public double yhatSum;

  double[] x1, x2;
  double y = 1;
  private ReferenceLinearModel model;

  /** A fresh learner of dimension {@link #d}. */
  protected abstract ReferenceLinearModel create();

  /** Checks that the state moved and is finite; returns a checksum of it. */
  protected abstract double stateChecksum();

  /** Builds the inputs. */
  @Setup(Level.Trial)
  public void setUp() {
    x1 = BenchData.values(d, BenchData.SEED_X);
    x2 = BenchData.values(d, BenchData.SEED_X2);
  }

  /** Fresh oracle. */
  @Setup(Level.Iteration)
  public void reset() {
    model = create();
    y = 1;
    yhatSum = 0;
  }

  /** One round. */
  public double round() {
    double yhat = model.predict(y > 0 ? x1 : x2);
    model.update(BenchData.logisticGrad(y, yhat));
    y = -y;
    yhatSum += yhat;
    return yhat;
  }

  /** Checks the state. */
  @TearDown(Level.Iteration)
  public void check() {
    checksum();
  }

  /** Checksum of the state, after checking it. */
  public double checksum() {
    BenchData.requireFinite("sum of yhat", yhatSum);
    return stateChecksum();
  }
}
