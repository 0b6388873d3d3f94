package org.onlinekernels.optimizer;

import java.lang.foreign.MemorySegment;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;

/**
 * A stateful online learner in linear-model form (ALGORITHMS.md): {@link #predict} an instance
 * {@code x}, get {@code yhat = <w, x>}, then {@link #update} with {@code g = dLoss/dyhat}.
 *
 * <p>Buffers are segments of {@link #elementType()} in native byte order at any offset; dense
 * {@code x} holds {@link #dimension()} elements; sparse input is a strictly increasing {@code int}
 * index segment, a value segment and a count. The instance passed to {@code predict} is referenced,
 * not copied, until the matching {@code update}: do not change it in between.
 *
 * <p>Thread confinement: an optimizer is not thread-safe. One that owns its arena (created without
 * one) is confined to the creating thread and throws {@link WrongThreadException} when used from
 * another.
 */
public interface LinearModelOptimizer extends AutoCloseable {
  /** Name of the algorithm, e.g. {@code adagrad}. */
  String algorithm();

  /** Number of coordinates {@code d}. */
  int dimension();

  /** Element type of state and input buffers. */
  ElementType elementType();

  /**
   * Dense predict: {@code yhat = <w_t, x>}; may advance per-coordinate statistics (ScInOL, DFEG).
   */
  double predict(MemorySegment x);

  /** Sparse predict over {@code nnz} entries; O(nnz) except for the ball form of Adaptive OGD. */
  double predictSparse(MemorySegment indices, MemorySegment values, int nnz);

  /**
   * Applies the update for the instance of the last predict with scalar gradient {@code g}.
   *
   * @throws IllegalStateException if no predict is pending
   */
  void update(double g);

  /**
   * One fused round on row {@code row} of {@code rows}: predict, take {@code g = loss'(y, yhat)},
   * update; returns the round's {@code yhat} (taken before the update, for progressive validation).
   * The same result as {@code predictSparse} of that row followed by {@code
   * update(loss.derivative(y, yhat))}, up to the order of the prediction's sum. Cancels a pending
   * predict.
   *
   * <p>This default goes through {@link #predictSparse} and {@link #update} on views of the row
   * (two small allocations per call); the library's optimizers override it with a fused round that
   * validates in O(1), allocates nothing and, for ScInOL2 and AdaGrad, reads each coordinate's
   * state once ({@link AbstractOptimizer#round}).
   *
   * @throws IllegalArgumentException if the rows' element type differs, an index is outside the
   *     model, {@code y} is not finite or the gradient is refused
   */
  default double round(SparseRows rows, int row, double y, Loss loss) {
    if (rows.elementType() != elementType()) {
      throw new IllegalArgumentException(
          "rows hold " + rows.elementType() + " values; this optimizer takes " + elementType());
    }
    if (loss == null || !Double.isFinite(y)) {
      throw new IllegalArgumentException(
          "round needs a loss and a finite label, got " + loss + " and " + y);
    }
    double yhat = predictSparse(rows.indexSlice(row), rows.valueSlice(row), rows.nnz(row));
    update(loss.derivative(y, yhat));
    return yhat;
  }

  /**
   * One fused round on the caller's own sparse row ({@code nnz} strictly increasing indices and
   * their values, segments of {@link #elementType()} at any offset, e.g. {@code
   * MemorySegment.ofArray} over arrays): predict, take {@code g = loss'(y, yhat)}, update; returns
   * {@code yhat}. The same result as {@link #round(SparseRows, int, double, Loss)} on the same row,
   * bit for bit, without building {@link SparseRows}: for a trainer with a row format of its own.
   * Nothing of the row is kept after the call. Cancels a pending predict.
   *
   * <p>This default calls {@link #predictSparse} and {@link #update}; the library's optimizers
   * check the row once and run their fused round on it ({@link
   * AbstractOptimizer#round(MemorySegment, MemorySegment, int, double, Loss)}).
   *
   * @throws IllegalArgumentException as {@link #predictSparse} for the row, if {@code loss} is null
   *     or {@code y} not finite, or if the gradient is refused; the state is then unchanged
   */
  default double round(MemorySegment indices, MemorySegment values, int nnz, double y, Loss loss) {
    return roundThroughPredict(indices, values, nnz, y, loss, null, 0);
  }

