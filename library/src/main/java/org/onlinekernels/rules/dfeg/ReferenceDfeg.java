package org.onlinekernels.rules.dfeg;

import java.util.List;
import org.onlinekernels.params.DfegParams;
import org.onlinekernels.reference.ReferenceMerge;
import org.onlinekernels.reference.ReferenceModel;
import org.onlinekernels.reference.SparseVec;

/**
 * DFEG, ALGORITHMS.md section 5 (Orabona 2013, Algorithm 1), linear-model form.
 *
 * <pre>
 * predict(x):
 *   H     = H + (L * L) * max(||x||, ||x||^2)        (||x||^2 summed sequentially, increasing i)
 *   alpha = a * sqrt(H);   beta = H * sqrt(H)         (= H^(3/2))
 *   yhat  = 0                                                    if ||theta|| == 0
 *         = exp(||theta|| / alpha) / (beta * ||theta||) * &lt;theta, x&gt;   otherwise
 * update(g):
 *   theta_i = theta_i - g * x_i                      for every x_i != 0
 *   ||theta||^2 = max(0, ||theta||^2 + sum_touched (theta_i,new^2 - theta_i,old^2))
 * </pre>
 *
 * <p>{@code ||theta||^2} is kept up to date from the touched coordinates only, in dense and sparse
 * paths alike, so the two agree bit for bit; {@link #recomputeNorm()} recomputes it exactly. The
 * incremental value can drift below 0 by rounding when {@code theta} returns near 0; it is clamped
 * at 0 so that {@code sqrt} never makes a NaN.
 *
 * <p>If {@code exp(||theta|| / alpha)} overflows, {@link #predict} and {@link #weights} throw an
 * {@link ArithmeticException} and leave the state unchanged (in particular {@code H} is not
 * incremented); {@link #update} does the same if {@code theta} or {@code ||theta||^2} would
 * overflow. No infinity or NaN reaches the state. A prediction that threw leaves no instance
 * pending, so a following {@code update} is refused.
 */
public final class ReferenceDfeg extends ReferenceModel {
  private final DfegParams p;
  private final double[] theta;
  private double h;
  private double thetaNormSquared;

  /**
   * A learner at its initial state: {@code theta = 0}, {@code H = delta}.
   *
   * @param d number of coordinates, {@code >= 1}
   * @param p parameters
   */
  public ReferenceDfeg(int d, DfegParams p) {
    super(d);
    if (p == null) {
      throw new IllegalArgumentException("params p must not be null");
    }
    this.p = p;
    this.theta = new double[d];
    this.h = p.delta();
  }

  /**
   * The vector {@code theta} (minus the sum of past gradients), LIVE. For tests and oracle use;
   * after writing into it, call {@link #recomputeNorm()} or {@link #setThetaNormSquared(double)}.
   *
   * @return the live {@code theta} array
   */
  public double[] theta() {
    return theta;
  }

  /**
   * The accumulated {@code H}.
   *
   * @return {@code H}
   */
  public double h() {
    return h;
  }

  /**
   * Sets {@code H}, to put the learner into an arbitrary state in tests.
   *
   * @param v finite and {@code > 0}
   */
  public void setH(double v) {
    if (!(v > 0) || !Double.isFinite(v)) {
      throw new IllegalArgumentException("H must be finite and > 0, got " + v);
    }
    h = v;
  }

  /**
   * The maintained {@code ||theta||^2}.
   *
   * @return {@code ||theta||^2} as kept up to date incrementally
   */
  public double thetaNormSquared() {
    return thetaNormSquared;
  }

  /**
   * Sets the maintained {@code ||theta||^2}, to put the learner into an arbitrary state in tests.
   *
   * @param v finite and {@code >= 0}
   */
  public void setThetaNormSquared(double v) {
    if (!(v >= 0) || !Double.isFinite(v)) {
      throw new IllegalArgumentException("thetaNormSquared must be finite and >= 0, got " + v);
    }
    thetaNormSquared = v;
  }

  /**
   * Recomputes {@code ||theta||^2} from {@code theta}, summing sequentially in increasing index
   * order, and stores it.
   *
   * @return the recomputed value
   */
  public double recomputeNorm() {
    double s = 0;
    for (int i = 0; i < d; i++) {
      s += theta[i] * theta[i];
    }
    thetaNormSquared = s;
    return s;
  }

  @Override
  protected double predictOn(SparseVec x) {
    double nx2 = x.squaredNorm();
    double nx = Math.sqrt(nx2);
    // H_t = H_{t-1} + L^2 max(||x_t||, ||x_t||^2); committed only once the prediction is finite.
    double hNew = h + (p.l() * p.l()) * Math.max(nx, nx2);
    double scale = scale(hNew);
    double yhat = scale == 0 ? 0 : scale * x.dot(theta);
    // As in DfegOptimizer: a finite scale times <theta, x> can still overflow.
    if (!Double.isFinite(yhat)) {
      throw new ArithmeticException(
          "DFEG: yhat = " + yhat + " overflows; the state is left unchanged");
    }
    h = hNew;
    return yhat;
  }

