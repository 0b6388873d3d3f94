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
        lines.get(0).startsWith("# feature\tindex\tvalue\tweight\tcontribution"), lines.get(0));
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
      double weight = Float.parseFloat(f[3]); // a float model: its weights printed as floats
      assertEquals(Double.valueOf(weight * value), Double.valueOf(Double.parseDouble(f[4])), line);
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
    assertTrue(a.out().contains("\n2\t1\t1\t"), a.out());
    assertTrue(a.out().contains("\n5\t4\t2\t"), a.out());
    CliRun.line("predict --model " + model + " --data " + f + " --audit --out -")
        .assertError(2, "--audit and --out - both write to standard output");
    assertFalse(a.out().isEmpty());
  }
}
