package org.onlinekernels.bench;

import java.util.Map;
import org.onlinekernels.reference.ReferenceModel;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A linear-model round of the scalar double oracle at the small sizes, with the same two
 * alternating instances as {@link RoundState}; one subclass per algorithm supplies the learner. The
 * check and the checksum read the learner's named state ({@link ReferenceModel#buffers()}, under
 * the optimizer's names, and {@link ReferenceModel#scalars()}), so no rule needs code of its own. A
 * gradient-form oracle steps on {@code g} and {@code -g} instead ({@link #input}, {@link #call}),
 * as {@link StepState} does.
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
  private ReferenceModel model;
  private double initialSum;

  /** A fresh learner of dimension {@link #d}. */
  protected abstract ReferenceModel create();

  /** Builds the inputs. */
  @Setup(Level.Trial)
  public void setUp() {
    x1 = input(false);
    x2 = input(true);
  }

  /** The first instance ({@link BenchData#SEED_X}) or the second ({@link BenchData#SEED_X2}). */
  protected double[] input(boolean second) {
    return BenchData.values(d, second ? BenchData.SEED_X2 : BenchData.SEED_X);
  }

  /** One round of {@code m} on {@code x} labelled {@code y}; returns {@code yhat}. */
  protected double call(ReferenceModel m, double[] x, double y) {
    double yhat = m.predict(x);
    m.update(BenchData.logisticGrad(y, yhat));
    return yhat;
  }

  /** Fresh oracle. */
  @Setup(Level.Iteration)
  public void reset() {
    model = create();
    initialSum = stateSum();
    y = 1;
    yhatSum = 0;
  }

  /** One round. */
  public double round() {
    double yhat = call(model, y > 0 ? x1 : x2, y);
    y = -y;
    yhatSum += yhat;
    return yhat;
  }

  /** Checks the state. */
  @TearDown(Level.Iteration)
  public void check() {
    checksum();
  }

  /**
   * The sum over the learner's state buffers (as {@link RoundState#checksum} sums the optimizer's),
   * after checking that every buffer and scalar is finite and that the state moved.
   */
  public double checksum() {
    BenchData.requireFinite("sum of yhat", yhatSum);
    double sum = stateSum();
    if (sum == initialSum) {
      throw new IllegalStateException(
          model.getClass().getSimpleName() + " left its state untouched");
    }
    return sum;
  }

  private double stateSum() {
    double sum = 0;
    for (Map.Entry<String, double[]> e : model.buffers().entrySet()) {
      sum += BenchData.checkedSum(e.getKey(), e.getValue());
    }
    model.scalars().forEach(BenchData::requireFinite);
    return sum;
  }
}
