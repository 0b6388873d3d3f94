import java.io.IOException;
import java.nio.file.Path;
import org.onlinekernels.bench.workload.LibSvmText;
import org.onlinekernels.bench.workload.SyntheticStream;
import org.onlinekernels.data.SparseDataset;

/**
 * Writes the workload benchmark's Zipf stream ({@code zipf:20:40}: {@link SyntheticStream} with
 * d = 2^20, 40 distinct nonzeros per row, Zipf s = 1.1 ranks hashed over the table, values in
 * {0.25, ..., 2}, labels from a sparse true model with 5 % noise, {@link SyntheticStream#SEED}) as
 * LIBSVM text ({@link LibSvmText}), so that the C contender and the command line read the same
 * rows the benchmark generates in memory ({@code Workload.load("zipf:20:40", rows * 40, ...)}).
 *
 * <p>Run as a single-file program on the bench module's classes and the library's (run.sh does it):
 * {@code java -cp bench/target/classes:library/target/classes bench/c/contender/SyntheticSvm.java OUT [ROWS
 * [LOG2D NNZ]]} (ROWS default 200,000; LOG2D and NNZ give the Zipf stream over d = 2^LOG2D with NNZ
 * nonzeros per row instead, as {@code run.sh incache} writes them).
 */
public final class SyntheticSvm {
  public static void main(String[] args) throws IOException {
    Path out = Path.of(args[0]);
    int rows = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
    int log2d = args.length > 2 ? Integer.parseInt(args[2]) : 20;
    int nnz = args.length > 3 ? Integer.parseInt(args[3]) : 40;
    SparseDataset s = new SyntheticStream(1 << log2d, nnz, true, rows, SyntheticStream.SEED).generate();
    LibSvmText.write(s, out);
    System.out.println(out + ": " + s.size() + " rows, d = " + s.dimension() + ", " + s.totalNonZeros() + " nonzeros");
  }
}
