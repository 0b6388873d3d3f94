package org.onlinekernels.rules.scinol1;

import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.reference.ReferenceMerge;
import org.onlinekernels.reference.ReferenceModel;
import org.onlinekernels.reference.SparseVec;

/**
 * ScInOL1, ALGORITHMS.md section 3 (Kempka, Kotlowski and Warmuth 2019, Algorithm 1), linear-model
 * form. Predict, for every coordinate with {@code x_i != 0}:
 *
 * <pre>
 *   M_i    = max(M_i, |x_i|)
 *   beta_i = min(beta_i, epsilon * (S2_i + M_i * M_i) / (x_i * x_i * t))   (x_i * x_i == 0: unchanged)
 *   s      = sqrt(S2_i + M_i * M_i)
 *   w_i    = 0                                                            if s == 0
 *          = beta_i * sgn(theta) * expm1(min(|theta| / 2, 640)) / (2 * s),  theta = G_i / s   otherwise
 *   yhat   = sum_i x_i * w_i                  (sequential, increasing i)
 * </pre>
 *
 * Update, for every coordinate with {@code x_i != 0}: {@code gx = g * x_i; G_i = G_i - gx; S2_i =
 * S2_i + gx * gx}; then {@code t = t + 1}.
 *
 * <p>A coordinate with {@code x_i = 0} is left untouched by the rule ({@code M} and {@code beta}
 * keep their values, its term of {@code yhat} is 0), so it is skipped: a sparse predict is O(nnz)
 * and dense == sparse bit for bit. {@code exp(|theta|/2) - 1} is computed with {@link Math#expm1},
 * which equals it in real arithmetic and stays accurate for the small {@code theta} of the first
 * rounds. The convention {@code 0/0 = 0} for {@code theta} only arises with {@code s = 0}, where
 * {@code w_i = 0} anyway.
 */
public final class ReferenceScInOL1 extends ReferenceModel {
  private final double epsilon;
  private final double[] bigG;
  private final double[] s2;
  private final double[] m;
  private final double[] beta;
  private double t = 1;

  /**
   * A learner at its initial state: {@code G = S2 = M = 0}, {@code beta = epsilon}, {@code t = 1}.
   *
   * @param d number of coordinates, {@code >= 1}
   * @param p parameters
   */
  public ReferenceScInOL1(int d, ScInOLParams p) {
    super(d);
    if (p == null) {
      throw new IllegalArgumentException("params p must not be null");
    }
    this.epsilon = p.epsilon();
    this.bigG = new double[d];
    this.s2 = new double[d];
    this.m = new double[d];
    this.beta = new double[d];
    java.util.Arrays.fill(beta, epsilon);
  }

  /**
   * The negative cumulative gradients {@code G}, LIVE. For tests and oracle use.
   *
   * @return the live {@code G} array
   */
  public double[] bigG() {
    return bigG;
  }

  /**
   * The sums of squared gradients {@code S2}, LIVE. For tests and oracle use.
   *
   * @return the live {@code S2} array
   */
  public double[] s2() {
    return s2;
  }

  /**
   * The largest absolute inputs seen {@code M}, LIVE. For tests and oracle use.
   *
   * @return the live {@code M} array
   */
  public double[] m() {
    return m;
  }

  /**
   * The potential scales {@code beta}, LIVE. For tests and oracle use.
   *
   * @return the live {@code beta} array
   */
  public double[] beta() {
    return beta;
  }

  /**
   * The round counter {@code t} of the coming prediction (1 before the first round).
   *
   * @return {@code t}
   */
  public double t() {
    return t;
  }

  /**
   * Sets the round counter, to put the learner into an arbitrary state in tests.
   *
   * @param v finite and {@code >= 1}
   */
  public void setT(double v) {
    if (!(v >= 1) || !Double.isFinite(v)) {
      throw new IllegalArgumentException("t must be finite and >= 1, got " + v);
    }
    t = v;
  }

