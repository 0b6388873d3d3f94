package org.onlinekernels.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.onlinekernels.data.ReadAheadFeed;
import org.onlinekernels.data.RowFeed;
import org.onlinekernels.io.RowCache;

/**
 * How {@code train} reads a row cache back ({@code --epochs N}, {@code --cache}): decoded on a
 * thread of its own, beside the learner ({@link ReadAheadFeed}), as the parser threads read the
 * text in pass 1; the rows, their order and the refusals are the cache's.
 */
final class CacheReading {
  private CacheReading() {}

  /**
   * Whether the cache is read ahead: yes unless the system property {@code
   * onlinekernels.cache.readahead} is {@code false} (for measuring one way against the other).
   */
  static final boolean READ_AHEAD =
      !"false".equals(System.getProperty("onlinekernels.cache.readahead"));

  /**
   * The rows of the cache at {@code cache} if it holds the rows of {@code key}, read ahead.
   *
   * @throws IOException as {@link RowCache#open}: a stale or damaged cache is refused as there
   */
  static RowFeed open(Path cache, Map<String, String> key) throws IOException {
    RowFeed rows = RowCache.open(cache, key);
    return READ_AHEAD ? new ReadAheadFeed(rows, "row cache " + cache.getFileName()) : rows;
  }
}
