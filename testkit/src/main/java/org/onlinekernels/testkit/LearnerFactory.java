package org.onlinekernels.testkit;

import org.onlinekernels.kernel.ElementType;

/** Makes a fresh {@link Learner} (initial state of its algorithm) for one check. */
@FunctionalInterface
public interface LearnerFactory {
  /** A learner of dimension {@code d} over elements of {@code type}. */
  Learner create(int d, ElementType type);
}
