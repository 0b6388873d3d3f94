package org.onlinekernels.rules.scinol2;

import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.reference.ReferenceMerge;
import org.onlinekernels.reference.ReferenceModel;
import org.onlinekernels.reference.SparseVec;

/**
 * ScInOL2, ALGORITHMS.md section 4 (Kempka, Kotlowski and Warmuth 2019, Algorithm 2), linear-model
 * form. Predict, for every coordinate with {@code x_i != 0}:
 *
 * <pre>
 *   M_i  = max(M_i, |x_i|)
 *   s    = sqrt(S2_i + M_i * M_i)
 *   w_i  = 0                                                            if s == 0
 *        = sgn(theta) * min(|theta|, 1) * eta_i / (2 * s),  theta = G_i / s   otherwise,
 *          clamped into [-Double.MAX_VALUE, Double.MAX_VALUE]
 *   yhat = sum_i x_i * w_i                  (sequential, increasing i)
 * </pre>
 *
 * Update, with the {@code w_i} of this round's prediction, for every coordinate with {@code x_i !=
 * 0}: {@code gx = g * x_i; G_i = G_i - gx; S2_i = S2_i + gx * gx; eta_i = eta_i - gx * w_i}.
 *
 * <p>Coordinates with {@code x_i = 0} are untouched by the rule and skipped (O(nnz) sparse predict,
 * dense == sparse bit for bit).
 */
public final class ReferenceScInOL2 extends ReferenceModel {
  private final double[] bigG;
  private final double[] s2;
  private final double[] m;
  private final double[] eta;
  private double[] pendingW;

  /**
   * A learner at its initial state: {@code G = S2 = M = 0}, wealth {@code eta = epsilon}.
   *
   * @param d number of coordinates, {@code >= 1}
   * @param p parameters
   */
  public ReferenceScInOL2(int d, ScInOLParams p) {
    super(d);
    if (p == null) {
      throw new IllegalArgumentException("params p must not be null");
    }
    this.bigG = new double[d];
    this.s2 = new double[d];
    this.m = new double[d];
    this.eta = new double[d];
    java.util.Arrays.fill(eta, p.epsilon());
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
   * The wealths {@code eta} (initially {@code epsilon}), LIVE. For tests and oracle use.
   *
   * @return the live {@code eta} array
   */
  public double[] eta() {
    return eta;
  }

  @Override
  protected double predictOn(SparseVec x) {
    double[] ws = new double[x.nnz];
    double yhat = 0;
    for (int k = 0; k < x.nnz; k++) {
      int i = x.idx[k];
      double xi = x.val[k];
      m[i] = Math.max(m[i], Math.abs(xi));
      ws[k] = weight(i);
      yhat += xi * ws[k];
    }
    pendingW = ws;
    return yhat;
  }

  /** w_{t,i} of Algorithm 2 from the current G, S2, M, eta. */
  private double weight(int i) {
    double s = Math.sqrt(s2[i] + m[i] * m[i]);
    if (s == 0) {
      return 0;
    }
    double theta = bigG[i] / s;
    // Saturation at the largest finite double, as in the kernels (ScInOL2Kernel): a tiny s would
    // take w to infinity and yhat with it.
    double w = Math.signum(theta) * Math.min(Math.abs(theta), 1) * eta[i] / (2 * s);
    return Math.max(-Double.MAX_VALUE, Math.min(w, Double.MAX_VALUE));
  }

  /** {@inheritDoc} */
  @Override
  public void update(double g) {
    SparseVec x = takePending(g);
    double[] ws = pendingW;
    pendingW = null;
    for (int k = 0; k < x.nnz; k++) {
      int i = x.idx[k];
      double gx = g * x.val[k];
      bigG[i] = bigG[i] - gx;
      s2[i] = s2[i] + gx * gx;
      // The wealth gains this round's reward -g x_i w_{t,i} (the algorithm box's index).
      // Saturation as in the kernels (ScInOL2.DOUBLE_WEALTH_CAP).
      double cap = ScInOL2.DOUBLE_WEALTH_CAP;
      eta[i] = Math.max(-cap, Math.min(eta[i] - gx * ws[k], cap));
    }
  }

  /** The predict formulas with {@code x = 0}: the current {@code G, S2, M, eta}. */
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
   * G}, {@code S2} and the wealth {@code eta} averaged over the learners that changed them, {@code
   * M} the maximum.
   *
   * @param learners at least one learner of the same dimension and parameters, none with a pending
   *     predict; read, never changed
   */
  public void merge(java.util.List<ReferenceScInOL2> learners) {
    java.util.List<ReferenceScInOL2> o =
        ReferenceMerge.canonical(this, learners, l -> new double[][] {l.bigG, l.s2, l.m, l.eta});
    for (int i = 0; i < d; i++) {
      bigG[i] = ReferenceMerge.average(bigG[i], ReferenceMerge.column(o, l -> l.bigG, i));
      s2[i] = ReferenceMerge.average(s2[i], ReferenceMerge.column(o, l -> l.s2, i));
      m[i] = ReferenceMerge.max(m[i], ReferenceMerge.column(o, l -> l.m, i));
      eta[i] = ReferenceMerge.average(eta[i], ReferenceMerge.column(o, l -> l.eta, i));
    }
  }

  /** {@inheritDoc} */
  @Override
  public java.util.Map<String, double[]> buffers() {
    return java.util.Map.of("G", bigG(), "S2", s2(), "M", m(), "eta", eta());
  }

  /** {@inheritDoc} */
  @Override
  public void mergeLearners(java.util.List<? extends ReferenceModel> learners) {
    merge(learnersOf(ReferenceScInOL2.class, learners));
  }
}
