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
 * hand-written loop read the same bytes.
 */
public final class SyntheticFile {
  /** Rows of the file. */
  public static final int ROWS = 5_000;

  /** File name inside {@code DIR/data/}. */
  public static final String NAME = "synthetic_zipf_5000.svm";

  private SyntheticFile() {}

  /**
   * {@code SyntheticFile DIR}: writes {@code DIR/data/synthetic_zipf_5000.svm} unless it exists.
   */
  public static void main(String[] args) throws IOException {
    System.out.println(write(Path.of(args[0])));
  }

  /**
   * Writes the file under {@code dir/data/} (once; an existing file is kept) and returns its path.
   */
  public static Path write(Path dir) throws IOException {
    Path file = dir.resolve("data").resolve(NAME);
    if (Files.exists(file)) {
      return file;
    }
    SparseDataset s = new SyntheticStream(1 << 20, 40, true, ROWS, SyntheticStream.SEED).generate();
    return LibSvmText.write(s, file);
  }
}
