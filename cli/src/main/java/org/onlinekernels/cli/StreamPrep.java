package org.onlinekernels.cli;

import java.io.IOException;
import java.util.BitSet;
import org.onlinekernels.data.RowBlock;
import org.onlinekernels.data.RowFeed;
import org.onlinekernels.trainer.Datasets;

/**
 * One pass of {@code train}'s stream, made ready for the trainer, in file order: every label mapped
 * ({@link LabelMap}) and checked against the model (binary {@code +1/-1}, or class numbers below
 * its {@code K}), every row scaled to unit norm with {@code --normalize}, and with {@code
 * --holdout-period N} the held-out rows taken out of the stream and scored, each at its place: the
 * blocks end before a held-out row, and it is scored when the trainer asks for the next block, with
 * the model trained on exactly the rows before it (through a shuffle buffer: the rows the buffer
 * has given by then). A refused label is an error naming the file and the line (or the example, for
 * rows read back from a cache).
 */
final class StreamPrep implements RowFeed {
  /** Scores a held-out row with the model as it stands. */
  @FunctionalInterface
  interface HeldOut {
    /** The row {@code idx, val [s, e)}, label {@code y} (mapped), file row {@code id}. */
    void score(int[] idx, double[] val, int s, int e, double y, long id);
  }

  private final RowFeed source;
  private final String name;
  private final LabelFit labels;
  private final boolean normalize;
  private final Holdout holdout;
  private final HeldOut scorer;
  private final BitSet seen;
  private final RowBlock in = new RowBlock();
  private int at;

  /**
   * @param source the pass's rows, labels as parsed (a text input checks them itself, {@link
   *     StreamInput#expect}, so that a refusal names the line; rows read back from a cache are
   *     checked here, naming the example)
   * @param labels the labels the model takes
   * @param holdout with {@code scorer}: held-out rows; both null without
   * @param seen receives every index of a training row (LIBSVM {@code --invert-hash}), or null
   */
  StreamPrep(
      RowFeed source,
      String name,
      LabelFit labels,
      boolean normalize,
      Holdout holdout,
      HeldOut scorer,
      BitSet seen) {
    this.source = source;
    this.name = name;
    this.labels = labels;
    this.normalize = normalize;
    this.holdout = holdout;
    this.scorer = scorer;
    this.seen = seen;
  }

  @Override
  public boolean next(RowBlock block) throws IOException {
    block.clear();
    while (!block.isFull()) {
      if (at >= in.size()) {
        at = 0;
        if (!source.next(in)) {
          break;
        }
        prepare(in);
      }
      if (holdout != null && holdout.held(in.id(at))) {

        int s = in.rowStart(at);
        scorer.score(in.indexArray(), in.valueArray(), s, in.rowEnd(at), in.label(at), in.id(at));
        at++;
        continue;
      }
      block.append(in, at++);
    }
    return !block.isEmpty();
  }

  /** Maps and checks the labels of {@code b}, normalizes its rows, notes its indices. */
  private void prepare(RowBlock b) throws IOException {
    int[] start = b.startArray();
    for (int r = 0; r < b.size(); r++) {
      double y = labels.map(b.label(r));
      if (Double.isNaN(y)) {
        throw new IOException(
            name + ": example " + (b.id(r) + 1) + " " + labels.problem(b.label(r)));
      }
      b.setLabel(r, y);
      if (normalize) {
        Datasets.normalize(b.valueArray(), start[r], start[r + 1] - start[r]);
      }
      if (seen != null && (holdout == null || !holdout.held(b.id(r)))) {
        for (int j = start[r]; j < start[r + 1]; j++) {
          seen.set(b.indexArray()[j]);
        }
      }
    }
  }

  @Override
  public double progress() {
    return source.progress();
  }

  @Override
  public void close() throws IOException {
    source.close();
  }
}