  /**
   * {@link #round(MemorySegment, MemorySegment, int, double, Loss)}, also writing the round's
   * progressive loss {@code loss.value(y, yhat)} to {@code losses[at]}, bit for bit, computed with
   * the derivative ({@link Loss#derivativeAndValue}: one {@code exp} for both under the logistic
   * loss, where calling {@link Loss#value} on the returned {@code yhat} takes a second). For a
   * trainer with its own row format that reports the progressive loss, as {@link #rounds} does with
   * its {@code losses}.
   *
   * <p>This default calls {@link #predictSparse} and {@link #update}; the library's optimizers run
   * their fused round.
   *
   * @throws IllegalArgumentException as {@link #round(MemorySegment, MemorySegment, int, double,
   *     Loss)}, or if {@code losses} is null or {@code at} outside it (then nothing has run); a
   *     refused gradient leaves the state unchanged, with {@code losses[at]} written
   */
  default double round(
      MemorySegment indices,
      MemorySegment values,
      int nnz,
      double y,
      Loss loss,
      double[] losses,
      int at) {
    RoundBlocks.checkSlot(losses, at);
    return roundThroughPredict(indices, values, nnz, y, loss, losses, at);
  }

  /**
   * The defaults' round on the caller's row: {@link #predictSparse}, then {@link #update} with the
   * derivative, and with {@code losses} (not null) the loss into {@code losses[at]}.
   */
  private double roundThroughPredict(
      MemorySegment indices,
      MemorySegment values,
      int nnz,
      double y,
      Loss loss,
      double[] losses,
      int at) {
    if (loss == null || !Double.isFinite(y)) {
      throw new IllegalArgumentException(
          "round needs a loss and a finite label, got " + loss + " and " + y);
    }
    double yhat = predictSparse(indices, values, nnz);
    update(
        losses == null ? loss.derivative(y, yhat) : loss.derivativeAndValue(y, yhat, losses, at));
    return yhat;
  }

  /**
   * Rounds ({@link #round}) on rows {@code order[from]}, ..., {@code order[to - 1]} of {@code
   * rows}, in that order: the {@code k}-th of them takes label {@code y[k]}, writes its {@code
   * yhat} to {@code yhat[k]} and, if {@code losses} is not null, its progressive loss {@code
   * loss.value(y[k], yhat[k])} to {@code losses[k]}. The same state and the same bits as those
   * rounds one by one. One call per block of rows lets the library check the block once and run the
   * rounds in one compiled loop, and the loss shares its work with the derivative ({@link
   * Loss#derivativeAndValue}); {@code OnlineTrainer} trains sparse rows this way.
   *
   * <p>This default calls {@link #round} per row.
   *
   * @param losses where the progressive losses go, or {@code null} for none
   * @throws IllegalArgumentException if an argument but {@code losses} is null, the range is not
   *     within {@code order}, {@code y}, {@code yhat} or {@code losses} is shorter than the range,
   *     a row number is outside {@code rows}, or the rows do not fit this optimizer; no round has
   *     run
   * @throws RefusedRoundException if a round is refused (see {@link #round}): the rounds before it
   *     ran, their slots are written, and {@link RefusedRoundException#position()} says which one
   *     (its own {@code losses} slot may be written, its {@code yhat} slot is not)
   */
  default void rounds(
      SparseRows rows,
      int[] order,
      int from,
      int to,
      double[] y,
      Loss loss,
      double[] yhat,
      double[] losses) {
    RoundBlocks.check(rows, order, from, to, y, yhat, losses);
    for (int q = from; q < to; q++) {
      try {
        yhat[q - from] = round(rows, order[q], y[q - from], loss);
      } catch (IllegalArgumentException e) {
        throw new RefusedRoundException(q, e);
      }
      if (losses != null) {
        losses[q - from] = loss.value(y[q - from], yhat[q - from]);
      }
    }
  }

  /**
   * Writes the current weights (read-out per ALGORITHMS.md) into {@code into} ({@code d} elements).
   */
  void readWeights(MemorySegment into);

  /** Returns every buffer and scalar to its initial value. */
  void reset();

  /**
   * Frees the state if this optimizer owns its arena; later calls throw {@link
   * IllegalStateException}.
   */
  @Override
  void close();
}
