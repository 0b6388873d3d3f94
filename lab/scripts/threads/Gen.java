import java.nio.file.Path;
import org.onlinekernels.bench.workload.LibSvmText;
import org.onlinekernels.bench.workload.SyntheticStream;
/** Writes the Zipf stream: the workload benchmark's generator, d = 2^20, 40 nnz, ROWS rows. */
public class Gen {
  public static void main(String[] a) throws Exception {
    int rows = Integer.parseInt(a[0]);
    System.out.println(LibSvmText.write(
        new SyntheticStream(1 << 20, 40, true, rows, SyntheticStream.SEED).generate(), Path.of(a[1])));
  }
}
