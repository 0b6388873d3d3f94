package org.onlinekernels.optimizer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.params.AdaptiveOgdParams;

/**
 * Per-coordinate Adaptive Online Gradient Descent (Streeter and McMahan 2010, section 4.1;
 * ALGORITHMS.md section 2, end): the ball recurrence run on each coordinate with
 * {@code G_{t,i} = |g_{t,i}|}, its own {@code Lsum_i} and the box {@code [-R_i, R_i]}; the
 * curvature {@code H_t} is one scalar, so {@code Hsum} is one {@code double}. A coordinate with
 * {@code g_i = 0} gets {@code lambda = 0} and stays put, so a sparse round is O(nnz).
 *
 * <p>State buffers: {@code w}, {@code Lsum}, and {@code R} when per-coordinate radii are given.
 * Scalar state: {@code Hsum}. A per-coordinate curvature vector (allowed by the spec in dense
 * form) is not offered.
 */
public final class AdaptiveOgdCoordinateOptimizer extends AdaptiveOgdOptimizer {
  private final MemorySegment lsum;
  private final MemorySegment radii;

  /** An optimizer with its own confined arena and the default kernels. */
  public AdaptiveOgdCoordinateOptimizer(int d, ElementType type, AdaptiveOgdParams params) {
    this(d, type, params, null, null);
  }

  /**
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public AdaptiveOgdCoordinateOptimizer(
      int d, ElementType type, AdaptiveOgdParams params, Arena arena, KernelProvider kernels) {
    super("aogd-coordinate", d, type, params, arena, kernels);
    this.lsum = allocate("Lsum");
    this.radii = params.radii() != null ? allocate("R") : null;
    resetImpl();
  }

  /** {@code Hsum}. */
  @Override
  public Map<String, Double> scalarState() {
    return Map.of("Hsum", hsum);
  }

  @Override
  protected void setScalar(String name, double value) {
    hsum = value;
  }

  @Override
  protected void resetImpl() {
    hsum = 0;
    if (radii != null) {
      for (int i = 0; i < d; i++) {
        set(radii, i, params.radiusOf(i));
      }
    }
  }

  @Override
  protected void denseRound(MemorySegment x, double scale, double h) {
    double hs = nextHsum(h);
    if (radii != null) {
      kernel.coordinateUpdateDenseRadii(w, lsum, radii, x, d, scale, hs);
    } else {
      kernel.coordinateUpdateDense(w, lsum, x, d, scale, hs, params.radius());
    }
    hsum = hs;
  }

  @Override
  protected void sparseRound(MemorySegment idx, MemorySegment val, int nnz, double scale, double h) {
    double hs = nextHsum(h);
    if (radii != null) {
      kernel.coordinateUpdateSparseRadii(w, lsum, radii, d, idx, val, nnz, scale, hs);
    } else {
      kernel.coordinateUpdateSparse(w, lsum, d, idx, val, nnz, scale, hs, params.radius());
    }
    hsum = hs;
  }

  /**
   * docs/MERGING.md: {@code Lsum}, {@code Hsum} by increments; {@code w_i} averaged by the increments
   * of {@code Hsum + Lsum_i} (the coordinate's inverse step size), clamped to {@code [-R_i, R_i]}.
   */
  @Override
  MergePlan mergePlan() {
    return new MergePlan()
        .mean("w", "Lsum", java.util.List.of("Hsum"), (i, v) -> {
          double r = params.radiusOf(i);
          return Math.min(Math.max(v, -r), r);
        })
        .sum("Lsum").sumScalars("Hsum");
  }
}