  @Override
  protected double predictOn(SparseVec x) {
    double yhat = 0;
    for (int k = 0; k < x.nnz; k++) {
      int i = x.idx[k];
      double xi = x.val[k];
      // Algorithm 1: M_{t,i} is updated before w_{t,i}, so a large new input is accounted for.
      m[i] = Math.max(m[i], Math.abs(xi));
      double x2 = xi * xi;
      if (x2 != 0) {
        // beta_{t,i} = min(beta_{t-1,i}, eps (S2_{t-1,i} + M_{t,i}^2) / (x_{t,i}^2 t)); an
        // underflowed x^2 would make this 0/0 = 0 and kill beta_i for good, which is not meant.
        beta[i] = Math.min(beta[i], epsilon * (s2[i] + m[i] * m[i]) / (x2 * t));
      }
      yhat += xi * weight(i);
    }
    return yhat;
  }

  /** w_{t,i} of Algorithm 1 from the current G, S2, M, beta. */
  private double weight(int i) {
    double s = Math.sqrt(s2[i] + m[i] * m[i]);
    if (s == 0) {
      return 0;
    }
    double theta = bigG[i] / s;
    // Saturation: the exponent is capped as in the kernels (ScInOL1.DOUBLE_EXP_CAP), and the
    // weight at the largest finite double (a tiny s would take it to infinity; ScInOL1Kernel).
    double w =
        beta[i]
            * Math.signum(theta)
            * Math.expm1(Math.min(Math.abs(theta) / 2, ScInOL1.DOUBLE_EXP_CAP))
            / (2 * s);
    return Math.max(-Double.MAX_VALUE, Math.min(w, Double.MAX_VALUE));
  }

  /** {@inheritDoc} */
  @Override
  public void update(double g) {
    SparseVec x = takePending(g);
    for (int k = 0; k < x.nnz; k++) {
      int i = x.idx[k];
      double gx = g * x.val[k];
      bigG[i] = bigG[i] - gx;
      s2[i] = s2[i] + gx * gx;
    }
    t = t + 1;
  }

  /** The predict formulas with {@code x = 0}: no {@code M} or {@code beta} change. */
  @Override
  public double[] weights() {
    double[] w = new double[d];
    for (int i = 0; i < d; i++) {
      w[i] = weight(i);
    }
    return w;
  }

  /**
   * Merges learners that started from this learner's state and each processed a disjoint part of
   * the stream into this learner, by the rules of docs/MERGING.md ({@link ReferenceMerge}): {@code
   * G}, {@code S2}, {@code beta}, {@code t} averaged over the learners that changed them, {@code M}
   * the maximum.
   *
   * @param learners at least one learner of the same dimension and parameters, none with a pending
   *     predict; read, never changed
   */
  public void merge(java.util.List<ReferenceScInOL1> learners) {
    java.util.List<ReferenceScInOL1> o =
        ReferenceMerge.canonical(
            this, learners, l -> new double[][] {l.bigG, l.s2, l.m, l.beta, {l.t}});
    for (int i = 0; i < d; i++) {
      bigG[i] = ReferenceMerge.average(bigG[i], ReferenceMerge.column(o, l -> l.bigG, i));
      s2[i] = ReferenceMerge.average(s2[i], ReferenceMerge.column(o, l -> l.s2, i));
      m[i] = ReferenceMerge.max(m[i], ReferenceMerge.column(o, l -> l.m, i));
      beta[i] = ReferenceMerge.average(beta[i], ReferenceMerge.column(o, l -> l.beta, i));
    }
    t = ReferenceMerge.average(t, ReferenceMerge.scalars(o, l -> l.t));
  }

  /** {@inheritDoc} */
  @Override
  public java.util.Map<String, double[]> buffers() {
    return java.util.Map.of("G", bigG(), "S2", s2(), "M", m(), "beta", beta());
  }

  /** {@inheritDoc} */
  @Override
  public java.util.Map<String, Double> scalars() {
    return java.util.Map.of("t", t());
  }

  /** {@inheritDoc} */
  @Override
  public void setScalar(String name, double value) {
    switch (name) {
      case "t" -> setT(value);
      default -> super.setScalar(name, value);
    }
  }

  /** {@inheritDoc} */
  @Override
  public void mergeLearners(java.util.List<? extends ReferenceModel> learners) {
    merge(learnersOf(ReferenceScInOL1.class, learners));
  }
}
