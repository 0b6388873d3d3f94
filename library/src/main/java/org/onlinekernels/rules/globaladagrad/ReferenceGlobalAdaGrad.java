package org.onlinekernels.rules.globaladagrad;

import org.onlinekernels.params.Box;
import org.onlinekernels.params.GlobalAdaGradParams;
import org.onlinekernels.reference.ReferenceMerge;
import org.onlinekernels.reference.ReferenceModel;
import org.onlinekernels.reference.ReferenceStoredWeightsLearner;
import org.onlinekernels.reference.SparseVec;

/**
 * Gradient descent with one adaptive global rate, ALGORITHMS.md section 1 "Global variant"
 * (Streeter and McMahan 2010, Theorem 2):
 *
 * <pre>
 *   sumSquares = sumSquares + ||g_t||^2
 *   denom      = delta + sqrt(2 * sumSquares)
 *   if denom == 0: no change this round
 *   eta_t      = alpha * D / denom                       (computed as (alpha * D) / denom)
 *   w_i        = clamp(w_i - eta_t * g_i, a_i, b_i)      for every g_i != 0
 * </pre>
 *
 * {@code ||g_t||^2} is summed sequentially over the nonzero coordinates in increasing index order,
 * so that dense and sparse steps agree bit for bit. {@code D = p.diameter(d)}.
 */
public final class ReferenceGlobalAdaGrad extends ReferenceStoredWeightsLearner {
  private final GlobalAdaGradParams p;
  private final double diameter;
  private double sumSquares;

  /**
   * A learner at its initial state: {@code w} the projection of 0 into the box, {@code sumSquares =
   * 0}.
   *
   * @param d number of coordinates, {@code >= 1}
   * @param p parameters; a per-coordinate box must have {@code d} coordinates
   */
  public ReferenceGlobalAdaGrad(int d, GlobalAdaGradParams p) {
    super(d);
    if (p == null) {
      throw new IllegalArgumentException("params p must not be null");
    }
    p.box().checkDimension(d);
    this.p = p;
    this.diameter = p.diameter(d);
    for (int i = 0; i < d; i++) {
      w[i] = p.box().clamp(i, 0.0);
    }
  }

  /**
   * The diameter {@code D} in use: the given one, or the box's Euclidean diameter over {@code d}.
   *
   * @return {@code D}
   */
  public double diameter() {
    return diameter;
  }

  /**
   * The weights {@code w}, LIVE: writes change the learner. For tests and oracle use.
   *
   * @return the live weight array
   */
  public double[] w() {
    return w;
  }

  /**
   * {@code sum_{s<=t} ||g_s||^2} over the rounds so far.
   *
   * @return the sum of squared gradient norms
   */
  public double sumSquares() {
    return sumSquares;
  }

  /**
   * Sets {@code sum_{s<=t} ||g_s||^2}, to put the learner into an arbitrary state in tests.
   *
   * @param v finite and {@code >= 0}
   */
  public void setSumSquares(double v) {
    if (!(v >= 0) || !Double.isFinite(v)) {
      throw new IllegalArgumentException("sumSquares must be finite and >= 0, got " + v);
    }
    sumSquares = v;
  }

  @Override
  protected void apply(SparseVec g) {
    // Theorem 2's rate uses the gradients up to and including this round.
    sumSquares = sumSquares + g.squaredNorm();
    double denom = p.delta() + Math.sqrt(2 * sumSquares);
    if (denom == 0) {
      return;
    }
    double etaT = p.alpha() * diameter / denom;
    Box box = p.box();
    for (int k = 0; k < g.nnz; k++) {
      int i = g.idx[k];
      w[i] = box.clamp(i, w[i] - etaT * g.val[k]);
    }
  }

  /**
   * Merges learners that started from this learner's state and each processed a disjoint part of
   * the stream into this learner, by the rules of docs/MERGING.md ({@link ReferenceMerge}): {@code
   * sumSquares} by increments, {@code w} averaged by its increments and clamped.
   *
   * @param learners at least one learner of the same dimension and parameters, none with a pending
   *     predict; read, never changed
   */
  public void merge(java.util.List<ReferenceGlobalAdaGrad> learners) {
    java.util.List<ReferenceGlobalAdaGrad> o =
        ReferenceMerge.canonical(this, learners, l -> new double[][] {l.w, {l.sumSquares}});
    double[] cs = new double[o.size()];
    for (int j = 0; j < cs.length; j++) {
      cs[j] = ReferenceMerge.weight(0, 0 + (o.get(j).sumSquares - sumSquares));
    }
    for (int i = 0; i < d; i++) {
      double[] ws = ReferenceMerge.column(o, l -> l.w, i);
      double m = ReferenceMerge.mean(w[i], ws, cs);
      w[i] = ReferenceMerge.count(w[i], ws, cs) >= 2 ? p.box().clamp(i, m) : m;
    }
    sumSquares = ReferenceMerge.sum(sumSquares, ReferenceMerge.scalars(o, l -> l.sumSquares));
  }

  /** {@inheritDoc} */
  @Override
  public java.util.Map<String, double[]> buffers() {
    return java.util.Map.of("w", w());
  }

  /** {@inheritDoc} */
  @Override
  public java.util.Map<String, Double> scalars() {
    return java.util.Map.of("sumSquares", sumSquares());
  }

  /** {@inheritDoc} */
  @Override
  public void setScalar(String name, double value) {
    switch (name) {
      case "sumSquares" -> setSumSquares(value);
      default -> super.setScalar(name, value);
    }
  }

  /** {@inheritDoc} */
  @Override
  public void mergeLearners(java.util.List<? extends ReferenceModel> learners) {
    merge(learnersOf(ReferenceGlobalAdaGrad.class, learners));
  }
}