  /**
   * {@code exp(||theta|| / alpha) / (beta ||theta||)} for the given {@code H}, or 0 when {@code
   * ||theta|| = 0} (Algorithm 1's {@code w_t = 0} branch).
   */
  private double scale(double hh) {
    double nt = Math.sqrt(thetaNormSquared);
    if (nt == 0) {
      return 0;
    }
    double alpha = p.a() * Math.sqrt(hh);
    double beta = hh * Math.sqrt(hh);
    double e = Math.exp(nt / alpha);
    if (e == Double.POSITIVE_INFINITY) {
      throw new ArithmeticException(
          "DFEG: exp(||theta|| / alpha) overflows with ||theta|| = "
              + nt
              + ", H = "
              + hh
              + ", alpha = "
              + alpha
              + "; the state is left unchanged");
    }
    return e / (beta * nt);
  }

  /** {@inheritDoc} */
  @Override
  public void update(double g) {
    SparseVec x = takePending(g);
    // Computed aside first so that an overflow leaves the state unchanged instead of writing an
    // infinity (and later NaN = inf - inf) into it.
    double[] fresh = new double[x.nnz];
    double change = 0;
    for (int k = 0; k < x.nnz; k++) {
      int i = x.idx[k];
      double old = theta[i];
      // theta_{t+1} = theta_t - dl_t(<w_t, x_t>) x_t
      fresh[k] = old - g * x.val[k];
      change += fresh[k] * fresh[k] - old * old;
    }
    double n2 = Math.max(0, thetaNormSquared + change);
    if (!Double.isFinite(n2)) {
      throw new ArithmeticException(
          "DFEG: theta or ||theta||^2 overflows in update(g = "
              + g
              + "); the state is left unchanged");
    }
    for (int k = 0; k < x.nnz; k++) {
      theta[x.idx[k]] = fresh[k];
    }
    thetaNormSquared = n2;
  }

  /** {@code w = theta * exp(||theta||/alpha) / (beta ||theta||)} with the current {@code H}. */
  @Override
  public double[] weights() {
    double scale = scale(h);
    double[] w = new double[d];
    if (scale != 0) {
      for (int i = 0; i < d; i++) {
        w[i] = scale * theta[i];
      }
    }
    return w;
  }

  /**
   * Merges learners that started from this learner's state and each processed a disjoint part of
   * the stream into this learner, by the rules of docs/MERGING.md ({@link ReferenceMerge}): {@code
   * theta} and {@code H} averaged over the learners that changed them, {@code ||theta||^2}
   * recomputed from the merged {@code theta}.
   *
   * @param learners at least one learner of the same dimension and parameters, none with a pending
   *     predict; read, never changed
   */
  public void merge(List<ReferenceDfeg> learners) {
    List<ReferenceDfeg> o =
        ReferenceMerge.canonical(this, learners, l -> new double[][] {l.theta, {l.h}});
    // One learner that moved: its state is the merge, its running norm included.
    List<ReferenceDfeg> moved =
        o.stream()
            .filter(l -> !java.util.Arrays.equals(l.theta, theta) || Double.compare(l.h, h) != 0)
            .toList();
    for (int i = 0; i < d; i++) {
      theta[i] = ReferenceMerge.average(theta[i], ReferenceMerge.column(o, l -> l.theta, i));
    }
    h = ReferenceMerge.average(h, ReferenceMerge.scalars(o, l -> l.h));
    if (moved.size() == 1) {
      thetaNormSquared = moved.get(0).thetaNormSquared;
    } else if (moved.size() > 1) {
      recomputeNorm();
    }
  }

  /** {@inheritDoc} */
  @Override
  public java.util.Map<String, double[]> buffers() {
    return java.util.Map.of("theta", theta());
  }

  /** {@inheritDoc} */
  @Override
  public java.util.Map<String, Double> scalars() {
    return java.util.Map.of("H", h(), "thetaNormSquared", thetaNormSquared());
  }

  /** {@inheritDoc} */
  @Override
  public void setScalar(String name, double value) {
    switch (name) {
      case "H" -> setH(value);
      case "thetaNormSquared" -> setThetaNormSquared(value);
      default -> super.setScalar(name, value);
    }
  }

  /** {@inheritDoc} */
  @Override
  public void mergeLearners(java.util.List<? extends ReferenceModel> learners) {
    merge(learnersOf(ReferenceDfeg.class, learners));
  }
}
