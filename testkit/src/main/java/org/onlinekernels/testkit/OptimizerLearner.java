package org.onlinekernels.testkit;

import org.onlinekernels.optimizer.AbstractOptimizer;

/**
 * One of the library's optimizers as a {@link Learner}: predictions through {@code predict} or
 * {@code predictSparse} on the row's segments, state read and written by name. The library's own
 * property suites check the kernels through it, with the same engine and bounds a user's
 * implementation meets.
 */
public class OptimizerLearner implements Learner {
  /** The optimizer under test. */
  protected final AbstractOptimizer optimizer;

  /** Wraps {@code optimizer}; {@link #close} closes it. */
  public OptimizerLearner(AbstractOptimizer optimizer) {
    this.optimizer = optimizer;
  }

  @Override
  public double predict(Row row) {
    return row.sparse()
        ? optimizer.predictSparse(row.indexSegment(), row.valueSegment(), row.nnz())
        : optimizer.predict(row.denseSegment());
  }

  @Override
  public void update(double g) {
    optimizer.update(g);
  }

  @Override
  public double[] state(String name) {
    return Buffers.read(
        optimizer.state().get(name), optimizer.stateType(name), optimizer.dimension());
  }

  @Override
  public void writeState(String name, double[] values) {
    optimizer.writeState(name, values);
  }

  @Override
  public double scalarState(String name) {
    return optimizer.scalarState().get(name);
  }

  @Override
  public void writeScalarState(String name, double value) {
    optimizer.writeScalarState(name, value);
  }

  @Override
  public void close() {
    optimizer.close();
  }
}
