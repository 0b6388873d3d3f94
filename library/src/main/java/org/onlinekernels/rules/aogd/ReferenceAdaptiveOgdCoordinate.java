package org.onlinekernels.rules.aogd;

import org.onlinekernels.params.AdaptiveOgdParams;
import org.onlinekernels.reference.ReferenceGradientLearner;
import org.onlinekernels.reference.ReferenceMerge;
import org.onlinekernels.reference.ReferenceModel;
import org.onlinekernels.reference.SparseVec;

/**
 * Adaptive Online Gradient Descent run independently on each coordinate over the box {@code [-R_i,
 * R_i]}, ALGORITHMS.md section 2 "Per-coordinate variant" (Streeter and McMahan 2010, section 4.1,
 * applied to Bartlett, Hazan and Rakhlin 2007, Algorithm 2). One round, given the gradient {@code
 * g_t} and the scalar curvature {@code H_t >= 0}:
 *
 * <pre>
 *   Hsum = Hsum + H_t                                   (once per round, before the coordinates)
 *   for every i with g_i != 0:
 *     s        = Hsum + Lsum_i
 *     c        = 8 * (g_i * g_i) / (3 * (R_i * R_i))
 *     lambda   = c / (2 * (sqrt(s * s + c) + s))        (0/0 = 0)
 *     Lsum_i   = Lsum_i + lambda
 *     if Hsum + Lsum_i == 0: w_i unchanged
 *     eta      = 1 / (Hsum + Lsum_i)
 *     w_i      = clamp(w_i - eta * (g_i + lambda * w_i), -R_i, R_i)
 * </pre>
 *
 * A coordinate with {@code g_i = 0} would get {@code lambda = 0} and keep its weight, so it is
 * skipped and a sparse step is O(nnz). {@code R_i = p.radiusOf(i)}.
 */
