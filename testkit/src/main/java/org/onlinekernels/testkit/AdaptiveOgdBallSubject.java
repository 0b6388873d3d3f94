package org.onlinekernels.testkit;

import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.params.AdaptiveOgdParams;

/**
 * Adaptive OGD, L2-ball form (rule {@code aogd-ball}, {@code AdaptiveOgdBallOptimizer}): {@link
 * AdaptiveOgdSubject} with the form fixed, named so that {@link Subjects} finds it.
 */
public final class AdaptiveOgdBallSubject extends AdaptiveOgdSubject {
  /** The radius (or radii) case seed {@code seed} draws at dimension {@code d}, in {@code t}. */
  public AdaptiveOgdBallSubject(long seed, int d, ElementType t) {
    super(seed, d, t, true);
  }

  /** The given parameters, at dimension {@code d} (the bound depends on it). */
  public AdaptiveOgdBallSubject(AdaptiveOgdParams params, int d) {
    super(params, d, true);
  }
}
