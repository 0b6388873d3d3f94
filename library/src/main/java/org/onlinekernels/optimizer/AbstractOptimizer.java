package org.onlinekernels.optimizer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.onlinekernels.kernel.KernelChecks;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateStore;

/**
 * The protocol every optimizer shares: the owner thread and closing, input checks, the pairing of a
 * predict with its update, fused rounds and blocks of rounds, read-out, reset, state access and the
 * checkpoint and merge hooks. Storage is a {@link StateStore}; the rule's arithmetic is a
 * subclass's ({@link RuleOptimizer} runs any generated rule).
 *
 * <p>Every public entry validates all of its arguments before it writes anything, so a call that
 * throws leaves every buffer and scalar bit-identical to before: {@link IllegalArgumentException}
 * for a bad argument (size, sparse index order or range, NaN/infinite scalar, and under {@link
 * InputPolicy#CHECKED} a non-finite or too large input element), {@link IllegalStateException} for
 * a closed optimizer, a closed input segment or an update without a pending predict, {@link
 * WrongThreadException} for a call from a thread other than the owner, and {@link
 * ArithmeticException} where an algorithm's own arithmetic would overflow (DFEG's {@code exp},
 * global AdaGrad's sum, Adaptive OGD's {@code Hsum}, a weight read-out not representable in the
 * element type).
 *
 * <p>Threads: an optimizer is confined to its owner thread (the creating one, see {@link
 * #transferOwnership}); every entry checks the caller first, whatever arena holds the state.
 */
public abstract class AbstractOptimizer extends StatefulOptimizer {
  private final InputGuard guard;

  // The pending instance between predict and update: references, never copies.
  private boolean pending;
  private boolean pendingSparse;
  private MemorySegment px;
  private MemorySegment pidx;
  private MemorySegment pval;
  private int pnnz;

  /**
   * @param arena where the state lives; {@code null} makes a confined arena owned (and closed) by
   *     this optimizer
   * @param kernels implementation; {@code null} means {@link KernelProvider#get()}
   */
  protected AbstractOptimizer(
      String algorithm, int d, Precision precision, Arena arena, KernelProvider kernels) {
    super(algorithm, d, precision, arena, kernels);
    this.guard = new InputGuard(type, this.kernels);
  }

  /** The current input policy ({@link InputPolicy#CHECKED} unless set otherwise). */
  public final InputPolicy inputPolicy() {
    return guard.policy();
  }

  /** Chooses whether vector input is scanned before each call; see {@link InputPolicy}. */
  public final void setInputPolicy(InputPolicy policy) {
    checkOpen();
    guard.setPolicy(policy);
  }

  // ---------------------------------------------------------------- predict and update

  @Override
  public final double predict(MemorySegment x) {
    checkOpen();
    KernelChecks.input("x", x, d, type);
    double maxAbs = guard.scan("x", x, d);
    double yhat = predictDense(x);
    pending = true;
    pendingSparse = false;
    px = x;
    guard.pending(maxAbs);
    return yhat;
  }

  @Override
  public final double predictSparse(MemorySegment indices, MemorySegment values, int nnz) {
    checkOpen();
    KernelChecks.sparse(indices, values, nnz, d, type);
    double maxAbs = guard.scan("values", values, nnz);
    double yhat = predictSparseImpl(indices, values, nnz);
    pending = true;
    pendingSparse = true;
    pidx = indices;
    pval = values;
    pnnz = nnz;
    guard.pending(maxAbs);
    return yhat;
  }

  @Override
  public final void update(double g) {
    checkOpen();
    if (!pending) {
      throw new IllegalStateException(
          "update(g) needs a pending predict: call predict or predictSparse first");
    }
    KernelChecks.finite("g", g);
    guard.checkGradient(g);
    if (pendingSparse) {
      updateAfterPredictSparse(pidx, pval, pnnz, g);
    } else {
      updateDense(px, g);
    }
    cancelPending();
  }

  /**
   * The update of a pending {@link #predictSparse} of the same row (checked then, unchanged since:
   * the interface's contract); {@link #updateSparse} unless the optimizer kept what the predict
   * computed.
   */
  protected void updateAfterPredictSparse(MemorySegment idx, MemorySegment val, int nnz, double g) {
    updateSparse(idx, val, nnz, g);
  }

  private void cancelPending() {
    pending = false;
    px = pidx = pval = null;
  }

  /**
   * Entry check of a gradient-form dense step: open, owner thread, size, and under CHECKED the
   * input scan.
   */
  protected final void checkGradient(MemorySegment gradient) {
    checkOpen();
    KernelChecks.input("gradient", gradient, d, type);
    guard.scan("gradient", gradient, d);
  }

  /** Entry check of a gradient-form sparse step, like {@link #checkGradient}. */
  protected final void checkSparseGradient(MemorySegment indices, MemorySegment values, int nnz) {
    checkOpen();
    KernelChecks.sparse(indices, values, nnz, d, type);
    guard.scan("values", values, nnz);
  }

