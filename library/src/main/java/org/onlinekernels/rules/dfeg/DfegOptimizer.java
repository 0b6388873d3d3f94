package org.onlinekernels.rules.dfeg;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.LinearAlgebraKernel;
import org.onlinekernels.kernel.lanes.RuleShape;
import org.onlinekernels.optimizer.RuleInfo;
import org.onlinekernels.optimizer.RuleOptimizer;
import org.onlinekernels.optimizer.state.Invariants;
import org.onlinekernels.optimizer.state.MergePlan;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.DfegParams;

/**
 * Dimension-free exponentiated gradient ({@link Dfeg}; Orabona 2013, Algorithm 1) in linear-model
 * form. State: the vector {@code theta}; scalars {@code H} and {@code ||theta||^2} in double. The
 * weights are {@code c theta} with {@code c = exp(||theta|| / alpha) / (beta ||theta||)}, {@code
 * alpha = a sqrt(H)}, {@code beta = H^(3/2)}; a predict first adds {@code L^2 max(||x||, ||x||^2)}
 * to {@code H}.
 *
 * <p>{@code ||theta||^2}: a dense update recomputes it exactly; a sparse update or round adds the
 * change over the touched coordinates only (O(nnz)); {@link #recomputeNorm()} recomputes it on
 * demand.
 *
 * <p>Overflow (an error, not a saturation): when {@code exp(||theta|| / alpha)} or {@code yhat}
 * overflows the double range, predict throws {@link ArithmeticException} before changing any state
 * (no NaN or infinity is ever stored), and so does {@link #readWeights} when a weight is not
 * representable in the element type. With one gradient sign held ({@code |g x| = 1}) this happens
 * after about 394,000 rounds; the reference throws at the same point.
 */
public final class DfegOptimizer extends RuleOptimizer {
  /** The rule as the command line and the trainers know it. */
  public static final RuleInfo INFO =
      new RuleInfo(
          "dfeg",
          List.of(
              "  dfeg            a=0.882, L=1, delta=1              DFEG (Orabona 2013 Alg. 1), no tuning"),
          Set.of("a", "L", "delta"),
          false,
          (d, precision, layout, arena, kernels, p) -> {
            DfegParams def = DfegParams.defaults();
            return new DfegOptimizer(
                d,
                precision.inputType(),
                new DfegParams(
                    p.get("a", def.a()), p.get("L", def.l()), p.get("delta", def.delta())),
                layout,
                arena,
                kernels);
          });

  private final DfegParams p;
  private final LinearAlgebraKernel linalg;
  private final MemorySegment theta;
  private final double[] pair = new double[2];
  private double h;
  private double normSq;

  /** An optimizer with its own confined arena and the default kernels. */
  public DfegOptimizer(int d, ElementType type, DfegParams params) {
    this(d, type, params, null, null);
  }

  /**
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public DfegOptimizer(
      int d, ElementType type, DfegParams params, Arena arena, KernelProvider kernels) {
    this(d, type, params, StateLayout.PLANAR, arena, kernels);
  }

  /**
   * An optimizer with its state in {@code layout}: one field is the same memory in either layout;
   * interleaved state sums a separate sparse predict in the fused round's order.
   *
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public DfegOptimizer(
      int d,
      ElementType type,
      DfegParams params,
      StateLayout layout,
      Arena arena,
      KernelProvider kernels) {
    super("dfeg", d, Precision.of(type), layout, false, false, arena, kernels, checked(params));
    this.p = params;
    this.linalg = this.kernels.linearAlgebra(type);
    this.theta = segment("theta");
    if (!store.adopted()) {
      resetImpl();
    }
  }

  private static RuleShape checked(DfegParams params) {
    if (params == null) {
      throw new IllegalArgumentException("params must not be null");
    }
    return DfegRuleForms.SHAPE;
  }

  /** The parameters. */
  public DfegParams params() {
    return p;
  }

