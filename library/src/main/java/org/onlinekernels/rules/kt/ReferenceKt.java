package org.onlinekernels.rules.kt;

import java.util.Arrays;
import java.util.List;
import org.onlinekernels.optimizer.InputPolicy;
import org.onlinekernels.params.KtParams;
import org.onlinekernels.reference.ReferenceCoordinateLearner;
import org.onlinekernels.reference.ReferenceMerge;
import org.onlinekernels.reference.ReferenceModel;
import org.onlinekernels.reference.SparseVec;

/**
 * Per-coordinate KT coin betting, docs/ALGORITHMS.md section 13.2 (Orabona and Pal 2016, Algorithm
 * 1 on each coordinate), in double, on the nonzero entries only. Predict: {@code w_i =
 * clamp((theta_i / (k_i + 1)) * W_i, -bound, bound)} (bound: {@link InputPolicy}'s weight bound),
 * {@code yhat = sum_i x_i w_i} (sequential, increasing i). Update with the round's {@code w_i}, for
 * every coordinate with {@code g_i = g * x_i != 0}:
 *
 * <pre>
 *   coin    = clamp(-(g_i / Lg), -1, 1)
 *   W_i     = clamp(W_i + coin * w_i, 0, cap)
 *   theta_i = theta_i + coin ;  k_i = k_i + 1
 * </pre>
 *
 * The wealth cap is {@link Kt#DOUBLE_WEALTH_CAP} and the bound {@link
 * InputPolicy#DOUBLE_WEIGHT_BOUND} unless given: a check of float kernels gives the float ones,
 * which the float wealth reaches within a test's rounds.
 */
public final class ReferenceKt extends ReferenceCoordinateLearner {
  private final KtParams p;
  private final double cap;
  private final double bound;
  private final double[] theta;
  private final double[] wealth;
  private final double[] k;

  /**
   * A learner at its initial state ({@code theta = k = 0}, {@code W = epsilon}) with the double
   * wealth cap.
   */
  public ReferenceKt(int d, KtParams p) {
    this(d, p, Kt.DOUBLE_WEALTH_CAP, InputPolicy.DOUBLE_WEIGHT_BOUND);
  }

  /**
   * A learner at its initial state with the given wealth cap and weight bound.
   *
   * @param d number of coordinates, {@code >= 1}
   * @param p parameters; {@code epsilon} at most {@code cap}
   * @param cap the wealth's saturation bound
   * @param bound the weight's clamp, {@code > 0}
   */
  public ReferenceKt(int d, KtParams p, double cap, double bound) {
    super(d);
    if (p == null) {
      throw new IllegalArgumentException("params p must not be null");
    }
    if (!(cap >= p.epsilon())) {
      throw new IllegalArgumentException("the wealth cap must be at least epsilon, got " + cap);
    }
    if (!(bound > 0)) {
      throw new IllegalArgumentException("the weight bound must be > 0, got " + bound);
    }
    this.p = p;
    this.cap = cap;
    this.bound = bound;
    this.theta = new double[d];
    this.wealth = new double[d];
    this.k = new double[d];
    Arrays.fill(wealth, p.epsilon());
  }

  /** The sums of coins {@code theta}, LIVE. */
  public double[] theta() {
    return theta;
  }

  /** The wealths {@code W}, LIVE. */
  public double[] wealth() {
    return wealth;
  }

  /** The numbers of nonzero coins {@code k}, LIVE. */
  public double[] k() {
    return k;
  }

  @Override
  protected double weight(int i) {
    double w = theta[i] / (k[i] + 1) * wealth[i];
    return Math.max(-bound, Math.min(w, bound));
  }

  @Override
  protected void apply(SparseVec x, double g, double[] ws) {
    for (int j = 0; j < x.nnz; j++) {
      int i = x.idx[j];
      double gx = g * x.val[j];
      if (gx == 0) {
        continue;
      }
      double coin = Math.min(Math.max(-(gx / p.lg()), -1), 1);
      wealth[i] = Math.min(Math.max(wealth[i] + coin * ws[j], 0), cap);
      theta[i] = theta[i] + coin;
      k[i] = k[i] + 1;
    }
  }

  /**
   * Merges learners that started from this learner's state (docs/MERGING.md): {@code theta}, {@code
   * W}, {@code k} averaged.
   */
  public void merge(List<ReferenceKt> learners) {
    List<ReferenceKt> o =
        ReferenceMerge.canonical(this, learners, l -> new double[][] {l.theta, l.wealth, l.k});
    for (int i = 0; i < d; i++) {
      theta[i] = ReferenceMerge.average(theta[i], ReferenceMerge.column(o, l -> l.theta, i));
      wealth[i] = ReferenceMerge.average(wealth[i], ReferenceMerge.column(o, l -> l.wealth, i));
      k[i] = ReferenceMerge.average(k[i], ReferenceMerge.column(o, l -> l.k, i));
    }
  }

  /** {@inheritDoc} */
  @Override
  public java.util.Map<String, double[]> buffers() {
    return java.util.Map.of("theta", theta(), "W", wealth(), "k", k());
  }

  /** {@inheritDoc} */
  @Override
  public void mergeLearners(java.util.List<? extends ReferenceModel> learners) {
    merge(learnersOf(ReferenceKt.class, learners));
  }
}
