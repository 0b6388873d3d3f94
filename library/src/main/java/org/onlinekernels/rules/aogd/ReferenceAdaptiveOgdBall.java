package org.onlinekernels.rules.aogd;

import org.onlinekernels.params.AdaptiveOgdParams;
import org.onlinekernels.reference.ReferenceGradientLearner;
import org.onlinekernels.reference.ReferenceMerge;
import org.onlinekernels.reference.ReferenceModel;
import org.onlinekernels.reference.SparseVec;

/**
 * Adaptive Online Gradient Descent over the L2 ball of radius {@code R}, ALGORITHMS.md section 2
 * (Bartlett, Hazan and Rakhlin 2007, Algorithm 2). One round, given the gradient {@code g_t} and
 * the curvature {@code H_t >= 0}:
 *
 * <pre>
 *   Hsum   = Hsum + H_t
 *   s      = Hsum + Lsum
 *   c      = 8 * G2 / (3 * (R * R))      G2 = ||g_t||^2 = G_t^2, summed sequentially
 *   lambda = c / (2 * (sqrt(s * s + c) + s))     (0/0 = 0: c = 0 and s = 0 give lambda = 0)
 *   Lsum   = Lsum + lambda
 *   if Hsum + Lsum == 0: w unchanged
 *   eta    = 1 / (Hsum + Lsum)
 *   v_i    = w_i - eta * (g_i + lambda * w_i)   for EVERY coordinate i
 *   w      = v * min(1, R / ||v||)              (||v|| = 0: no scaling)
 * </pre>
 *
 * <p>This is the one rule whose step touches every coordinate (the shrink {@code lambda w} and the
 * projection), also for a sparse gradient; a sparse gradient is expanded to a dense one with +0.0
 * in the absent coordinates, and zero gradient entries ({@code -0.0} included) are read as +0.0, so
 * dense and sparse steps agree bit for bit. {@code ||v||} is computed directly from {@code v}.
 *
 * <p>The interface methods use {@code H_t = 0}; the overloads with {@code h} pass it explicitly.
 */