  // ---------------------------------------------------------------- fused rounds

  /**
   * The fused round ({@link LinearModelOptimizer#round}): validation in O(1) (the rows were
   * validated when built: here only their element type, that they fit the dimension, the row
   * number, the label and, under {@link InputPolicy#CHECKED}, the row's recorded {@code max|x_j|}
   * and the gradient bound), then {@link #roundPredict}, the loss derivative, {@link #roundUpdate}.
   * The predict half writes nothing but per-entry scratch, so a refused gradient (non-finite, or
   * over the CHECKED bound) leaves the state bit-identical. Allocates nothing once the scratch has
   * grown to the longest row.
   */
  @Override
  public final double round(SparseRows rows, int row, double y, Loss loss) {
    checkOpen();
    checkRows(rows, loss);
    if (row < 0 || row >= rows.size()) {
      throw new IllegalArgumentException("row " + row + " is outside 0.." + (rows.size() - 1));
    }
    cancelPending();
    prepareRounds(rows.maxNnz());
    return roundOn(rows, row, y, loss, null, 0);
  }

  /**
   * The fused round on the caller's own row ({@link LinearModelOptimizer#round(MemorySegment,
   * MemorySegment, int, double, Loss)}): the row is checked as {@link #predictSparse} checks it,
   * once, then the round runs as {@link #round(SparseRows, int, double, Loss)} runs, on a copy of
   * the row in the optimizer's own arrays (grown to the longest row, never per call). A refusal
   * leaves the state as it was. Cancels a pending predict.
   */
  @Override
  public final double round(
      MemorySegment indices, MemorySegment values, int nnz, double y, Loss loss) {
    return roundOnBuffers(indices, values, nnz, y, loss, null, 0);
  }

  /**
   * The same fused round, its progressive loss to {@code losses[at]} with the derivative ({@link
   * LinearModelOptimizer#round(MemorySegment, MemorySegment, int, double, Loss, double[], int)}).
   */
  @Override
  public final double round(
      MemorySegment indices,
      MemorySegment values,
      int nnz,
      double y,
      Loss loss,
      double[] losses,
      int at) {
    RoundBlocks.checkSlot(losses, at);
    return roundOnBuffers(indices, values, nnz, y, loss, losses, at);
  }

  private double roundOnBuffers(
      MemorySegment indices,
      MemorySegment values,
      int nnz,
      double y,
      Loss loss,
      double[] losses,
      int at) {
    checkOpen();
    if (loss == null) {
      throw new IllegalArgumentException("loss must not be null");
    }
    KernelChecks.sparse(indices, values, nnz, d, type);
    KernelChecks.finite("y", y);
    double maxAbs = guard.scan("values", values, nnz);
    cancelPending();
    double yhat = roundPredict(indices, values, nnz);
    double g =
        losses == null ? loss.derivative(y, yhat) : loss.derivativeAndValue(y, yhat, losses, at);
    KernelChecks.finite("g", g);
    guard.pending(maxAbs);
    guard.checkGradient(g);
    roundUpdate(nnz, g);
    return yhat;
  }

  /**
   * {@link LinearModelOptimizer#rounds}: the block's arguments and row numbers are checked once,
   * then one loop runs {@link #round}'s per-row part; the loss comes with the derivative ({@link
   * Loss#derivativeAndValue}: one {@code exp} for both). A refusal stops the block as {@link
   * #round} would refuse that row, and says where.
   */
  @Override
  public final void rounds(
      SparseRows rows,
      int[] order,
      int from,
      int to,
      double[] y,
      Loss loss,
      double[] yhat,
      double[] losses) {
    checkOpen();
    checkRows(rows, loss);
    RoundBlocks.check(rows, order, from, to, y, yhat, losses);
    cancelPending();
    prepareRounds(rows.maxNnz());
    int q = from;
    int ahead = roundsAhead();
    boolean timed = roundsTimed();
    long start = timed ? System.nanoTime() : 0L;
    try {
      for (; q < to; q++) {
        if (ahead > 0 && q + ahead < to) {
          touchAhead(rows, order[q + ahead]);
        }
        yhat[q - from] = roundOn(rows, order[q], y[q - from], loss, losses, q - from);
      }
    } catch (IllegalArgumentException e) {
      throw new RefusedRoundException(q, e);
    }
    if (timed) {
      long nanos = System.nanoTime() - start;
      long nonzeros = 0;
      for (int p = from; p < to; p++) {
        nonzeros += rows.nnz(order[p]);
      }
      roundsRan(to - from, nonzeros, nanos);
    }
  }

  private void checkRows(SparseRows rows, Loss loss) {
    if (rows == null || loss == null) {
      throw new IllegalArgumentException("rows and loss must not be null");
    }
    if (rows.elementType() != type) {
      throw new IllegalArgumentException(
          "rows hold "
              + rows.elementType().name().toLowerCase()
              + " values; this optimizer takes "
              + type.name().toLowerCase());
    }
    if (rows.dimension() > d) {
      throw new IllegalArgumentException(
          "rows have indices up to "
              + (rows.dimension() - 1)
              + "; this optimizer has dimension "
              + d);
    }
  }

