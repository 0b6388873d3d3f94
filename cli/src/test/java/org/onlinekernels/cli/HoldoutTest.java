package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.trainer.Metrics;

/** {@code train --holdout-period N}: rows N, 2N, ... scored as the run goes, never trained. */
class HoldoutTest {
  private static final int PERIOD = 3;

  @TempDir Path dir;

  /**
   * A file whose held-out row {@code 3k} is a copy of the row after it, {@code 3k + 1}: held out
   * after {@code 2k} trained rows, it is scored by the model that gives row {@code 3k + 1} its
   * progressive prediction. So the holdout loss is the mean loss of those progressive predictions,
   * and the model is that of the file without its held-out rows.
   */
  @Test
  void heldOutRowsAreScoredWhereTheyStandAndNeverTrained() throws IOException {
    List<String> kept = Files.readAllLines(StreamFiles.libsvm(dir, "k", 61, 0, 20, 0, 21).a());
    List<String> rows = new ArrayList<>();
    for (int next = 0; next < kept.size(); ) {
      rows.add((rows.size() + 1) % PERIOD == 0 ? kept.get(next) : kept.get(next++));
    }
    Path withHoldout = dir.resolve("h.svm");
    Path trainedOnly = dir.resolve("t.svm");
    Files.write(withHoldout, rows);
    Files.write(trainedOnly, kept);
    Path prog = dir.resolve("h.prog");
    String opts = " --algorithm adagrad --type double --no-shuffle --json";
    CliRun h =
        CliRun.line(
            "train --data "
                + withHoldout
                + opts
                + " --holdout-period "
                + PERIOD
                + " --progressive-out "
                + prog
                + " --model "
                + dir.resolve("h.model"));
    assertEquals(0, h.code(), h.err());
    CliRun t =
        CliRun.line("train --data " + trainedOnly + opts + " --model " + dir.resolve("t.model"));
    assertEquals(0, t.code(), t.err());
    assertArrayEquals(
        Files.readAllBytes(dir.resolve("t.model")),
        Files.readAllBytes(dir.resolve("h.model")),
        "the held-out rows were trained on");
    assertEquals(rows.size() / PERIOD, (int) h.json("\"holdout\"", "examples"));
    assertEquals(PERIOD, (int) h.json("\"holdout\"", "period"));
    assertEquals(kept.size(), (int) h.json("\"progressive\"", "examples"));
    double sum = 0;
    int count = 0;
    for (String line : Files.readAllLines(prog)) {
      String[] f = line.split(" "); // EPOCH ROW LABEL SCORE, ROW 1-based in the file
      int row = Integer.parseInt(f[1]);
      assertTrue(row % PERIOD != 0, "held-out row " + row + " has a progressive prediction");
      if (row % PERIOD == 1 && row > 1) {
        sum +=
            Metrics.loss(
                Loss.LOGISTIC,
                false,
                Double.parseDouble(f[2]),
                new double[] {Double.parseDouble(f[3])},
                1);
        count++;
      }
    }
    assertEquals(rows.size() / PERIOD, count);
    // The holdout scores with the read-out weights, the progressive prediction with the rule's
    // kernel: the same products summed in another order, so equal to rounding.
    assertEquals(sum / count, h.json("\"holdout\"", "loss"), 1e-12 * (sum / count));
    CliRun text = CliRun.line("train --data " + withHoldout + " --holdout-period " + PERIOD);
    assertTrue(
        text.out().contains("holdout (rows 3, 6, ...; n = " + rows.size() / PERIOD + "): "),
        text.out());
  }

  @Test
  void aPeriodBelowTwoIsAUsageError() throws IOException {
    Path f = dir.resolve("d.svm");
    Files.writeString(f, "1 1:1\n-1 2:1\n");
    CliRun.line("train --data " + f + " --holdout-period 1")
        .assertError(
            2, "--holdout-period must be at least 2 (1 would hold out every example), got 1");
    // 0 and -3 get the same least value as 1 (0 used to be told "at least 1").
    CliRun.line("train --data " + f + " --holdout-period 0")
        .assertError(
            2, "--holdout-period must be at least 2 (1 would hold out every example), got 0");
    CliRun.line("train --data " + f + " --holdout-period -3")
        .assertError(
            2, "--holdout-period must be at least 2 (1 would hold out every example), got -3");
    CliRun.line("train --data " + f + " --holdout-period x").assertError(2, "--holdout-period");
  }

  /** A period longer than the data holds nothing out: refused (its holdout loss was NaN). */
  @Test
  void aPeriodLongerThanTheDataIsRefused() throws IOException {
    Path f = dir.resolve("d.svm");
    Files.writeString(f, "1 1:1\n-1 2:1\n1 1:0.5\n");
    CliRun.line("train --data " + f + " --holdout-period 4")
        .assertError(
            2, "--holdout-period 4 holds out no row: " + f + " has 3 examples; give at most 3");
    assertEquals(0, CliRun.line("train --data " + f + " --holdout-period 3").code());
  }

  /**
   * The holdout's cost, one read-out of all d weights per scored row, is said where it is paid
   * (--holdout-period 10 at --bits 18 made training 14x slower with no word of why); and a period
   * too long for a call in the second half leaves the steady state unmeasured rather than calling
   * the whole pass "the second half".
   */
  @Test
  void theCostOfScoringIsReported() throws IOException {
    Path f = dir.resolve("d.vw");
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 20; i++) {
      sb.append(i % 2 == 0 ? "1" : "-1").append(" |a x").append(i % 5).append('\n');
    }
    Files.writeString(f, sb.toString());
    CliRun r = CliRun.line("train --data " + f + " --bits 12 --holdout-period 4 --epochs 1");
    assertEquals(0, r.code(), r.err());
    String cost =
        r.out().lines().filter(l -> l.startsWith("holdout cost: ")).findFirst().orElse("");
    assertTrue(
        cost.startsWith(
            "holdout cost: 5 read-outs of 4096 weights (O(d) each, d = the model's dimension): "),
        r.out());
    CliRun longPeriod = CliRun.line("train --data " + f + " --bits 12 --holdout-period 20");
    assertEquals(0, longPeriod.code(), longPeriod.err());
    assertTrue(longPeriod.out().contains("steady state not measured"), longPeriod.out());
    assertTrue(!longPeriod.out().contains("second half: 19 examples"), longPeriod.out());
  }

  /**
   * A test file with a feature the training file lacks makes the model wider than the training
   * data: the holdout's read-out is sized from the model (it used to be sized from the data, and
   * the library refused the read-out: "into holds 52 bytes but 20 float elements need 80").
   */
  @Test
  void aTestFileWiderThanTheTrainingDataIsScored() throws IOException {
    Path f = dir.resolve("d.svm");
    Files.writeString(f, "1 1:1 3:0.5\n-1 2:1\n1 1:0.5\n-1 2:0.5 3:1\n1 1:1\n-1 2:1\n");
    Path test = dir.resolve("t.svm");
    Files.writeString(test, "+1 1:0.5 20:1\n-1 2:1\n");
    CliRun r = CliRun.line("train --data " + f + " --test " + test + " --holdout-period 2 --json");
    assertEquals(0, r.code(), r.err());
    assertEquals(3, (int) r.json("\"holdout\"", "examples"));
    assertEquals(2, (int) r.json("\"test\"", "examples"));
  }
}
