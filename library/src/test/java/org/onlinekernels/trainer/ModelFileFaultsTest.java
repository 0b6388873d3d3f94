package org.onlinekernels.trainer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * Issue 26, model files: weights at the ends of double's range predicted NaN on a row of moderate
 * values; CRLF line ends said "has model format version 2; this library reads version 2"; {@code
 * /dev/zero} and a model larger than the heap ran for a minute into "out of memory" (the loader
 * held about 26 bytes per byte of the file).
 */
class ModelFileFaultsTest {
  @TempDir Path dir;

  /** {@code body} with its checksum line: a file that passes the checksum, whatever it says. */
  static byte[] sealed(String body) {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    CRC32C crc = new CRC32C();
    crc.update(b);
    return (body + String.format(Locale.ROOT, "crc32c %08x\n", crc.getValue()))
        .getBytes(StandardCharsets.UTF_8);
  }

  static String header(String type, long d, long outputs) {
    return "online-kernels-model 2\nalgorithm ogd\nparams\ntype "
        + type
        + "\nloss logistic\nd "
        + d
        + "\noutputs "
        + outputs
        + "\nclasses "
        + (outputs == 1 ? "binary" : Long.toString(outputs))
        + "\n";
  }

  private static double score(LinearModel m, double... x) {
    int[] idx = new int[x.length];
    for (int i = 0; i < x.length; i++) {
      idx[i] = i;
    }
    double[] out = new double[m.outputs()];
    m.scores(idx, x, 0, x.length, out);
    return out[0];
  }

  @Test
  void weightsAtTheEndsOfDoublesRangeScoreFinitely() throws IOException {
    Path f =
        Files.write(
            dir.resolve("edge.model"), sealed(header("double", 3, 1) + "w 1e308 -1e308 1\n"));
    LinearModel m = LinearModel.load(f);
    assertEquals(0.0, score(m, 2, 2), "the terms cancel exactly");
    assertEquals(Double.MAX_VALUE, score(m, 3, 1), "2e308 saturates");
    assertEquals(-Double.MAX_VALUE, score(m, -1, 3));
    assertEquals(1e308, score(m, 3, 2), "3e308 - 2e308 is a double");
    assertEquals(0.5, score(m, 2, 2, 0.5), "the large terms cancel, the small one keeps its value");
    SparseDataset rows =
        SparseDataset.fromDense(new double[][] {{2, 2}, {3, 1}, {1, 3}}, new double[] {1, -1, 1});
    Metrics x = Metrics.evaluate(m, rows);
    assertTrue(Double.isFinite(x.meanLoss()), "logistic loss of saturated scores: " + x.meanLoss());
  }

  @Test
  void aControlCharacterInAnEchoedNameKeepsTheMessageOnOneLine() throws IOException {
    Path f =
        Files.write(
            dir.resolve("cr.model"),
            sealed(header("float", 1, 1).replace("loss logistic", "loss !\r!") + "w 1\n"));
    LinearModel.ModelFormatException e =
        assertThrows(LinearModel.ModelFormatException.class, () -> LinearModel.load(f));
    assertEquals(
        f + ":8: unknown loss '!\\u000d!'; valid names: logistic, hinge, absolute, squared",
        e.getMessage());
    assertEquals(1, e.getMessage().lines().count(), e.getMessage());
  }

  @Test
  void crlfLineEndsAreNamed() throws IOException {
    Path f = dir.resolve("crlf.model");
    new LinearModel(
            AlgorithmSpec.of("ogd"),
            ElementType.FLOAT,
            Loss.LOGISTIC,
            false,
            new double[][] {{1, 2}})
        .save(f);
    Files.writeString(f, Files.readString(f).replace("\n", "\r\n"));
    LinearModel.ModelFormatException e =
        assertThrows(LinearModel.ModelFormatException.class, () -> LinearModel.load(f));
    assertEquals(
        f
            + ":1: has CRLF (Windows) line ends, as a text-mode copy or a checkout with Git's autocrlf"
            + " makes them; the model format has LF line ends and its checksum is of those bytes: restore the file as"
            + " written (e.g. dos2unix; in Git, '*.model -text' in .gitattributes)",
        e.getMessage());
  }

  /**
   * In a child JVM: the loader that read all of /dev/zero died of "out of memory", which must not
   * take the test JVM.
   */
  @Test
  void devZeroIsRefusedAtOnce() throws Exception {
    List<String> out = probe(Path.of("/dev/zero"));
    assertEquals(1, out.size(), out.toString());
    assertTrue(
        out.get(0).startsWith("error: /dev/zero:1: not an online-kernels model"), out.toString());
  }

  @Test
  void weightsBeyondTheHeapAreRefusedBeforeTheyAreRead() throws IOException {
    Path f =
        Files.write(
            dir.resolve("huge.model"), sealed(header("double", 2_000_000_000, 50) + "w 1\n"));
    LinearModel.ModelFormatException e =
        assertThrows(LinearModel.ModelFormatException.class, () -> LinearModel.load(f));
    assertTrue(
        e.getMessage()
            .startsWith(
                f
                    + ":7: d = 2000000000 and 50 outputs are 100000000000 weights, "
                    + "762939 MiB of heap; this JVM may use "),
        e.getMessage());
    assertTrue(e.getMessage().endsWith(" MiB: give Java more memory (-Xmx)"), e.getMessage());
  }

  /** 2^22 weights (32 MiB as doubles, a 16 MiB file) load in a 96 MiB heap. */
  @Tag("long")
  @Test
  void aLargeModelLoadsInLittleMoreMemoryThanItsWeights() throws Exception {
    Path f = dir.resolve("large.model");
    int d = 1 << 22;
    StringBuilder w = new StringBuilder(header("float", d, 1)).append('w');
    for (int i = 0; i < d; i++) {
      w.append(i % 7 == 0 ? " -1.5" : " 0.0");
    }
    Files.write(f, sealed(w.append('\n').toString()));
    assertEquals(List.of(Integer.toString(d)), probe(f));
  }

  /** What {@link ModelLoadProbe} prints for {@code f} in a 96 MiB heap (JVM warnings left out). */
  private static List<String> probe(Path f) throws Exception {
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx96m",
                "--add-modules",
                "jdk.incubator.vector",
                "-cp",
                System.getProperty("java.class.path"),
                ModelLoadProbe.class.getName(),
                f.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), out);
    return out.lines().filter(l -> !l.startsWith("WARNING")).toList();
  }
}