  @Override
  protected void resetImpl() {
    h = p.delta();
    normSq = 0;
  }

  @Override
  public Map<String, Double> scalarState() {
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("H", h);
    m.put("thetaNormSquared", normSq);
    return m;
  }

  @Override
  protected void setScalar(String name, double value) {
    if (name.equals("H")) {
      h = value;
    } else {
      normSq = value;
    }
  }

  /** Recomputes {@code ||theta||^2} exactly (a full pass). */
  public void recomputeNorm() {
    checkOpen();
    normSq = linalg.sumOfSquares(theta, d);
  }

  /** The predict needs {@code ||x||^2} for {@code H}. */
  @Override
  protected boolean needsInputNorm() {
    return true;
  }

  /** Dense: {@code <theta, x>} and {@code ||x||^2} in one pass (two accumulators each). */
  @Override
  protected double predictDense(MemorySegment x) {
    linalg.dotAndSumOfSquares(theta, x, d, pair);
    return predictFrom(pair[0], pair[1]);
  }

  @Override
  protected double finishPredict(double thetaDotX) {
    return predictFrom(thetaDotX, inputSquaredNorm());
  }

  /**
   * {@code H += L^2 max(||x||, ||x||^2)}, then {@code yhat = c <theta, x>}; {@code H} committed
   * only for a finite {@code yhat}.
   */
  private double predictFrom(double thetaDotX, double xNormSq) {
    double l = p.l();
    double hNew = h + l * l * Math.max(Math.sqrt(xNormSq), xNormSq);
    double c = weightScale(hNew);
    double yhat = c * thetaDotX;
    if (!Double.isFinite(yhat)) {
      throw new ArithmeticException(
          "DFEG: yhat = "
              + yhat
              + " overflows (weight scale "
              + c
              + "); the state was left unchanged");
    }
    h = hNew;
    return yhat;
  }

  /**
   * {@code exp(||theta||/alpha) / (beta ||theta||)} with {@code alpha = a sqrt(H)}, {@code beta =
   * H^(3/2)}.
   */
  private double weightScale(double hh) {
    double norm = Math.sqrt(normSq);
    if (norm == 0) {
      return 0;
    }
    double alpha = p.a() * Math.sqrt(hh);
    double beta = hh * Math.sqrt(hh);
    double c = Math.exp(norm / alpha) / (beta * norm);
    if (!Double.isFinite(c)) {
      throw new ArithmeticException(
          "DFEG: exp(||theta||/alpha) overflows (||theta|| = "
              + norm
              + ", alpha = "
              + alpha
              + "); the state was left unchanged");
    }
    return c;
  }

  /**
   * Dense updates recompute the norm exactly (two accumulators, as the predict's pair); rows add
   * their change.
   */
  @Override
  protected void afterUpdate(double rowSum, boolean dense) {
    if (dense) {
      linalg.dotAndSumOfSquares(theta, theta, d, pair);
      normSq = pair[1];
    } else {
      normSq = Math.max(0, normSq + rowSum);
    }
  }

  @Override
  protected void readWeightsImpl(MemorySegment into) {
    linalg.scale(theta, weightScale(h), into, d);
  }

  /** docs/MERGING.md: {@code theta}, {@code H} averaged; {@code ||theta||^2} recomputed. */
  @Override
  protected MergePlan mergePlan() {
    return new MergePlan().average("theta").averageScalars("H");
  }

  @Override
  protected void afterMerge() {
    normSq = linalg.sumOfSquares(theta, d);
  }

  @Override
  protected String brokenInvariant(String name, double v) {
    return switch (name) {
      case "theta" -> Invariants.finite(v, "theta (negative sum of gradients)");
      case "H" -> Invariants.positive(v, "H (delta plus the sum of L^2 max(||x||, ||x||^2))");
      case "thetaNormSquared" -> Invariants.nonNegative(v, "thetaNormSquared");
      default -> super.brokenInvariant(name, v);
    };
  }
}
