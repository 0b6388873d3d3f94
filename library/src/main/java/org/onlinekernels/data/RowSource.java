package org.onlinekernels.data;

import java.io.IOException;

/**
 * Opens the passes of a run over a stream of rows: {@link #open} is called once per epoch, and its
 * feed closed at the end of the pass. A one-pass source returns its one feed; a source of several
 * passes reads its input again (or a cache of it) for each.
 */
@FunctionalInterface
public interface RowSource {
  /**
   * A feed of the rows of pass {@code epoch} (1-based).
   *
   * @throws IOException if the input cannot be opened
   */
  RowFeed open(int epoch) throws IOException;

  /** The same rows for every pass: the rows of {@code data} in their order. */
  static RowSource of(SparseDataset data) {
    if (data == null) {
      throw new IllegalArgumentException("data must not be null");
    }
    return epoch -> RowFeed.of(data);
  }
}