public final class ReferenceAdaptiveOgdBall extends ReferenceModel
    implements ReferenceGradientLearner {
  private final double r;
  private final double[] w;
  private double hSum;
  private double lSum;

  /**
   * A learner at its initial state: {@code w = 0}, {@code Hsum = Lsum = 0}.
   *
   * @param d number of coordinates, {@code >= 1}
   * @param p parameters; the ball radius is {@code p.radius()} (per-coordinate radii are refused)
   */
  public ReferenceAdaptiveOgdBall(int d, AdaptiveOgdParams p) {
    super(d);
    if (p == null) {
      throw new IllegalArgumentException("params p must not be null");
    }
    if (p.radii() != null) {
      throw new IllegalArgumentException(
          "radii: the ball form has one radius R; per-coordinate radii belong to ReferenceAdaptiveOgdCoordinate");
    }
    this.r = p.radius();
    this.w = new double[d];
  }

  /**
   * The ball radius {@code R}.
   *
   * @return {@code R}
   */
  public double radius() {
    return r;
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
   * {@code Hsum = H_{1:t}}.
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

  /**
   * {@code Lsum = lambda_{1:t}}.
   *
   * @return the sum of the adaptive regularisation strengths so far
   */
  public double lSum() {
    return lSum;
  }

  /**
   * Sets {@code Lsum}, to put the learner into an arbitrary state in tests.
   *
   * @param v finite and {@code >= 0}
   */
  public void setLSum(double v) {
    lSum = SparseVec.checkCurvature("lSum", v);
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
    apply(gv.toDense(d), SparseVec.checkCurvature("h", h));
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
   * One round with a sparse gradient and curvature {@code h}; still O(d), see the class comment.
   *
   * @param idx strictly increasing indices in {@code [0, d)}
   * @param val the values at those indices, finite
   * @param nnz the number of entries
   * @param h the curvature {@code H_t}, finite and {@code >= 0}
   */
  public void stepSparse(int[] idx, double[] val, int nnz, double h) {
    SparseVec gv = SparseVec.ofSparse("idx", "val", idx, val, nnz, d);
    apply(gv.toDense(d), SparseVec.checkCurvature("h", h));
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
    apply(x.times(g).toDense(d), h);
  }

  /** Algorithm 2, lines 3-5, on a dense gradient whose zero entries are all +0.0. */
  private void apply(double[] g, double h) {
    hSum = hSum + h;
    double s = hSum + lSum;
    double g2 = 0;
    for (int i = 0; i < d; i++) {
      g2 += g[i] * g[i];
    }
    // Line 4: lambda_t solves (3/2) R^2 lambda = G_t^2 / (s + lambda), the positive root written
    // without the cancellation of (sqrt(s^2 + c) - s) / 2.
    double c = 8 * g2 / (3 * (r * r));
    double lDenom = 2 * (Math.sqrt(s * s + c) + s);
    double lambda = lDenom == 0 ? 0 : c / lDenom;
    lSum = lSum + lambda;
    double sum = hSum + lSum;
    if (sum == 0) {
      return; // eta_{t+1} = 1/0 is undefined: no change this round
    }
    double eta = 1 / sum;
    // Line 5: x_{t+1} = P_K(x_t - eta_{t+1} (grad f_t(x_t) + lambda_t x_t)).
    double[] v = new double[d];
    double v2 = 0;
    for (int i = 0; i < d; i++) {
      v[i] = w[i] - eta * (g[i] + lambda * w[i]);
      v2 += v[i] * v[i];
    }
    double norm = Math.sqrt(v2);
    double scale = norm == 0 ? 1 : Math.min(1, r / norm);
    for (int i = 0; i < d; i++) {
      w[i] = v[i] * scale;
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
   * Hsum}, {@code Lsum} by increments, {@code w} averaged by the increments of {@code Hsum + Lsum},
   * then projected onto the ball if any coordinate was averaged.
   *
   * @param learners at least one learner of the same dimension and parameters, none with a pending
   *     predict; read, never changed
   */
  public void merge(java.util.List<ReferenceAdaptiveOgdBall> learners) {
    java.util.List<ReferenceAdaptiveOgdBall> o =
        ReferenceMerge.canonical(this, learners, l -> new double[][] {l.w, {l.hSum, l.lSum}});
    double[] cs = new double[o.size()];
    for (int j = 0; j < cs.length; j++) {
      cs[j] = ReferenceMerge.weight(0, 0 + (o.get(j).hSum - hSum) + (o.get(j).lSum - lSum));
    }
    double[] v = new double[d];
    boolean averaged = false;
    double v2 = 0;
    for (int i = 0; i < d; i++) {
      double[] ws = ReferenceMerge.column(o, l -> l.w, i);
      v[i] = ReferenceMerge.mean(w[i], ws, cs);
      averaged |= ReferenceMerge.count(w[i], ws, cs) >= 2;
      v2 += v[i] * v[i];
    }
    double norm = Math.sqrt(v2);
    double scale = averaged && norm > r ? r / norm : 1.0;
    for (int i = 0; i < d; i++) {
      w[i] = v[i] * scale;
    }
    hSum = ReferenceMerge.sum(hSum, ReferenceMerge.scalars(o, l -> l.hSum));
    lSum = ReferenceMerge.sum(lSum, ReferenceMerge.scalars(o, l -> l.lSum));
  }

  /** {@inheritDoc} */
  @Override
  public java.util.Map<String, double[]> buffers() {
    return java.util.Map.of("w", w());
  }

  /** {@inheritDoc} */
  @Override
  public java.util.Map<String, Double> scalars() {
    return java.util.Map.of("Hsum", hSum(), "Lsum", lSum());
  }

  /** {@inheritDoc} */
  @Override
  public void setScalar(String name, double value) {
    switch (name) {
      case "Hsum" -> setHSum(value);
      case "Lsum" -> setLSum(value);
      default -> super.setScalar(name, value);
    }
  }

  /** {@inheritDoc} */
  @Override
  public void mergeLearners(java.util.List<? extends ReferenceModel> learners) {
    merge(learnersOf(ReferenceAdaptiveOgdBall.class, learners));
  }
}
