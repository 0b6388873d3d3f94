import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.onlinekernels.bench.workload.SyntheticStream;
import org.onlinekernels.data.SparseDataset;

/**
 * Writes the workload benchmark's Zipf stream ({@code zipf:20:40}: {@link SyntheticStream} with
 * d = 2^20, 40 distinct nonzeros per row, Zipf s = 1.1 ranks hashed over the table, values in
 * {0.25, ..., 2}, labels from a sparse true model with 5 % noise, {@link SyntheticStream#SEED}) as
 * LIBSVM text, so that the C contender and the command line read the same rows the benchmark
 * generates in memory ({@code Workload.load("zipf:20:40", rows * 40, ...)}). The format is that of
 * bench/.../coldstart/SyntheticFile (1-based indices, labels +1/-1, values by Double.toString,
 * which parse back exactly).
 *
 * <p>Run as a single-file program on the test classpath (run.sh does it):
 * {@code java -cp target/test-classes:target/classes bench/c/contender/SyntheticSvm.java OUT [ROWS]}
 * (ROWS default 200,000). The file is written to OUT.tmp and renamed.
 */
public final class SyntheticSvm {
  public static void main(String[] args) throws IOException {
    Path out = Path.of(args[0]);
    int rows = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
    SparseDataset s = new SyntheticStream(1 << 20, 40, true, rows, SyntheticStream.SEED).generate();
    Path tmp = out.resolveSibling(out.getFileName() + ".tmp");
    try (BufferedWriter w = Files.newBufferedWriter(tmp)) {
      int[] idx = s.indices();
      double[] val = s.values();
      for (int r = 0; r < s.size(); r++) {
        w.write(s.label(r) > 0 ? "+1" : "-1");
        for (int j = s.rowStart(r); j < s.rowEnd(r); j++) {
          w.write(' ');
          w.write(Integer.toString(idx[j] + 1));
          w.write(':');
          w.write(Double.toString(val[j]));
        }
        w.write('\n');
      }
    }
    Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
    System.out.println(out + ": " + s.size() + " rows, d = " + s.dimension() + ", " + s.totalNonZeros() + " nonzeros");
  }
}
