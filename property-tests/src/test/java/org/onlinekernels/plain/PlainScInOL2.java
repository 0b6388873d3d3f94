package org.onlinekernels.plain;

import java.util.Arrays;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.rules.scinol2.ScInOL2;
import org.onlinekernels.testkit.Learner;
import org.onlinekernels.testkit.Row;

/**
 * ScInOL2 written from ALGORITHMS.md section 4 in plain Java, as a user of the kit would: one
 * {@code double[]} per state variable, every operation rounded to the element type (a float
 * operation on float operands is exactly the double operation rounded to float, since double
 * carries more than twice float's digits), the reference's order of operations so that double runs
 * give the reference's bits. A {@link Bug} plants one of the mistakes the kit must catch.
 */
final class PlainScInOL2 implements Learner {
  /** A planted mistake. */
  enum Bug {
    /** None: the rule as written. */
    NONE,
    /** The wealth's reward term with its sign flipped: {@code eta += g x w}. */
    SIGN_FLIP,
    /** {@code M = |x|} instead of {@code max(M, |x|)}. */
    NO_MAX_IN_M,
    /** Entries in blocks of four, and a tail loop that stops one entry short. */
    SPARSE_TAIL,
    /** {@code S2} accumulated in float whatever the element type. */
    FLOAT_ACCUMULATOR
  }

  private final ElementType type;
  private final Bug bug;
  private final double cap;
  private final double max;
  private final double[] bigG;
  private final double[] s2;
  private final double[] m;
  private final double[] eta;
  private final int[] idx;
  private final double[] val;
  private final double[] w;
  private int nnz = -1;

  PlainScInOL2(int d, ElementType type, double epsilon, Bug bug) {
    this.type = type;
    this.bug = bug;
    boolean f = type == ElementType.FLOAT;
    this.cap = f ? ScInOL2.FLOAT_WEALTH_CAP : ScInOL2.DOUBLE_WEALTH_CAP;
    this.max = f ? Float.MAX_VALUE : Double.MAX_VALUE;
    bigG = new double[d];
    s2 = new double[d];
    m = new double[d];
    eta = new double[d];
    Arrays.fill(eta, r(epsilon));
    idx = new int[d];
    val = new double[d];
    w = new double[d];
  }

  /** Rounds to the element type. */
  private double r(double v) {
    return type == ElementType.FLOAT ? (float) v : v;
  }

  @Override
  public double predict(Row row) {
    nnz = 0;
    if (row.sparse()) {
      for (int k = 0; k < row.nnz(); k++) {
        idx[nnz] = row.indices()[k];
        val[nnz++] = row.values()[k];
      }
    } else {
      double[] x = row.dense();
      for (int i = 0; i < x.length; i++) {
        if (x[i] != 0) {
          idx[nnz] = i;
          val[nnz++] = x[i];
        }
      }
    }
    double yhat = 0;
    for (int k = 0, end = entries(); k < end; k++) {
      int i = idx[k];
      double x = val[k];
      if (x == 0) {
        w[k] = 0;
        continue;
      }
      m[i] = bug == Bug.NO_MAX_IN_M ? Math.abs(x) : Math.max(m[i], Math.abs(x));
      double s = r(Math.sqrt(r(s2[i] + r(m[i] * m[i]))));
      double wi = 0;
      if (s != 0) {
        double theta = r(bigG[i] / s);
        wi = r(r(Math.signum(theta) * Math.min(Math.abs(theta), 1) * eta[i]) / r(2 * s));
        wi = Math.max(-max, Math.min(wi, max));
      }
      w[k] = wi;
      yhat = r(yhat + r(x * wi));
    }
    return yhat;
  }

  /**
   * How many of the row's entries the loops visit (all but a tail entry under {@link
   * Bug#SPARSE_TAIL}).
   */
  private int entries() {
    return bug == Bug.SPARSE_TAIL && nnz % 4 != 0 ? nnz - 1 : nnz;
  }

  @Override
  public void update(double g) {
    if (nnz < 0) {
      throw new IllegalStateException("update without predict");
    }
    for (int k = 0, end = entries(); k < end; k++) {
      int i = idx[k];
      if (val[k] == 0) {
        continue;
      }
      double gx = r(g * val[k]);
      bigG[i] = r(bigG[i] - gx);
      double sq = r(s2[i] + r(gx * gx));
      s2[i] = bug == Bug.FLOAT_ACCUMULATOR ? (float) sq : sq;
      double reward = r(gx * w[k]);
      double e = bug == Bug.SIGN_FLIP ? r(eta[i] + reward) : r(eta[i] - reward);
      eta[i] = Math.max(-cap, Math.min(e, cap));
    }
    nnz = -1;
  }

  @Override
  public double[] state(String name) {
    return buffer(name).clone();
  }

  @Override
  public void writeState(String name, double[] values) {
    System.arraycopy(values, 0, buffer(name), 0, values.length);
  }

  private double[] buffer(String name) {
    return switch (name) {
      case "G" -> bigG;
      case "S2" -> s2;
      case "M" -> m;
      case "eta" -> eta;
      default -> throw new IllegalArgumentException("ScInOL2 has no state " + name);
    };
  }
}
