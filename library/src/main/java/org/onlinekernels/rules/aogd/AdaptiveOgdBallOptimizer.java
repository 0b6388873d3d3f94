package org.onlinekernels.rules.aogd;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.LinearAlgebraKernel;
import org.onlinekernels.kernel.lanes.RuleShape;
import org.onlinekernels.optimizer.RuleInfo;
import org.onlinekernels.optimizer.state.MergePlan;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.AdaptiveOgdParams;

/**
 * Adaptive Online Gradient Descent on the L2 ball of radius {@code R} ({@link AdaptiveOgd}):
 *
 * <pre>
 *   Hsum += H_t;  s = Hsum + Lsum;  c = 8 ||g||^2 / (3 R^2)
 *   lambda = c / (2 (sqrt(s^2 + c) + s));  Lsum += lambda
 *   eta = 1 / (Hsum + Lsum)                                   (0: no change this round)
 *   w = P(w - eta (g + lambda w)),  P(v) = v min(1, R / ||v||)
 * </pre>
 *
 * One {@code gramTriple} pass gives {@code ||w||^2, <w, g>, ||g||^2}; {@code ||v||^2} follows by
 * expansion, then one element-wise pass ({@link AdaptiveOgd.Ball}) applies shrink, step and
 * projection to every coordinate. A sparse round is O(d) (every coordinate shrinks): its entries
 * are scattered into a dense gradient whose other coordinates are {@code +0}, the same bits as the
 * rule applied with {@code g_i = g * 0}. Scalar state: {@code Hsum}, {@code Lsum}; one radius.
 */
public final class AdaptiveOgdBallOptimizer extends AdaptiveOgdOptimizer {
  /** The rule as the command line and the trainers know it. */
  public static final RuleInfo INFO =
      new RuleInfo(
          "aogd-ball",
          List.of(
              "  aogd-ball       R=100                              Adaptive OGD, L2 ball (Bartlett et al. Alg. 2)"),
          Set.of("R"),
          false,
          (d, precision, layout, arena, kernels, p) ->
              new AdaptiveOgdBallOptimizer(
                  d,
                  precision.inputType(),
                  AdaptiveOgdParams.radius(p.get("R", 100)),
                  layout,
                  arena,
                  kernels));

  private static final RuleShape SHAPE = AdaptiveOgdBallRuleForms.SHAPE;
  private static final int ETA = SHAPE.uniform("eta");
  private static final int LAMBDA = SHAPE.uniform("lambda");
  private static final int P = SHAPE.uniform("p");

  private final double radius;
  private final double[] gram = new double[3];
  private final LinearAlgebraKernel linalg;
  private final MemorySegment w;

  /**
   * The dense gradient a sparse round scatters into (zero but at the row's entries); made on first
   * use.
   */
  private MemorySegment dense;

  private MemorySegment rowIdx;
  private MemorySegment rowVal;
  private double lsum;

  /** An optimizer with its own confined arena and the default kernels. */
  public AdaptiveOgdBallOptimizer(int d, ElementType type, AdaptiveOgdParams params) {
    this(d, type, params, null, null);
  }

  /**
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public AdaptiveOgdBallOptimizer(
      int d, ElementType type, AdaptiveOgdParams params, Arena arena, KernelProvider kernels) {
    this(d, type, params, StateLayout.PLANAR, arena, kernels);
  }

  /**
   * An optimizer with its state in {@code layout}: one field is the same memory in either layout;
   * interleaved state sums a separate sparse predict in the fused round's order.
   *
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public AdaptiveOgdBallOptimizer(
      int d,
      ElementType type,
      AdaptiveOgdParams params,
      StateLayout layout,
      Arena arena,
      KernelProvider kernels) {
    super("aogd-ball", d, type, checkedBall(d, type, params), layout, false, arena, kernels, SHAPE);
    this.radius = params.radius();
    this.linalg = this.kernels.linearAlgebra(type);
    this.w = segment("w");
  }

  private static AdaptiveOgdParams checkedBall(int d, ElementType type, AdaptiveOgdParams params) {
    checked("aogd-ball", d, type, params);
    if (params.radii() != null) {
      throw new IllegalArgumentException(
          "radii: the ball form has one radius R; per-coordinate half-widths belong to AdaptiveOgdCoordinateOptimizer");
    }
    return params;
  }

  /** {@code Hsum} and {@code Lsum}. */
  @Override
  public Map<String, Double> scalarState() {
    return Map.of("Hsum", hsum, "Lsum", lsum);
  }

  @Override
  protected void setScalar(String name, double value) {
    if (name.equals("Hsum")) {
      hsum = value;
    } else {
      lsum = value;
    }
  }

  @Override
  protected void resetImpl() {
    hsum = 0;
    lsum = 0;
  }

  @Override
  protected void updateDense(MemorySegment x, double g) {
    double hs = nextHsum(curvature());
    linalg.gramTriple(w, x, d, gram);
    apply(hs, gram[0], g * gram[1], g * g * gram[2], x, g);
  }

