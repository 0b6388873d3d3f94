package org.onlinekernels.testkit;

/**
 * The narrow interface through which the kit drives an implementation under test: one learner of
 * one algorithm in linear-model form, at one dimension and element type. Adapt your code to it (a
 * fused Java loop, a C or GPU kernel reached through FFM or JNI, a port) and hand a factory to
 * {@link KernelCheck}.
 *
 * <p>The kit calls {@link #predict} and then {@link #update} once per round, reads the state after
 * each update and compares it, by name, with the reference's (the names of {@link
 * org.onlinekernels.optimizer.AbstractOptimizer#state()}; {@link KernelCheck} lists them per
 * algorithm). Before a single-step check it writes a warmed-up reference state through {@link
 * #writeState}, so that the step starts where the interesting parts of the rule are live (ScInOL2's
 * weight is 0 while {@code G} is 0, for instance).
 */
public interface Learner extends AutoCloseable {
  /**
   * Predicts {@code yhat = <w, x>} for the row and remembers the row for the next {@link #update}.
   * {@link Row#sparse()} says which form the kit asks for; both carry the same example.
   */
  double predict(Row row);

  /** Applies the rule for the last predicted row with {@code g = dLoss/dyhat}. */
  void update(double g);

  /**
   * The {@code d} values of the state buffer {@code name} (e.g. ScInOL2's {@code "G"}), as doubles.
   */
  double[] state(String name);

  /**
   * Overwrites the state buffer {@code name} with {@code values} (already rounded to the element
   * type).
   */
  void writeState(String name, double[] values);

  /**
   * The scalar state {@code name} (e.g. ScInOL1's round counter {@code "t"}); only asked for by
   * algorithms that have one (see {@link KernelCheck}).
   */
  default double scalarState(String name) {
    throw new UnsupportedOperationException(
        "scalar state " + name + " is not implemented by " + getClass().getName());
  }

  /** Overwrites the scalar state {@code name}; only asked for by algorithms that have one. */
  default void writeScalarState(String name, double value) {
    throw new UnsupportedOperationException(
        "scalar state " + name + " is not implemented by " + getClass().getName());
  }

  /** Releases what the learner holds; by default nothing. */
  @Override
  default void close() {}
}
