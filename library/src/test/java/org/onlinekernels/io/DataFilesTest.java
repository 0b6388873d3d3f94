package org.onlinekernels.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.onlinekernels.data.SparseDataset;

/**
 * Reads every real file of the repository's data folder and checks it against the table of {@code
 * data/README.md} (n, largest index, label counts, nnz range; the total nnz values were counted
 * independently with awk) and against {@code data/SHA256SUMS}. A missing file fails the test with
 * its path.
 */
class DataFilesTest {

  /** The data folder: the system property Maven sets, else {@code ../data} from a module. */
  private static Path dataDir() {
    return Path.of(System.getProperty("onlinekernels.data", "../data"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "breast_cancer.svm      |   569 |    30 | -1:357 +1:212 | 16992 | 24 | 30",
        "heart_scale.svm        |   270 |    13 | -1:150 +1:120 | 3378 | 11 | 13",
        "digits.svm             |  1797 |    64 | 0:178 1:182 2:177 3:183 4:181 5:182 6:181 7:179 8:174 9:180 | 58736 | 16 | 42",
        "shuttle.train.svm      | 38667 |     9 | 0:30374 1:31 2:116 3:5932 4:2201 5:5 6:8 | 272498 | 5 | 9",
        "shuttle.test.svm       | 19333 |     9 | 0:15212 1:19 2:55 3:2971 4:1066 5:5 6:5 | 136309 | 5 | 9",
        "austen_lines.train.svm | 41519 | 12549 | 0:7104 1:7074 2:8985 3:9155 4:4411 5:4790 | 459464 | 0 | 18",
        "austen_lines.test.svm  | 20760 | 12548 | 0:3492 1:3647 2:4425 3:4528 4:2248 5:2420 | 227891 | 0 | 18",
      })
  void readsDataFile(
      String name, int n, int maxIndex, String labelCounts, long nnz, int minRow, int maxRow)
      throws IOException {
    Path file = dataDir().resolve(name);
    long t0 = System.nanoTime();
    SparseDataset ds = LibSvmReader.read(file);
    long t1 = System.nanoTime();
    System.out.printf("read %-24s %7.1f ms%n", name, (t1 - t0) / 1e6);

    assertEquals(n, ds.size(), "n");
    assertEquals(maxIndex, ds.dimension(), "dimension = largest index");
    assertEquals(nnz, ds.totalNonZeros(), "total nnz");
    boolean binary = labelCounts.startsWith("-1");
    assertEquals(binary, ds.isBinary(), "binary");
    assertEquals(labelCounts.split(" ").length, ds.numClasses(), "classes");

    TreeMap<Double, Integer> counts = new TreeMap<>();
    int lo = Integer.MAX_VALUE;
    int hi = 0;
    for (int r = 0; r < ds.size(); r++) {
      counts.merge(ds.label(r), 1, Integer::sum);
      lo = Math.min(lo, ds.nnz(r));
      hi = Math.max(hi, ds.nnz(r));
    }
    StringBuilder sb = new StringBuilder();
    counts.forEach(
        (y, c) ->
            sb.append(sb.isEmpty() ? "" : " ")
                .append(binary ? (y > 0 ? "+1" : "-1") : Integer.toString(y.intValue()))
                .append(':')
                .append(c));
    assertEquals(labelCounts, sb.toString(), "label counts");
    assertEquals(minRow, lo, "min nnz per row");
    assertEquals(maxRow, hi, "max nnz per row");
  }

  @Test
  void testFileTakesTheTrainingDimension() throws IOException {
    Path dir = dataDir();
    Path train = dir.resolve("austen_lines.train.svm");
    Path test = dir.resolve("austen_lines.test.svm");
    SparseDataset tr = LibSvmReader.read(train);
    SparseDataset te = LibSvmReader.read(test, tr.dimension());
    assertEquals(12549, te.dimension());
  }

  @Test
  void heartScaleFirstRowIsExact() throws IOException {
    Path file = dataDir().resolve("heart_scale.svm");
    SparseDataset ds = LibSvmReader.read(file);
    // First line: "+1 1:0.708333 2:1 3:1 4:-0.320755 ..." (with a trailing space).
    assertEquals(1.0, ds.label(0));
    double[] row = ds.denseRow(0, null);
    assertEquals(0.708333, row[0]);
    assertEquals(1.0, row[1]);
    assertEquals(-0.320755, row[3]);
  }

  /**
   * Every data file is listed in {@code SHA256SUMS} with its content's digest, and the README's
   * table quotes the same digests: the files, the list and the provenance table cannot drift.
   */
  @Test
  void everyFileMatchesItsListedDigest() throws IOException, NoSuchAlgorithmException {
    Path dir = dataDir();
    String readme = Files.readString(dir.resolve("README.md"));
    TreeSet<String> listed = new TreeSet<>();
    for (String line : Files.readAllLines(dir.resolve("SHA256SUMS"))) {
      String[] f = line.split(" +\\*?", 2);
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      try (InputStream in = new DigestInputStream(Files.newInputStream(dir.resolve(f[1])), sha)) {
        in.transferTo(OutputStream.nullOutputStream());
      }
      assertEquals(f[0], HexFormat.of().formatHex(sha.digest()), "sha256 of " + f[1]);
      assertTrue(readme.contains("`" + f[0] + "`"), "data/README.md quotes the sha256 of " + f[1]);
      listed.add(f[1]);
    }
    List<String> present;
    try (var s = Files.list(dir)) {
      present =
          s.map(x -> x.getFileName().toString())
              .filter(n -> !n.equals("README.md") && !n.equals("SHA256SUMS"))
              .sorted()
              .toList();
    }
    assertEquals(
        List.copyOf(listed), present, "files of the data folder = files listed in SHA256SUMS");
  }
}
