package org.onlinekernels.cli;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.trainer.Datasets;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.OnlineTrainer;

/**
 * {@code train --holdout-period N}: rows {@code N, 2N, 3N, ...} of the file (1-based) are held out,
 * as in Vowpal Wabbit: never trained on, in any epoch, but scored as the run goes. After every
 * {@code N - 1} trained examples the next held-out row (in file order; all of them once per epoch)
 * is scored with the model as it stands, its read-out weights, which is what {@code --model} would
 * save at that moment; in one epoch in file order that is exactly the row's place in the stream.
 * The holdout loss is reported beside the progressive loss.
 *
 * <p>Scoring reads every output's weights out ({@code readWeights}, O(d) each), because the
 * library's public API has no read-out of a row's coordinates alone; the cost is one read-out per
 * {@code N - 1} examples (docs/CLI.md). Confined to the training thread.
 */
final class Holdout implements AutoCloseable {
  private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE_UNALIGNED;

  private final int period;
  private final SparseDataset training;
  private final SparseDataset heldOut;
  private final Loss loss;
  private final boolean multiclass;
  private final int outputs;
  private final Scoring scoring;
  private final Arena arena = Arena.ofConfined();

  /** The read-out weights, sized from the model at the first score (it may be wider than data). */
  private MemorySegment weights;

  private final ElementType type;
  private final double[] yhat;
  private double lossSum;
  private long scored;
  private long readOuts;
  private long readOutNanos;
  private long epochOfLastScore = -1;
  private int nextInEpoch;

  /**
   * Splits {@code data} into its training rows and its held-out rows.
   *
   * @param period {@code N >= 2}
   */
  Holdout(
      SparseDataset data,
      int period,
      ElementType type,
      Loss loss,
      boolean multiclass,
      int outputs,
      Scoring.Ties ties) {
    this.period = period;
    int n = data.size();
    int[] kept = new int[n - n / period];
    int[] out = new int[n / period];
    for (int r = 0, a = 0, b = 0; r < n; r++) {
      if ((r + 1) % period == 0) {
        out[b++] = r;
      } else {
        kept[a++] = r;
      }
    }
    this.training = Datasets.rows(data, kept);
    this.heldOut = Datasets.rows(data, out);
    this.type = type;
    this.loss = loss;
    this.multiclass = multiclass;
    this.outputs = outputs;
    this.scoring = new Scoring(ties, multiclass, null);
    this.yhat = new double[outputs];
  }

  /**
   * A holdout of a stream of dimension {@code d}: the stream's reader splits the rows ({@link
   * #held}) and has each held-out row scored ({@link #score}) at its place in the stream.
   */
  Holdout(
      int period,
      int d,
      ElementType type,
      Loss loss,
      boolean multiclass,
      int outputs,
      Scoring.Ties ties) {
    this.period = period;
    this.training = null;
    this.heldOut = null;
    this.type = type;
    this.loss = loss;
    this.multiclass = multiclass;
    this.outputs = outputs;
    this.scoring = new Scoring(ties, multiclass, null);
    this.weights = arena.allocate((long) d * type.bytes(), 64);
    this.yhat = new double[outputs];
  }

  /** Whether file row {@code id} (0-based) is held out. */
  boolean held(long id) {
    return (id + 1) % period == 0;
  }

  /** The rows trained on. */
  SparseDataset training() {
    return training;
  }

  /** {@code N}. */
  int period() {
    return period;
  }

  /** The file row (0-based) of row {@code r} of {@link #training()}. */
  long fileRow(long r) {
    return r + r / (period - 1);
  }

  /**
   * Called after every {@code N - 1} trained examples ({@code seen} in all, every epoch of {@link
   * #training()} counted): scores the next held-out row of the epoch, if any is left.
   */
  void at(long seen, OnlineTrainer trainer) {
    int n = training.size();
    if (n == 0 || heldOut.size() == 0) {
      return;
    }
    long epoch = (seen - 1) / n;
    if (epoch != epochOfLastScore) {
      epochOfLastScore = epoch;
      nextInEpoch = 0;
    }
    if (nextInEpoch < heldOut.size()) {
      score(trainer, nextInEpoch++, (int) epoch + 1);
    }
  }

  private void score(OnlineTrainer trainer, int row, int epoch) {
    score(
        trainer,
        heldOut.indices(),
        heldOut.values(),
        heldOut.rowStart(row),
        heldOut.rowEnd(row),
        heldOut.label(row),
        epoch,
        row);
  }

  /**
   * Scores the held-out row {@code idx, val [s, e)} with label {@code y} with the trainer's model
   * as it stands, in epoch {@code epoch} (1-based).
   */
  void score(
      OnlineTrainer trainer, int[] idx, double[] val, int s, int e, double y, int epoch, long row) {
    if (weights == null) {
      // The model's d, not the data's: --test or --initial may make the model wider.
      weights = arena.allocate((long) trainer.optimizer(0).dimension() * type.bytes(), 64);
    }
    for (int c = 0; c < outputs; c++) {
      long t0 = System.nanoTime();
      trainer.optimizer(c).readWeights(weights);
      readOutNanos += System.nanoTime() - t0;
      readOuts++;
      double sum = 0;
      for (int j = s; j < e; j++) {
        sum +=
            (type == ElementType.FLOAT
                    ? weights.getAtIndex(F, idx[j])
                    : weights.getAtIndex(D, idx[j]))
                * val[j];
      }
      yhat[c] = sum;
    }
    lossSum += Metrics.loss(loss, multiclass, y, yhat, outputs);
    scoring.accept(epoch, row, y, yhat, outputs);
    scored++;
  }

  /** Loss and error (the trainer's tie rule) of the scored held-out examples. */
  Metrics metrics() {
    return new Metrics(scored, scored == 0 ? Double.NaN : lossSum / scored, scoring.errorRate());
  }

  /**
   * What scoring cost, for the report: {@code K read-outs of D weights (O(d) each): S s of the
   * pass}, the time the trainer spent in them (the holdout's cost is paid there, and grows with
   * {@code --bits}, not with the rows scored).
   */
  String cost() {
    long d = weights == null ? 0 : weights.byteSize() / type.bytes();
    return String.format(
        java.util.Locale.ROOT,
        "%d read-outs of %d weights (O(d) each, d = the model's dimension): %.3f s of the pass",
        readOuts,
        d,
        readOutNanos / 1e9);
  }

  /** The scoring under the command line's tie rule (error, softmax log loss). */
  Scoring scoring() {
    return scoring;
  }

  @Override
  public void close() {
    arena.close();
  }
}
