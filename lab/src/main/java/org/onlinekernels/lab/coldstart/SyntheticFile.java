package org.onlinekernels.lab.coldstart;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.onlinekernels.bench.workload.LibSvmText;
import org.onlinekernels.bench.workload.SyntheticStream;
import org.onlinekernels.data.SparseDataset;

/**
 * Writes the cold-start benchmark's sparse synthetic file: 5,000 rows of the workload benchmark's
 * Zipf stream ({@code d = 2^20}, 40 nonzeros per row, {@link SyntheticStream#SEED}), in LIBSVM text
 * (1-based indices, values written exactly), so that the command line, the library and the
 * hand-written loop read the same bytes. The threads studies (lab/scripts/threads) write the same
 * stream at other lengths with its {@link #main}.
 */
public final class SyntheticFile {
  /** Rows of the file. */
  public static final int ROWS = 5_000;

  /** File name inside {@code DIR/data/}. */
  public static final String NAME = "synthetic_zipf_5000.svm";

  private SyntheticFile() {}

  /**
   * {@code SyntheticFile FILE [ROWS]}: writes {@code ROWS} rows (default {@value #ROWS}) of the
   * stream to {@code FILE} unless it exists; prints its path.
   */
  public static void main(String[] args) throws IOException {
    int rows = args.length > 1 ? Integer.parseInt(args[1]) : ROWS;
    System.out.println(write(Path.of(args[0]), rows));
  }

  /**
   * Writes the cold-start file under {@code dir/data/} (once; an existing file is kept) and returns
   * its path.
   */
  public static Path write(Path dir) throws IOException {
    return write(dir.resolve("data").resolve(NAME), ROWS);
  }

  /** Writes {@code rows} rows of the stream to {@code file} unless it exists; returns its path. */
  public static Path write(Path file, int rows) throws IOException {
    if (Files.exists(file)) {
      return file;
    }
    SparseDataset s = new SyntheticStream(1 << 20, 40, true, rows, SyntheticStream.SEED).generate();
    return LibSvmText.write(s, file);
  }
}
