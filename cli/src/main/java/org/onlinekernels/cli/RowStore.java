package org.onlinekernels.cli;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.onlinekernels.data.RowBlock;
import org.onlinekernels.data.RowFeed;
import org.onlinekernels.data.SparseDataset;

/**
 * Rows of a stream held in memory, block by block as they came: the rows {@code train} reads ahead
 * (up to its shuffle buffer) to decide whether the data fits in memory, and what it decides the
 * labels from. Replayed as a feed ({@link #feed}), followed by the rest of the stream if any, or
 * built into a data set when the whole input is here ({@link #dataset}).
 */
final class RowStore {
  private final List<RowBlock> blocks = new ArrayList<>();
  private long rows;
  private boolean complete;

  /**
   * Reads {@code source} until it ends or more than {@code limit} rows are held; {@code sink} (may
   * be null) sees every block read.
   *
   * @return whether the source ended (the store holds all its rows, at most {@code limit})
   */
  boolean fill(RowFeed source, long limit, BlockSink sink) throws IOException {
    while (rows <= limit) {
      RowBlock b = new RowBlock();
      if (!source.next(b)) {
        complete = true;
        return true;
      }
      if (sink != null) {
        sink.accept(b);
      }
      blocks.add(b);
      rows += b.size();
    }
    return false;
  }

  /** Receives each block read. */
  @FunctionalInterface
  interface BlockSink {
    /** A block of the stream. */
    void accept(RowBlock block) throws IOException;
  }

  /** Gives every block held, in order, to {@code sink}. */
  void forEach(BlockSink sink) throws IOException {
    for (RowBlock b : blocks) {
      sink.accept(b);
    }
  }

  /** The rows held. */
  long rows() {
    return rows;
  }

  /** Whether the store holds the whole input. */
  boolean complete() {
    return complete;
  }

  /** Label {@code i} of the rows held, in order. */
  double label(long i) {
    for (RowBlock b : blocks) {
      if (i < b.size()) {
        return b.label((int) i);
      }
      i -= b.size();
    }
    throw new IndexOutOfBoundsException("row " + i + " beyond the " + rows + " held");
  }

  /** The labels of the rows held, in order. */
  double[] labels() {
    double[] y = new double[(int) rows];
    int at = 0;
    for (RowBlock b : blocks) {
      System.arraycopy(b.labelArray(), 0, y, at, b.size());
      at += b.size();
    }
    return y;
  }

  /** The largest index of the rows held, or -1. */
  int maxIndex() {
    int m = -1;
    for (RowBlock b : blocks) {
      int[] start = b.startArray();
      for (int r = 0; r < b.size(); r++) {
        if (start[r + 1] > start[r]) {
          m = Math.max(m, b.indexArray()[start[r + 1] - 1]);
        }
      }
    }
    return m;
  }

  /** The rows held as a data set of at least {@code minDimension}, labels as they are. */
  SparseDataset dataset(int minDimension) {
    SparseDataset.Builder d = new SparseDataset.Builder().minDimension(minDimension);
    int[] idx = new int[16];
    double[] val = new double[16];
    for (RowBlock b : blocks) {
      for (int r = 0; r < b.size(); r++) {
        int s = b.rowStart(r);
        int n = b.nnz(r);
        if (idx.length < n) {
          idx = new int[n];
          val = new double[n];
        }
        System.arraycopy(b.indexArray(), s, idx, 0, n);
        System.arraycopy(b.valueArray(), s, val, 0, n);
        d.addRow(b.label(r), idx, val, n);
      }
    }
    return d.build();
  }

  /**
   * The rows held, then those of {@code rest} (null: none), as one feed, once: the blocks are
   * handed over as they are given, and the store is empty after; {@code rest} is closed with the
   * feed.
   */
  RowFeed feed(RowFeed rest) {
    return new RowFeed() {
      private int next;
      private boolean collected;

      @Override
      public boolean next(RowBlock block) throws IOException {
        if (next < blocks.size()) {
          block.exchange(blocks.get(next));
          blocks.set(next++, null);
          return true;
        }
        if (rest == null) {
          block.clear();
          return false;
        }
        if (!collected && !blocks.isEmpty()) {
          // The rows read ahead are garbage now, in the old generation (they outlived the young
          // one): their pages are for what comes later (the model's read-out).
          collected = true;
          blocks.clear();
          HeapRelease.now();
        }
        return rest.next(block);
      }

      @Override
      public double progress() {
        return rest == null ? (double) next / Math.max(1, blocks.size()) : rest.progress();
      }

      @Override
      public void close() throws IOException {
        if (rest != null) {
          rest.close();
        }
      }
    };
  }
}
