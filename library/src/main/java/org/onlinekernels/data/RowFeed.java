package org.onlinekernels.data;

import java.io.IOException;

/**
 * A source of labelled sparse rows, one {@link RowBlock} at a time: what an online trainer trains
 * from without holding the data ({@code OnlineTrainer.fit(RowSource, ...)}). A feed may read a
 * file, a socket, a message queue or a generator; it decides the rows' order (wrap it in a {@link
 * ShuffleFeed} to shuffle within a bounded buffer) and how many rows it holds at once, which is
 * what bounds the memory a run takes beside the model.
 *
 * <p>The caller owns the block: {@link #next} clears it and fills it with the next rows, so a feed
 * that reuses one block per call allocates nothing per row. Bad input is the feed's to refuse (an
 * {@link IOException} or {@link IllegalArgumentException} naming the row), or the block's: {@link
 * RowBlock#add} refuses rows that are not sorted, finite sparse rows.
 *
 * <p>A feed is used by one thread at a time; {@link #close} frees what it holds (threads, files).
 */
public interface RowFeed extends AutoCloseable {
  /**
   * Clears {@code block} and fills it with the next rows, at least one, in the feed's order.
   *
   * @return false when the feed has ended (the block is then empty)
   * @throws IOException if the rows cannot be read, or the input is malformed
   */
  boolean next(RowBlock block) throws IOException;

  /**
   * The fraction of the input consumed so far, in {@code [0, 1]}, or {@code NaN} when it is not
   * known (standard input, a socket): a trainer uses it to estimate the time a run has ahead.
   */
  default double progress() {
    return Double.NaN;
  }

  /** Frees what the feed holds; the default does nothing. */
  @Override
  default void close() throws IOException {}

  /**
   * The rows of {@code data} in their order, {@code blockRows} per block, with ids {@code 0..n-1}.
   *
   * @throws IllegalArgumentException if {@code data} is null or {@code blockRows < 1}
   */
  static RowFeed of(SparseDataset data, int blockRows) {
    return new DatasetFeed(data, blockRows);
  }

  /** The rows of {@code data} in their order, {@link RowBlock#DEFAULT_ROWS} per block. */
  static RowFeed of(SparseDataset data) {
    return of(data, RowBlock.DEFAULT_ROWS);
  }
}
