package org.onlinekernels.rules.adagrad;

import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.params.Box;
import org.onlinekernels.reference.ReferenceMerge;
import org.onlinekernels.reference.ReferenceModel;
import org.onlinekernels.reference.ReferenceStoredWeightsLearner;
import org.onlinekernels.reference.SparseVec;

/**
 * Per-coordinate adaptive gradient descent, ALGORITHMS.md section 1: Streeter and McMahan 2010,
 * Algorithm 1 ("Per-coordinate gradient descent"), with the {@code delta} and {@code Q0} of
 * diagonal AdaGrad (Duchi, Hazan and Singer 2011).
 *
 * <p>Per coordinate {@code i} with {@code g_i != 0} (a zero gradient, including {@code -0.0}, skips
 * the coordinate entirely, so dense and sparse steps agree bit for bit):
 *
 * <pre>
 *   Q_i   = Q_i + g_i * g_i
 *   denom = delta + sqrt(Q_i)
 *   if denom == 0: w_i unchanged        (the step size is undefined)
 *   else:          w_i = clamp(w_i - (eta_i * g_i) / denom, a_i, b_i)
 * </pre>
 *
 * The parenthesisation above is the one this class computes and the one the kernels reproduce. In
 * the linear-model form the gradient is {@code g_i = g * x_i}, computed as exactly that product.
 */
public final class ReferenceAdaGrad extends ReferenceStoredWeightsLearner {
  private final AdaGradParams p;
  private final double[] eta;
  private final double[] q;

  /**
   * A learner at its initial state: {@code w} the projection of 0 into the box, {@code Q_i = Q0}.
   *
   * @param d number of coordinates, {@code >= 1}
   * @param p parameters; a per-coordinate box must have {@code d} coordinates
   */
  public ReferenceAdaGrad(int d, AdaGradParams p) {
    super(d);
    if (p == null) {
      throw new IllegalArgumentException("params p must not be null");
    }
    p.box().checkDimension(d);
    this.p = p;
    this.eta = new double[d];
    this.q = new double[d];
    Box box = p.box();
    for (int i = 0; i < d; i++) {
      eta[i] = p.etaOf(i);
      // Algorithm 1 starts at x_1 = 0; with a box that excludes 0 its projection is the start.
      w[i] = box.clamp(i, 0.0);
      q[i] = p.q0();
    }
  }

  /**
   * The parameters this learner was built with.
   *
   * @return the parameters
   */
  public AdaGradParams params() {
    return p;
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
   * The sums of squared gradients {@code Q}, LIVE: writes change the learner. For tests and oracle
   * use.
   *
   * @return the live {@code Q} array
   */
  public double[] q() {
    return q;
  }

  @Override
  protected void apply(SparseVec g) {
    Box box = p.box();
    double delta = p.delta();
    for (int k = 0; k < g.nnz; k++) {
      int i = g.idx[k];
      double gi = g.val[k];
      // Algorithm 1: eta_{t,i} uses sum_{s<=t} g_{s,i}^2, i.e. Q after adding this round.
      q[i] = q[i] + gi * gi;
      double denom = delta + Math.sqrt(q[i]);
      if (denom == 0) {
        continue; // g_i^2 underflowed to 0 with delta = Q0 = 0: step size undefined
      }
      // y_{t+1,i} = x_{t,i} - eta_{t,i} g_{t,i}; x_{t+1} = P(y_{t+1}) is a clamp for a box.
      w[i] = box.clamp(i, w[i] - (eta[i] * gi) / denom);
    }
  }

  /**
   * Merges learners that started from this learner's state and each processed a disjoint part of
   * the stream into this learner, by the rules of docs/MERGING.md ({@link ReferenceMerge}): {@code
   * Q} by increments, {@code w} averaged by the increments of {@code Q} and clamped.
   *
   * @param learners at least one learner of the same dimension and parameters, none with a pending
   *     predict; read, never changed
   */
  public void merge(java.util.List<ReferenceAdaGrad> learners) {
    java.util.List<ReferenceAdaGrad> o =
        ReferenceMerge.canonical(this, learners, l -> new double[][] {l.w, l.q});
    for (int i = 0; i < d; i++) {
      double[] ws = ReferenceMerge.column(o, l -> l.w, i);
      double[] qs = ReferenceMerge.column(o, l -> l.q, i);
      double[] cs = new double[qs.length];
      for (int j = 0; j < cs.length; j++) {
        cs[j] = ReferenceMerge.weight(qs[j] - q[i], 0);
      }
      double m = ReferenceMerge.mean(w[i], ws, cs);
      w[i] = ReferenceMerge.count(w[i], ws, cs) >= 2 ? p.box().clamp(i, m) : m;
      q[i] = ReferenceMerge.sum(q[i], qs);
    }
  }

  /** {@inheritDoc} */
  @Override
  public java.util.Map<String, double[]> buffers() {
    return java.util.Map.of("w", w(), "Q", q());
  }

  /** {@inheritDoc} */
  @Override
  public void mergeLearners(java.util.List<? extends ReferenceModel> learners) {
    merge(learnersOf(ReferenceAdaGrad.class, learners));
  }
}
