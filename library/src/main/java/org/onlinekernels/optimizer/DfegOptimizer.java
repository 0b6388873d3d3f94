package org.onlinekernels.optimizer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;
import org.onlinekernels.kernel.DfegKernel;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.LinearAlgebraKernel;
import org.onlinekernels.params.DfegParams;

/**
 * Dimension-free exponentiated gradient (Orabona 2013, Algorithm 1) in linear-model form.
 * State: the vector {@code theta}; scalars {@code H} and {@code ||theta||^2} in double.
 *
 * <p>{@code ||theta||^2}: a dense update recomputes it exactly in the same pass as the step; a
 * sparse update adds the change over the touched coordinates only (O(nnz)); {@link
 * #recomputeNorm()} recomputes it exactly on demand.
 *
 * <p>Overflow (an error, not a saturation): when {@code exp(||theta|| / alpha)} or {@code yhat}
 * overflows the double range, predict throws {@link ArithmeticException} before changing any
 * state (no NaN or infinity is ever stored), and so does {@link #readWeights} when a weight is
 * not representable in the element type. With one gradient sign held ({@code |g x| = 1}) this
 * happens after about 394,000 rounds; the reference ({@code ReferenceDfeg}) throws at the same
 * point.
 */
public final class DfegOptimizer extends AbstractOptimizer {
  private final DfegParams p;
  private final DfegKernel kernel;
  private final LinearAlgebraKernel linalg;
  private final MemorySegment theta;
  private final double[] pair = new double[2];
  private double h;
  private double normSq;
  // <theta, x> of the pending predict: the sparse norm change could use it, but the kernel's
  // own per-coordinate sum is as cheap and does not depend on predict having been called.

  /** An optimizer with its own confined arena and the default kernels. */
  public DfegOptimizer(int d, ElementType type, DfegParams params) {
    this(d, type, params, null, null);
  }

  /**
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public DfegOptimizer(int d, ElementType type, DfegParams params, Arena arena, KernelProvider kernels) {
    super("dfeg", d, type, arena, kernels);
    if (params == null) throw new IllegalArgumentException("params must not be null");
    this.p = params;
    this.kernel = this.kernels.dfeg(type);
    this.linalg = this.kernels.linearAlgebra(type);
    this.theta = allocate("theta");
    resetImpl();
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

  @Override
  protected double predictDense(MemorySegment x) {
    linalg.dotAndSumOfSquares(theta, x, d, pair);
    return predictFrom(pair[0], pair[1]);
  }

  @Override
  protected double predictSparseImpl(MemorySegment idx, MemorySegment val, int nnz) {
    linalg.dotAndSumOfSquaresSparse(theta, d, idx, val, nnz, pair);
    return predictFrom(pair[0], pair[1]);
  }

  /** {@code H += L^2 max(||x||, ||x||^2)}, then {@code yhat = <w, x>} with {@code w = c * theta}. */
  private double predictFrom(double thetaDotX, double xNormSq) {
    double l = p.l();
    double hNew = h + l * l * Math.max(Math.sqrt(xNormSq), xNormSq);
    double c = weightScale(hNew);
    double yhat = c * thetaDotX;
    // A finite scale can still give an infinite product; refused before H is committed.
    if (!Double.isFinite(yhat)) {
      throw new ArithmeticException("DFEG: yhat = " + yhat + " overflows (weight scale " + c
          + "); the state was left unchanged");
    }
    h = hNew;
    return yhat;
  }

  /** {@code exp(||theta||/alpha) / (beta ||theta||)} with {@code alpha = a sqrt(H)}, {@code beta = H^(3/2)}. */
  private double weightScale(double hh) {
    double norm = Math.sqrt(normSq);
    if (norm == 0) {
      return 0;
    }
    double alpha = p.a() * Math.sqrt(hh);
    double beta = hh * Math.sqrt(hh);
    double c = Math.exp(norm / alpha) / (beta * norm);
    if (!Double.isFinite(c)) {
      throw new ArithmeticException("DFEG: exp(||theta||/alpha) overflows (||theta|| = " + norm
          + ", alpha = " + alpha + "); the state was left unchanged");
    }
    return c;
  }

  @Override
  protected void updateDense(MemorySegment x, double g) {
    normSq = kernel.updateDense(theta, x, d, g);
  }

  @Override
  protected void updateSparse(MemorySegment idx, MemorySegment val, int nnz, double g) {
    normSq = Math.max(0, normSq + kernel.updateSparse(theta, d, idx, val, nnz, g));
  }

  @Override
  protected void readWeightsImpl(MemorySegment into) {
    kernel.scaleInto(theta, weightScale(h), into, d);
  }

  /** docs/MERGING.md: {@code theta}, {@code H} averaged; {@code ||theta||^2} recomputed. */
  @Override
  MergePlan mergePlan() {
    return new MergePlan().average("theta").averageScalars("H");
  }

  @Override
  void afterMerge() {
    normSq = linalg.sumOfSquares(theta, d);
  }

  @Override
  protected String brokenInvariant(String name, double v) {
    return switch (name) {
      case "theta" -> finite(v, "theta (negative sum of gradients)");
      case "H" -> positive(v, "H (delta plus the sum of L^2 max(||x||, ||x||^2))");
      case "thetaNormSquared" -> nonNegative(v, "thetaNormSquared");
      default -> super.brokenInvariant(name, v);
    };
  }
}