public final class ReferenceAdaptiveOgdCoordinate extends ReferenceModel
    implements ReferenceGradientLearner {
  private final double[] r;
  private final double[] w;
  private final double[] lSum;
  private double hSum;

  /**
   * A learner at its initial state: {@code w = 0}, {@code Lsum_i = 0}, {@code Hsum = 0}.
   *
   * @param d number of coordinates, {@code >= 1}
   * @param p parameters; per-coordinate radii must have {@code d} entries
   */
  public ReferenceAdaptiveOgdCoordinate(int d, AdaptiveOgdParams p) {
    super(d);
    if (p == null) {
      throw new IllegalArgumentException("params p must not be null");
    }
    p.checkDimension(d);
    this.r = new double[d];
    for (int i = 0; i < d; i++) {
      r[i] = p.radiusOf(i);
    }
    this.w = new double[d];
    this.lSum = new double[d];
  }

  /**
   * The half-width {@code R_i} of coordinate {@code i}.
   *
   * @param i a coordinate in {@code [0, d)}
   * @return {@code R_i}
   */
  public double radius(int i) {
    return r[i];
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
   * The per-coordinate sums {@code Lsum_i = lambda_{1:t,i}}, LIVE: writes change the learner. For
   * tests and oracle use.
   *
   * @return the live {@code Lsum} array
   */
  public double[] lSum() {
    return lSum;
  }

  /**
   * {@code Hsum = H_{1:t}}, shared by all coordinates.
   *
   * @return the sum of curvatures so far
   */
  public double hSum() {
    return hSum;
  }

  /**
   * Sets {@code Hsum}, to put the learner into an arbitrary state in tests.
   *
   * @param v finite and {@code >= 0}
   */
  public void setHSum(double v) {
    hSum = SparseVec.checkCurvature("hSum", v);
  }

  /** One round with curvature {@code H_t = 0}; see {@link #step(double[], double)}. */
  @Override
  public void step(double[] g) {
    step(g, 0);
  }

  /**
   * One round with a dense gradient and curvature {@code h}.
   *
   * @param g the gradient, length {@code d}, finite
   * @param h the curvature {@code H_t}, finite and {@code >= 0}
   */
  public void step(double[] g, double h) {
    SparseVec gv = SparseVec.ofDense("g", g, d);
    apply(gv, SparseVec.checkCurvature("h", h));
  }

  /**
   * One round with curvature {@code H_t = 0}; see {@link #stepSparse(int[], double[], int,
   * double)}.
   */
  @Override
  public void stepSparse(int[] idx, double[] val, int nnz) {
    stepSparse(idx, val, nnz, 0);
  }

  /**
   * One round with a sparse gradient and curvature {@code h}, O(nnz).
   *
   * @param idx strictly increasing indices in {@code [0, d)}
   * @param val the values at those indices, finite
   * @param nnz the number of entries
   * @param h the curvature {@code H_t}, finite and {@code >= 0}
   */
  public void stepSparse(int[] idx, double[] val, int nnz, double h) {
    SparseVec gv = SparseVec.ofSparse("idx", "val", idx, val, nnz, d);
    apply(gv, SparseVec.checkCurvature("h", h));
  }

  @Override
  protected double predictOn(SparseVec x) {
    return x.dot(w);
  }

  /** The update with curvature {@code H_t = 0}; see {@link #update(double, double)}. */
  @Override
  public void update(double g) {
    update(g, 0);
  }

  /**
   * The update for the last prediction with gradient {@code g * x} and curvature {@code h}.
   *
   * @param g {@code d loss / d yhat}, finite
   * @param h the curvature {@code H_t}, finite and {@code >= 0}
   * @throws IllegalStateException if no prediction is pending
   */
  public void update(double g, double h) {
    SparseVec.checkCurvature("h", h);
    SparseVec x = takePending(g);
    apply(x.times(g), h);
  }

  private void apply(SparseVec g, double h) {
    hSum = hSum + h;
    for (int k = 0; k < g.nnz; k++) {
      int i = g.idx[k];
      double gi = g.val[k];
      // Algorithm 2 line 4 on coordinate i, with G_{t,i} = |g_i| and D = R_i.
      double s = hSum + lSum[i];
      double c = 8 * (gi * gi) / (3 * (r[i] * r[i]));
      double lDenom = 2 * (Math.sqrt(s * s + c) + s);
      double lambda = lDenom == 0 ? 0 : c / lDenom;
      lSum[i] = lSum[i] + lambda;
      double sum = hSum + lSum[i];
      if (sum == 0) {
        continue; // eta undefined: coordinate unchanged
      }
      double eta = 1 / sum;
      // Line 5, with the box projection a clamp per coordinate.
      double v = w[i] - eta * (gi + lambda * w[i]);
      w[i] = Math.min(Math.max(v, -r[i]), r[i]);
    }
  }

  /** {@inheritDoc} */
  @Override
  public double[] weights() {
    return w.clone();
  }

  /**
   * Merges learners that started from this learner's state and each processed a disjoint part of
   * the stream into this learner, by the rules of docs/MERGING.md ({@link ReferenceMerge}): {@code
   * Lsum}, {@code Hsum} by increments, {@code w_i} averaged by the increments of {@code Hsum +
   * Lsum_i} and clamped to {@code [-R_i, R_i]}.
   *
   * @param learners at least one learner of the same dimension and parameters, none with a pending
   *     predict; read, never changed
   */
  public void merge(java.util.List<ReferenceAdaptiveOgdCoordinate> learners) {
    java.util.List<ReferenceAdaptiveOgdCoordinate> o =
        ReferenceMerge.canonical(this, learners, l -> new double[][] {l.w, l.lSum, {l.hSum}});
    for (int i = 0; i < d; i++) {
      double[] ws = ReferenceMerge.column(o, l -> l.w, i);
      double[] ls = ReferenceMerge.column(o, l -> l.lSum, i);
      double[] cs = new double[o.size()];
      for (int j = 0; j < cs.length; j++) {
        cs[j] = ReferenceMerge.weight(ls[j] - lSum[i], 0 + (o.get(j).hSum - hSum));
      }
      double m = ReferenceMerge.mean(w[i], ws, cs);
      w[i] = ReferenceMerge.count(w[i], ws, cs) >= 2 ? Math.min(Math.max(m, -r[i]), r[i]) : m;
      lSum[i] = ReferenceMerge.sum(lSum[i], ls);
    }
    hSum = ReferenceMerge.sum(hSum, ReferenceMerge.scalars(o, l -> l.hSum));
  }

  /** {@inheritDoc} */
  @Override
  public java.util.Map<String, double[]> buffers() {
    return java.util.Map.of("w", w(), "Lsum", lSum());
  }

  /** {@inheritDoc} */
  @Override
  public java.util.Map<String, Double> scalars() {
    return java.util.Map.of("Hsum", hSum());
  }

  /** {@inheritDoc} */
  @Override
  public void setScalar(String name, double value) {
    switch (name) {
      case "Hsum" -> setHSum(value);
      default -> super.setScalar(name, value);
    }
  }

  /** {@inheritDoc} */
  @Override
  public void mergeLearners(java.util.List<? extends ReferenceModel> learners) {
    merge(learnersOf(ReferenceAdaptiveOgdCoordinate.class, learners));
  }
}