  /**
   * A round's per-row part on a row known to be in {@code rows}; with {@code losses}, the loss goes
   * to {@code losses[at]}.
   */
  private double roundOn(SparseRows rows, int row, double y, Loss loss, double[] losses, int at) {
    KernelChecks.finite("y", y);
    double maxAbs = rows.maxAbs(row);
    guard.checkRow(row, maxAbs);
    double yhat = roundPredict(rows, row);
    double g =
        losses == null ? loss.derivative(y, yhat) : loss.derivativeAndValue(y, yhat, losses, at);
    KernelChecks.finite("g", g);
    guard.pending(maxAbs);
    guard.checkGradient(g);
    roundUpdate(rows, row, g);
    return yhat;
  }

  /**
   * How many rows ahead a block of rounds touches the state records of the row it will train then
   * ({@link #touchAhead}), so that their cache misses overlap the rounds in between; 0: none.
   */
  protected int roundsAhead() {
    return 0;
  }

  /**
   * Loads the state records of row {@code row} of {@code rows}, and nothing else (see {@link
   * #roundsAhead}).
   */
  protected void touchAhead(SparseRows rows, int row) {}

  /**
   * Whether the next block of rounds is timed and reported to {@link #roundsRan} (an optimizer that
   * picks how its rounds run by their speed on this CPU, while it picks); false by default.
   */
  protected boolean roundsTimed() {
    return false;
  }

  /**
   * A timed block of {@code rows} rounds on {@code nonzeros} nonzeros took {@code nanos} (only when
   * {@link #roundsTimed}, and only for a block that ran to its end).
   */
  protected void roundsRan(int rows, long nonzeros, long nanos) {}

  /**
   * Whether a sparse round writes the state of its row's coordinates only (and scalars): then
   * rounds on disjoint rows touch disjoint records, shared-state training may run them lock-free
   * ({@link org.onlinekernels.optimizer.parallel.SharedState}) and a merge need only visit the
   * coordinates the rows named. False for a rule whose round changes every coordinate (Adaptive OGD
   * on the ball).
   */
  protected boolean roundsWriteOnlyTheirRow() {
    return true;
  }

  /**
   * Grows per-entry scratch to rows of {@code maxNnz} entries before a round or a block of rounds.
   */
  protected abstract void prepareRounds(int maxNnz);

  /** Predict half of a round on row {@code row} (validated): writes only per-entry scratch. */
  protected abstract double roundPredict(SparseRows rows, int row);

  /** Update half of a round, after {@link #roundPredict} of the same row. */
  protected abstract void roundUpdate(SparseRows rows, int row, double g);

  /**
   * Predict half of a round on the caller's row (validated): writes only per-entry scratch and the
   * optimizer's row copy.
   */
  protected abstract double roundPredict(MemorySegment indices, MemorySegment values, int nnz);

  /**
   * Update half of a round, after {@link #roundPredict(MemorySegment, MemorySegment, int)}: the row
   * it copied.
   */
  protected abstract void roundUpdate(int nnz, double g);

  // ---------------------------------------------------------------- read-out, reset

  @Override
  public final void readWeights(MemorySegment into) {
    checkOpen();
    KernelChecks.state("into", into, d, type);
    readWeightsImpl(into);
    // A post-check of the output only: a saturated or overflowed weight must not reach the
    // caller as infinity without notice.
    if (!guard.allFinite(into, d)) {
      throw new ArithmeticException(
          algorithm()
              + ": a weight is not representable as "
              + type.name().toLowerCase()
              + " (overflow in the read-out); the state is unchanged, the contents of 'into' are unspecified");
    }
  }

  @Override
  public final void reset() {
    checkOpen();
    cancelPending();
    store.clear();
    resetImpl();
  }

  @Override
  final void stateReplaced() {
    cancelPending();
  }

  @Override
  final boolean hasPending() {
    return pending;
  }

  @Override
  final boolean writesOnlyTheirRow() {
    return roundsWriteOnlyTheirRow();
  }

  // ---------------------------------------------------------------- the rule's bodies

  /** Dense predict body (input already validated). */
  protected abstract double predictDense(MemorySegment x);

  /** Sparse predict body (input already validated). */
  protected abstract double predictSparseImpl(MemorySegment idx, MemorySegment val, int nnz);

  /** Dense update body. */
  protected abstract void updateDense(MemorySegment x, double g);

  /** Sparse update body. */
  protected abstract void updateSparse(MemorySegment idx, MemorySegment val, int nnz, double g);

  /** Weight read-out body. */
  protected abstract void readWeightsImpl(MemorySegment into);

  /** Restores initial values after every buffer has been zeroed. */
  protected abstract void resetImpl();
}
