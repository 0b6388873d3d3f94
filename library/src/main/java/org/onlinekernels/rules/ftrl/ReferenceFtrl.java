package org.onlinekernels.rules.ftrl;

import java.util.List;
import org.onlinekernels.optimizer.InputPolicy;
import org.onlinekernels.params.FtrlParams;
import org.onlinekernels.reference.ReferenceCoordinateLearner;
import org.onlinekernels.reference.ReferenceMerge;
import org.onlinekernels.reference.ReferenceModel;
import org.onlinekernels.reference.SparseVec;

/**
 * Per-coordinate FTRL-Proximal, docs/ALGORITHMS.md section 13.1 (McMahan et al. 2013, Algorithm 1),
 * in double, on the nonzero entries only. Predict, for every coordinate with {@code x_i != 0}:
 *
 * <pre>
 *   w_i  = 0                                                    if |z_i| &lt;= lambda1
 *        = 0                                                    if den = ((beta + sqrt(N_i)) / alpha) + lambda2 is not > 0
 *        = (copySign(lambda1, z_i) - z_i) / den                 otherwise, clamped into [-bound, bound]
 *   yhat = sum_i x_i * w_i                                      (sequential, increasing i)
 * </pre>
 *
 * Update with the round's {@code w_i}, for every coordinate with {@code g_i = g * x_i != 0}: {@code
 * gg = g_i * g_i; nn = N_i + gg; den = alpha * (sqrt(nn) + sqrt(N_i)); sig = den > 0 ? gg / den :
 * 0; z_i = z_i + (g_i - sig * w_i); N_i = nn}.
 */
public final class ReferenceFtrl extends ReferenceCoordinateLearner {
  private final FtrlParams p;
  private final double bound;
  private final double[] z;
  private final double[] n;

  /** A learner at its initial state {@code z = N = 0} with the double weight bound. */
  public ReferenceFtrl(int d, FtrlParams p) {
    this(d, p, InputPolicy.DOUBLE_WEIGHT_BOUND);
  }

  /**
   * A learner at its initial state {@code z = N = 0}.
   *
   * @param d number of coordinates, {@code >= 1}
   * @param p parameters
   * @param bound the weight's clamp, {@code > 0} (a check of float kernels gives the float one)
   */
  public ReferenceFtrl(int d, FtrlParams p, double bound) {
    super(d);
    if (p == null) {
      throw new IllegalArgumentException("params p must not be null");
    }
    if (!(bound > 0)) {
      throw new IllegalArgumentException("the weight bound must be > 0, got " + bound);
    }
    this.p = p;
    this.bound = bound;
    this.z = new double[d];
    this.n = new double[d];
  }

  /** The lazy duals {@code z}, LIVE. For tests and oracle use. */
  public double[] z() {
    return z;
  }

  /**
   * The sums of squared gradients {@code N} (the paper's {@code n}), LIVE. For tests and oracle
   * use.
   */
  public double[] n() {
    return n;
  }

  @Override
  protected double weight(int i) {
    if (Math.abs(z[i]) <= p.lambda1()) {
      return 0;
    }
    double den = (p.beta() + Math.sqrt(n[i])) / p.alpha() + p.lambda2();
    if (!(den > 0)) {
      return 0;
    }
    double w = (Math.copySign(p.lambda1(), z[i]) - z[i]) / den;
    return Math.max(-bound, Math.min(w, bound));
  }

  @Override
  protected void apply(SparseVec x, double g, double[] ws) {
    for (int k = 0; k < x.nnz; k++) {
      int i = x.idx[k];
      double gx = g * x.val[k];
      if (gx == 0) {
        continue;
      }
      double gg = gx * gx;
      double nn = n[i] + gg;
      double den = p.alpha() * (Math.sqrt(nn) + Math.sqrt(n[i]));
      double sig = den > 0 ? gg / den : 0;
      z[i] = z[i] + (gx - sig * ws[k]);
      n[i] = nn;
    }
  }

  /**
   * Merges learners that started from this learner's state into it (docs/MERGING.md): {@code z} and
   * {@code N} averaged over the learners that changed them.
   *
   * @param learners at least one learner of the same dimension and parameters, none pending
   */
  public void merge(List<ReferenceFtrl> learners) {
    List<ReferenceFtrl> o =
        ReferenceMerge.canonical(this, learners, l -> new double[][] {l.z, l.n});
    for (int i = 0; i < d; i++) {
      z[i] = ReferenceMerge.average(z[i], ReferenceMerge.column(o, l -> l.z, i));
      n[i] = ReferenceMerge.average(n[i], ReferenceMerge.column(o, l -> l.n, i));
    }
  }

  /** {@inheritDoc} */
  @Override
  public java.util.Map<String, double[]> buffers() {
    return java.util.Map.of("z", z(), "N", n());
  }

  /** {@inheritDoc} */
  @Override
  public void mergeLearners(java.util.List<? extends ReferenceModel> learners) {
    merge(learnersOf(ReferenceFtrl.class, learners));
  }
}
