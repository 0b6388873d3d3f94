package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.codec.digest.MurmurHash3;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.onlinekernels.trainer.model.LinearModel;

/** {@code train --invert-hash} and {@code predict --audit}. */
class ReadableModelsTest {
  @TempDir Path dir;

  private static int h(String s, int seed) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    return MurmurHash3.hash32x86(b, 0, b.length, seed);
  }

  @Test
  void invertHashListsEveryFeatureSeenWithItsIndexSignAndWeight() throws IOException {
    StreamFiles.Parts p = StreamFiles.vw(dir, "i", 100, 0, 3, 4);
    Path inv = dir.resolve("inv.tsv");
    Path model = dir.resolve("m.model");
    CliRun r =
        CliRun.line(
            "train --data "
                + p.a()
                + " --bits 14 -q ab --invert-hash "
                + inv
                + " --model "
                + model);
    assertEquals(0, r.code(), r.err());
    LinearModel m = LinearModel.load(model);
    List<String> lines = Files.readAllLines(inv);
    assertTrue(lines.get(0).startsWith("# online-kernels invert-hash"), lines.get(0));
    Map<String, String[]> byName = new TreeMap<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split("\t");
      assertEquals(3 + 3, f.length, line);
      byName.put(f[0], f);
    }
    // Every plain and crossed feature of the first line, at the index its hash gives.
    String first = Files.readAllLines(p.a()).get(0);
    String w = first.split("\\|animal ")[1].split(" ")[0];
    String v = first.split("\\|b ")[1].split(":")[0];
    int hw = h(w, h("animal", 0));
    int hv = h(v, h("b", 0));
    for (Object[] e :
        new Object[][] {
          {"animal^" + w, hw},
          {"b^" + v, hv},
          {"animal^" + w + "*b^" + v, (VwRow.FNV_PRIME * hw) ^ hv}
        }) {
      String[] f = byName.get((String) e[0]);
      int hash = (Integer) e[1];
      assertEquals(Integer.toString(hash & ((1 << 14) - 1)), f[1], (String) e[0]);
      assertEquals(hash < 0 ? "-" : "+", f[2]);
      for (int k = 0; k < 3; k++) {
        assertEquals(Float.toString((float) m.weights()[k][Integer.parseInt(f[1])]), f[3 + k]);
      }
    }
    assertTrue(byName.keySet().stream().anyMatch(n -> n.startsWith("^x")), "the default namespace");
  }

  /**
   * Names that differ only in bytes that are not UTF-8 are hashed apart, and stay apart by name: a
   * byte that is not UTF-8 is written \xHH, a backslash \\ (finding B3 of issue #41: three such
   * features became one U+FFFD name with one index).
   */
  @Test
  void invertHashKeepsNamesApartThatDifferInBytesThatAreNotUtf8() throws IOException {
    Path f = dir.resolve("b.vw");
    byte[] line = "1 |a xQ xR xS y\\z \u00e9\n-1 |a xR\n".getBytes(StandardCharsets.UTF_8);
    line[6] = (byte) 0xe9; // x\xE9, x\xE8, x\xE7: not UTF-8
    line[9] = (byte) 0xe8;
    line[12] = (byte) 0xe7;
    line[line.length - 2] = (byte) 0xe8;
    Files.write(f, line);
    Path inv = dir.resolve("b.tsv");
    Path state = dir.resolve("b.okst");
    CliRun r =
        CliRun.line(
            "train --data " + f + " --bits 12 --invert-hash " + inv + " --save-state " + state);
    assertEquals(0, r.code(), r.err());
    List<String> lines = Files.readAllLines(inv);
    assertEquals(1 + 5, lines.size(), "one line per feature: " + lines);
    Map<String, String> index = new TreeMap<>();
    for (String l : lines.subList(1, 6)) {
      index.put(l.split("\t")[0], l.split("\t")[1]);
    }
    assertEquals(
        List.of("a^x\\xE7", "a^x\\xE8", "a^x\\xE9", "a^y\\\\z", "a^\u00e9"),
        List.copyOf(index.keySet()));
    int ns = h("a", 0);
    for (int c : new int[] {0xe7, 0xe8, 0xe9}) {
      int hash = MurmurHash3.hash32x86(new byte[] {'x', (byte) c}, 0, 2, ns);
      assertEquals(
          Integer.toString(hash & ((1 << 12) - 1)),
          index.get("a^x\\x" + Integer.toHexString(c).toUpperCase(java.util.Locale.ROOT)));
    }
    CliRun audit = CliRun.line("predict --model " + state + " --data " + f + " --audit");
    assertEquals(0, audit.code(), audit.err());
    assertTrue(audit.out().contains("\na^x\\xE8\t" + index.get("a^x\\xE8") + "\t"), audit.out());
  }

  @Test
  void invertHashOfLibsvmDataNamesTheFeatureNumbers() throws IOException {
    Path f = dir.resolve("l.svm");
    Files.writeString(f, "1 2:1 5:2\n-1 5:1\n");
    Path inv = dir.resolve("l.tsv");
    assertEquals(0, CliRun.line("train --data " + f + " --invert-hash " + inv).code());
    List<String> lines = Files.readAllLines(inv);
    assertEquals(3, lines.size(), lines.toString());
    assertTrue(lines.get(1).startsWith("2\t1\t+\t"), lines.get(1));
    assertTrue(lines.get(2).startsWith("5\t4\t+\t"), lines.get(2));
  }

  @Test
  void invertHashBadOutputIsRefusedBeforeTraining() throws IOException {
    Path f = dir.resolve("l.svm");
    Files.writeString(f, "1 2:1 5:2\n");
    CliRun.line("train --data " + f + " --invert-hash " + f)
        .assertError(2, "--invert-hash " + f + " is the --data file");
    Path nowhere = dir.resolve("none/inv.tsv");
    CliRun.line("train --data " + f + " --invert-hash " + nowhere)
        .assertError(1, "cannot write " + nowhere);
  }

  /**
   * Each audited contribution is weight * value, and summed in index order they are the prediction
   * exactly.
   */
  @Test
  void auditShowsEveryFeatureWeightAndContributionSummingToThePrediction() throws IOException {
    StreamFiles.Parts p = StreamFiles.vw(dir, "a", 80, 20, 0, 8);
    Path state = dir.resolve("a.okst");
    assertEquals(
        0, CliRun.line("train --data " + p.a() + " --bits 16 -q ab --save-state " + state).code());
    CliRun audit = CliRun.line("predict --model " + state + " --data " + p.b() + " --audit");
    assertEquals(0, audit.code(), audit.err());
    assertTrue(audit.err().contains("n = 20"), "the metrics go to stderr: " + audit.err());
    CliRun plain =
        CliRun.line(
            "predict --model " + state + " --data " + p.b() + " --out " + dir.resolve("p.txt"));
    assertEquals(0, plain.code(), plain.err());
    List<String> predictions = Files.readAllLines(dir.resolve("p.txt"));
    List<String> lines = audit.out().lines().toList();
    assertTrue(
        lines.get(0).startsWith("# feature\tindex\tvalue\tsign\tweight\tcontribution"),
        lines.get(0));
    int example = -1;
    Map<Integer, double[]> entries = new TreeMap<>();
    List<Double> sums = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      if (line.startsWith("example ")) {
        if (example >= 0) {
          sums.add(sum(entries));
        }
        example++;
        entries.clear();
        assertTrue(line.endsWith("prediction " + predictions.get(example)), line);
        continue;
      }
      String[] f = line.split("\t");
      double value = Double.parseDouble(f[2]);
      if (f[3].equals("-")) {
        value = -value;
      } else {
        assertEquals("+", f[3], line);
      }
      double weight = Float.parseFloat(f[4]); // a float model: its weights printed as floats
      assertEquals(Double.valueOf(weight * value), Double.valueOf(Double.parseDouble(f[5])), line);
      // Summed per index in reading order first, as the reader sums colliding features.
      entries.merge(
          Integer.parseInt(f[1]),
          new double[] {weight, value},
          (a, b) -> new double[] {a[0], a[1] + b[1]});
    }
    sums.add(sum(entries));
    assertEquals(20, sums.size());
    for (int k = 0; k < 20; k++) {
      assertEquals(
          Double.valueOf(Double.parseDouble(predictions.get(k))),
          Double.valueOf(sums.get(k)),
          "example " + (k + 1));
    }
  }

  private static double sum(Map<Integer, double[]> byIndex) {
    double s = 0;
    for (double[] wv : byIndex.values()) {
      s += wv[0] * wv[1];
    }
    return s;
  }

  @Test
  void auditOfLibsvmDataAndItsBadInput() throws IOException {
    Path f = dir.resolve("l.svm");
    Files.writeString(f, "1 2:1 5:2\n-1 5:1\n");
    Path model = dir.resolve("l.model");
    assertEquals(0, CliRun.line("train --data " + f + " --model " + model).code());
    CliRun a = CliRun.line("predict --model " + model + " --data " + f + " --audit");
    assertEquals(0, a.code(), a.err());
    assertTrue(a.out().contains("\n2\t1\t1\t+\t"), a.out());
    assertTrue(a.out().contains("\n5\t4\t2\t+\t"), a.out());
    CliRun.line("predict --model " + model + " --data " + f + " --audit --out -")
        .assertError(2, "--audit and --out - both write to standard output");
    assertFalse(a.out().isEmpty());
  }

  /**
   * A LIBSVM feature beyond the model's dimension, which scoring ignores, is listed with no weight
   * and a zero contribution (it used to end the run with an ArrayIndexOutOfBoundsException).
   */
  @Test
  void auditListsAFeatureBeyondTheModelAsIgnored() throws IOException {
    Path f = dir.resolve("l.svm");
    Files.writeString(f, "1 2:1 5:2\n-1 5:1\n");
    Path model = dir.resolve("l.model");
    assertEquals(0, CliRun.line("train --data " + f + " --model " + model).code());
    Path beyond = dir.resolve("beyond.svm");
    Files.writeString(beyond, "+1 2:0.5 20:1\n");
    CliRun a = CliRun.line("predict --model " + model + " --data " + beyond + " --audit");
    assertEquals(0, a.code(), a.err());
    assertTrue(a.out().contains("\n20\t19\t1\t+\t-\t0.0\n"), a.out());
    CliRun plain = CliRun.line("predict --model " + model + " --data " + beyond + " --out -");
    assertEquals(0, plain.code(), plain.err());
    double weight = LinearModel.load(model).weights()[0][1];
    assertTrue(a.out().contains("prediction " + plain.out().strip() + "\n2\t1\t0.5\t+\t"), a.out());
    assertTrue(a.out().contains("\t" + (weight * 0.5) + "\n"), a.out());
  }

  /**
   * With signed hashing the value column is the value as written and the hash's sign has its own
   * column (a feature of value 1 used to show "value -1"); the contribution is sign * value *
   * weight.
   */
  @Test
  void auditShowsTheValueAndTheHashSignApart() throws IOException {
    // Names whose hashes in namespace a have either sign.
    int ns = h("a", 0);
    String neg = null;
    String pos = null;
    for (int k = 0; neg == null || pos == null; k++) {
      String n = "f" + k;
      if (h(n, ns) < 0) {
        neg = neg == null ? n : neg;
      } else {
        pos = pos == null ? n : pos;
      }
    }
    Path f = dir.resolve("s.vw");
    Files.writeString(f, "1 |a " + neg + " " + pos + ":2\n-1 |a " + pos + "\n");
    Path model = dir.resolve("s.okst");
    assertEquals(0, CliRun.line("train --data " + f + " --bits 12 --save-state " + model).code());
    CliRun a = CliRun.line("predict --model " + model + " --data " + f + " --audit");
    assertEquals(0, a.code(), a.err());
    String[] n = line(a.out(), "a^" + neg + "\t");
    String[] p = line(a.out(), "a^" + pos + "\t");
    assertEquals("1", n[2], "the value as written");
    assertEquals("-", n[3], "the hash's sign");
    assertEquals("2", p[2]);
    assertEquals("+", p[3]);
    assertEquals(
        Double.valueOf(-Float.parseFloat(n[4])),
        Double.valueOf(Double.parseDouble(n[5])),
        "-1 * w");
    assertEquals(
        Double.valueOf(2 * Float.parseFloat(p[4])), Double.valueOf(Double.parseDouble(p[5])));
  }

  /**
   * Under normalization the value column is the normalized value that was scored (it used to be the
   * raw value beside the normalized contribution), and the header says so.
   */
  @Test
  void auditUnderNormalizationShowsTheScoredValue() throws IOException {
    Path f = dir.resolve("n.svm");
    Files.writeString(f, "1 2:3 5:4\n-1 5:1\n");
    Path model = dir.resolve("n.model");
    assertEquals(0, CliRun.line("train --data " + f + " --model " + model).code());
    CliRun a = CliRun.line("predict --model " + model + " --data " + f + " --audit --normalize");
    assertEquals(0, a.code(), a.err());
    assertTrue(a.out().startsWith("# feature\tindex\tvalue (normalized)\tsign\t"), a.out());
    String[] two = line(a.out(), "2\t1\t");
    double scored = 3 * (1 / Math.sqrt(3 * 3 + 4 * 4)); // Datasets.normalizeRows' product
    assertEquals(Double.valueOf(scored), Double.valueOf(Double.parseDouble(two[2])), "3 / 5");
    assertEquals(
        Double.valueOf(Float.parseFloat(two[4]) * scored),
        Double.valueOf(Double.parseDouble(two[5])));
  }

  /** The tab-separated fields of the first audit line starting with {@code start}. */
  private static String[] line(String out, String start) {
    return out.lines()
        .filter(l -> l.startsWith(start))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no line " + start + " in " + out))
        .split("\t");
  }
}
