package org.onlinekernels.rules.freegrad;

import java.util.List;
import org.onlinekernels.optimizer.InputPolicy;
import org.onlinekernels.params.FreeGradParams;
import org.onlinekernels.reference.ReferenceCoordinateLearner;
import org.onlinekernels.reference.ReferenceMerge;
import org.onlinekernels.reference.ReferenceModel;
import org.onlinekernels.reference.SparseVec;

/**
 * Per-coordinate FreeGrad, docs/ALGORITHMS.md section 13.3, in double, on the nonzero entries only.
 * Predict, for every coordinate with {@code x_i != 0} ({@code 0} while {@code h1 = 0} or {@code V =
 * 0}):
 *
 * <pre>
 *   A = |G| ;  D = V + ht * A ;  r = (-G) / D ;  m = (1 + V / D) / 2 ;  q = h1 / sqrt(V)
 *   e = min((A * (A / D)) / 2, cap)
 *   w = clamp(((((r * eps) * m) * h1) * q) * exp(e), -bound, bound)       (bound: InputPolicy's weight bound)
 * </pre>
 *
 * Update, for every coordinate with {@code g_i = g * x_i != 0}, {@code a = |g_i|}: on the first one
 * {@code h1 = a}, {@code V = V + a * a}, {@code c = g_i}; later {@code c = g_i * (ht / a)} if
 * {@code a > ht}, else {@code c = g_i}; then {@code ht = max(ht, a)}, {@code G = G + c}, {@code V =
 * V + c * c}. {@code exp} is {@code Math.exp}; the exponent's cap is {@link
 * FreeGrad#DOUBLE_EXP_CAP} unless given (a check of float kernels gives the float cap).
 */
public final class ReferenceFreeGrad extends ReferenceCoordinateLearner {
  private final FreeGradParams p;
  private final double cap;
  private final double bound;
  private final double[] bigG;
  private final double[] v;
  private final double[] h1;
  private final double[] ht;

  /**
   * A learner at its initial state (every field 0) with the double exponent cap and weight bound.
   */
  public ReferenceFreeGrad(int d, FreeGradParams p) {
    this(d, p, FreeGrad.DOUBLE_EXP_CAP, InputPolicy.DOUBLE_WEIGHT_BOUND);
  }

  /**
   * A learner at its initial state with the given cap of the exponent and bound of the weight (a
   * check of float kernels gives the float ones).
   *
   * @param d number of coordinates, {@code >= 1}
   * @param p parameters
   * @param cap the exponent's cap, {@code > 0}
   * @param bound the weight's clamp, {@code > 0}
   */
  public ReferenceFreeGrad(int d, FreeGradParams p, double cap, double bound) {
    super(d);
    if (p == null) {
      throw new IllegalArgumentException("params p must not be null");
    }
    if (!(cap > 0)) {
      throw new IllegalArgumentException("the exponent's cap must be > 0, got " + cap);
    }
    if (!(bound > 0)) {
      throw new IllegalArgumentException("the weight bound must be > 0, got " + bound);
    }
    this.p = p;
    this.cap = cap;
    this.bound = bound;
    this.bigG = new double[d];
    this.v = new double[d];
    this.h1 = new double[d];
    this.ht = new double[d];
  }

  /** The sums of clipped gradients {@code G}, LIVE. */
  public double[] bigG() {
    return bigG;
  }

  /** {@code V}: the first hint squared plus the sums of squared clipped gradients, LIVE. */
  public double[] v() {
    return v;
  }

  /** The first hints {@code h1}, LIVE. */
  public double[] h1() {
    return h1;
  }

  /** The current hints {@code ht} (largest {@code |g|} so far), LIVE. */
  public double[] ht() {
    return ht;
  }

  @Override
  protected double weight(int i) {
    if (h1[i] == 0 || v[i] == 0) {
      return 0;
    }
    double a = Math.abs(bigG[i]);
    double dd = v[i] + ht[i] * a;
    double r = -bigG[i] / dd;
    double m = (1 + v[i] / dd) / 2;
    double q = h1[i] / Math.sqrt(v[i]);
    double e = Math.min(a * (a / dd) / 2, cap);
    double w = r * p.epsilon() * m * h1[i] * q * Math.exp(e);
    return Math.max(-bound, Math.min(w, bound));
  }

  /** The update does not read the weights played. */
  @Override
  protected void apply(SparseVec x, double g, double[] ws) {
    for (int j = 0; j < x.nnz; j++) {
      int i = x.idx[j];
      double gx = g * x.val[j];
      if (gx == 0) {
        continue;
      }
      double a = Math.abs(gx);
      double c = gx;
      if (h1[i] == 0) {
        h1[i] = a;
        v[i] = v[i] + a * a;
      } else if (a > ht[i]) {
        c = gx * (ht[i] / a);
      }
      ht[i] = Math.max(ht[i], a);
      bigG[i] = bigG[i] + c;
      v[i] = v[i] + c * c;
    }
  }

  /**
   * Merges learners that started from this learner's state (docs/MERGING.md): {@code G}, {@code V},
   * {@code h1} averaged over the learners that changed them, {@code ht} the maximum.
   */
  public void merge(List<ReferenceFreeGrad> learners) {
    List<ReferenceFreeGrad> o =
        ReferenceMerge.canonical(this, learners, l -> new double[][] {l.bigG, l.v, l.h1, l.ht});
    for (int i = 0; i < d; i++) {
      bigG[i] = ReferenceMerge.average(bigG[i], ReferenceMerge.column(o, l -> l.bigG, i));
      v[i] = ReferenceMerge.average(v[i], ReferenceMerge.column(o, l -> l.v, i));
      h1[i] = ReferenceMerge.average(h1[i], ReferenceMerge.column(o, l -> l.h1, i));
      ht[i] = ReferenceMerge.max(ht[i], ReferenceMerge.column(o, l -> l.ht, i));
    }
  }

  /** {@inheritDoc} */
  @Override
  public java.util.Map<String, double[]> buffers() {
    return java.util.Map.of("G", bigG(), "Vsum", v(), "h1", h1(), "ht", ht());
  }

  /** {@inheritDoc} */
  @Override
  public void mergeLearners(java.util.List<? extends ReferenceModel> learners) {
    merge(learnersOf(ReferenceFreeGrad.class, learners));
  }
}
