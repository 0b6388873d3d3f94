package org.onlinekernels.bench.workload.hand;

import java.util.List;
import org.onlinekernels.bench.workload.Contender;
import org.onlinekernels.bench.workload.Workload;
import org.onlinekernels.kernel.ElementType;

/**
 * The hand-written fused loops' common part: the workload, and the bound within which their mean
 * progressive loss must equal the library's.
 *
 * <h2>The agreement bound, derived</h2>
 *
 * The hand loops do the library's state updates in the library's order, so from the same state and
 * the same {@code g} they write the same bits. What may differ is the order in which {@code yhat =
 * sum_j x_j w_j} is summed (the vector kernels keep lane-wise partial sums; a fused or interleaved
 * kernel may use yet another order). Any order of {@code m} products summed in the element type
 * (unit roundoff {@code u}: {@code 2^-24} float, {@code 2^-53} double) is within {@code gamma(m) S}
 * of the exact sum, {@code gamma(m) = m u / (1 - m u)}, {@code S = sum_j |x_j w_j|} (Higham,
 * Accuracy and Stability of Numerical Algorithms, 2nd ed., section 4.2; the {@code m}-th rounding
 * is the product's, absent with an FMA), so two orders differ by at most {@code 2 gamma(m) S}; we
 * use {@code gamma(m + 1)} to cover the rounding of {@code S} itself. The logistic loss is
 * 1-Lipschitz in {@code yhat}, so one example's loss differs by at most that, summed over its
 * outputs. The mean of {@code n} losses (summed in double in the same order on both sides) adds at
 * most {@code 2 gamma_53(n K) L} plus 4 double ulps of {@code L} for {@code exp}/{@code log1p}.
 * Hence
 *
 * <pre>
 *   |L_hand - L_library| &lt;= (1/n) sum_rows sum_outputs 2 gamma(m + 1) S  +  (2 gamma_53(n K) + 2^-51) L
 * </pre>
 *
 * which the hand loop accumulates while it runs when asked ({@code bound = true}; the timed passes
 * do not ask). It covers one round's summation difference from the same state. It has no term for
 * the state drifting apart because a different {@code g} was fed back; the measured differences
 * stay far inside it (bench/README.md gives the figures) and with one nonzero per row, where there
 * is no order to differ, the two agree bit for bit ({@code HandLoopAgreementTest}).
 */
public abstract class HandLoop implements Contender {
  /** The rows. */
  protected final Workload wl;

  /** Outputs (1, or {@code K} one-vs-rest). */
  protected final int outputs;

  /** Whether {@link #pass} accumulates {@link #boundSum}. */
  protected final boolean bound;

  /** Unit roundoff of the element type. */
  protected final double u;

  /** Sum over rows and outputs of {@code 2 gamma(m + 1) S} of the last pass. */
  protected double boundSum;

  /** For the two rules. */
  protected HandLoop(Workload wl, boolean bound, double u) {
    this.wl = wl;
    this.outputs = wl.outputs;
    this.bound = bound;
    this.u = u;
  }

  /** The rules that have a hand loop. */
  public static final List<String> RULES = List.of("scinol2", "adagrad");

  /** A hand loop for {@code algorithm} ({@code scinol2} or {@code adagrad}) and {@code type}. */
  public static HandLoop of(String algorithm, ElementType type, Workload wl, boolean bound) {
    boolean f = type == ElementType.FLOAT;
    return switch (algorithm) {
      case "scinol2" -> f ? new FloatHandScInOL2(wl, bound) : new DoubleHandScInOL2(wl, bound);
      case "adagrad" -> f ? new FloatHandAdaGrad(wl, bound) : new DoubleHandAdaGrad(wl, bound);
      default ->
          throw new IllegalArgumentException(
              "hand-written loops exist for scinol2 and adagrad, not " + algorithm);
    };
  }

  /** {@code 2 gamma(m + 1) abs}, one output's allowance for the order of its {@code m}-term sum. */
  protected final double gammaTimes(int m, double abs) {
    double mu = (m + 1) * u;
    return 2 * mu / (1 - mu) * abs;
  }

  /**
   * The agreement bound of the last pass (run with {@code bound = true}) whose mean loss was {@code
   * meanLoss}.
   */
  public double agreementBound(double meanLoss) {
    if (!bound) throw new IllegalStateException("this hand loop was made without the bound");
    double nk = (double) wl.n * outputs * 0x1p-53;
    return boundSum / wl.n + (2 * nk / (1 - nk) + 0x1p-51) * meanLoss;
  }

  /** A checksum of the state, throwing if any element is not finite. */
  public abstract double stateChecksum();

  @Override
  public void close() {}
}
