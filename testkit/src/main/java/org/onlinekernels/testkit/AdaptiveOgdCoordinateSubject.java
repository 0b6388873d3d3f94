package org.onlinekernels.testkit;

import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.params.AdaptiveOgdParams;

/**
 * Adaptive OGD, per-coordinate form (rule {@code aogd-coord}, {@code
 * AdaptiveOgdCoordinateOptimizer}): {@link AdaptiveOgdSubject} with the form fixed, named so that
 * {@link Subjects} finds it.
 */
public final class AdaptiveOgdCoordinateSubject extends AdaptiveOgdSubject {
  /** The radius (or radii) case seed {@code seed} draws at dimension {@code d}, in {@code t}. */
  public AdaptiveOgdCoordinateSubject(long seed, int d, ElementType t) {
    super(seed, d, t, false);
  }

  /** The given parameters, at dimension {@code d} (the bound depends on it). */
  public AdaptiveOgdCoordinateSubject(AdaptiveOgdParams params, int d) {
    super(params, d, false);
  }
}
