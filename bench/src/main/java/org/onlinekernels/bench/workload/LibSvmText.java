package org.onlinekernels.bench.workload;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.onlinekernels.data.SparseDataset;

/**
 * Writes binary ({@code +1/-1}) sparse rows as LIBSVM text, so that the command line, the C
 * contender and the library read the same rows: 1-based indices, values by {@code Double.toString}
 * (which parses back to the same double). Written to a temporary sibling and moved into place, so a
 * reader never sees half a file.
 */
public final class LibSvmText {
  private LibSvmText() {}

  /** Writes {@code data} to {@code file} (replacing it) and returns {@code file}. */
  public static Path write(SparseDataset data, Path file) throws IOException {
    if (!data.isBinary()) {
      throw new IllegalArgumentException(
          "LibSvmText writes +1/-1 labels only; this data set has classes");
    }
    Files.createDirectories(file.toAbsolutePath().getParent());
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    int[] idx = data.indices();
    double[] val = data.values();
    try (BufferedWriter w = Files.newBufferedWriter(tmp)) {
      for (int r = 0; r < data.size(); r++) {
        w.write(data.label(r) > 0 ? "+1" : "-1");
        for (int j = data.rowStart(r); j < data.rowEnd(r); j++) {
          w.write(' ');
          w.write(Integer.toString(idx[j] + 1));
          w.write(':');
          w.write(Double.toString(val[j]));
        }
        w.write('\n');
      }
    }
    return Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
  }
}