  @Override
  protected void updateSparse(MemorySegment idx, MemorySegment val, int nnz, double g) {
    double hs = nextHsum(curvature());
    double ww = linalg.sumOfSquares(w, d);
    double wg = g * linalg.dotSparse(w, d, idx, val, nnz);
    double gg = g * g * linalg.sumOfSquares(val, nnz);
    MemorySegment x = scatter(idx, val, nnz);
    try {
      apply(hs, ww, wg, gg, x, g);
    } finally {
      unscatter(idx, nnz);
    }
  }

  /** Every coordinate shrinks: the update after a sparse predict is the sparse one. */
  @Override
  protected boolean separateUpdateKeepsPredict() {
    return false;
  }

  /**
   * Every coordinate shrinks: the round's update is the sparse one, over the row copied once into
   * native memory. Native, like the segments callers pass: a heap segment of the other element type
   * seen at the same Vector API load sites stops C2 from intrinsifying them there (boxed vectors on
   * every call; AllocationFreeTest).
   */
  @Override
  protected void roundUpdate(int[] idx, float[] vf, double[] vd, int from, int nnz, double g) {
    if (rowIdx == null || rowIdx.byteSize() < 4L * nnz) {
      long cap = Math.max(16, Math.max(nnz, rowIdx == null ? 0 : rowIdx.byteSize() / 2));
      rowIdx = Arena.ofAuto().allocate(4L * cap, 64);
      rowVal = Arena.ofAuto().allocate(cap * type.bytes(), 64);
    }
    MemorySegment.copy(idx, from, rowIdx, ValueLayout.JAVA_INT, 0, nnz);
    if (type == ElementType.FLOAT) {
      MemorySegment.copy(vf, from, rowVal, ValueLayout.JAVA_FLOAT, 0, nnz);
    } else {
      MemorySegment.copy(vd, from, rowVal, ValueLayout.JAVA_DOUBLE, 0, nnz);
    }
    updateSparse(rowIdx, rowVal, nnz, g);
  }

  /** Every coordinate shrinks in every round. */
  @Override
  protected boolean roundsWriteOnlyTheirRow() {
    return false;
  }

  private MemorySegment scatter(MemorySegment idx, MemorySegment val, int nnz) {
    if (dense == null) {
      dense = Arena.ofAuto().allocate((long) d * type.bytes(), 64);
    }
    for (int j = 0; j < nnz; j++) {
      int i = idx.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, j);
      if (type == ElementType.FLOAT) {
        dense.setAtIndex(
            ValueLayout.JAVA_FLOAT_UNALIGNED,
            i,
            val.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, j));
      } else {
        dense.setAtIndex(
            ValueLayout.JAVA_DOUBLE_UNALIGNED,
            i,
            val.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, j));
      }
    }
    return dense;
  }

  /** Back to {@code +0} at the entries (an explicit {@code -0} entry included). */
  private void unscatter(MemorySegment idx, int nnz) {
    for (int j = 0; j < nnz; j++) {
      int i = idx.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, j);
      if (type == ElementType.FLOAT) {
        dense.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, 0f);
      } else {
        dense.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, 0.0);
      }
    }
  }

  /**
   * The scalar recurrence of the round, then one pass over every coordinate; commits scalars last.
   */
  private void apply(double hs, double ww, double wg, double gg, MemorySegment x, double g) {
    double s = hs + lsum;
    double c = 8 * gg / (3 * radius * radius);
    double den = 2 * (Math.sqrt(s * s + c) + s);
    double lambda = den > 0 ? c / den : 0;
    double ls = lsum + lambda;
    double den2 = hs + ls;
    if (den2 > 0) {
      double eta = 1 / den2;
      // The forms round eta to the element type: past float's range it would be infinite there
      // and give inf * 0 = NaN (a subnormal curvature H_t alone can do this).
      if (eta > (type == ElementType.FLOAT ? Float.MAX_VALUE : Double.MAX_VALUE)) {
        throw new ArithmeticException(
            "Adaptive OGD step size 1/(Hsum + Lsum) = "
                + eta
                + " overflows the "
                + type.name().toLowerCase()
                + " range (Hsum = "
                + hs
                + ", Lsum = "
                + ls
                + "); the curvature H_t is too small to be meaningful; the state was left unchanged");
      }
      double a = 1 - eta * lambda;
      double vv = a * a * ww - 2 * eta * a * wg + eta * eta * gg;
      // Cancellation (v tiny against w and eta g) can make the expansion slightly negative.
      double nv = Math.sqrt(Math.max(vv, 0));
      u[ETA] = eta;
      u[LAMBDA] = lambda;
      u[P] = nv > radius ? radius / nv : 1;
      super.updateDense(x, g);
    }
    hsum = hs;
    lsum = ls;
  }

  /**
   * docs/MERGING.md: {@code Hsum}, {@code Lsum} by increments; {@code w} averaged by the increments
   * of {@code Hsum + Lsum} (the inverse step size), then projected onto the ball.
   */
  @Override
  protected MergePlan mergePlan() {
    return new MergePlan()
        .mean("w", null, List.of("Hsum", "Lsum"), (i, v) -> v)
        .ball(radius)
        .sumScalars("Hsum", "Lsum");
  }
}
