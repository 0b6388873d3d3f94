package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainResult;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * Labels, the tie rule, the multiclass losses, --progressive-out and --type mixed of the command
 * line.
 */
class LabelsAndScoringTest {
  @TempDir Path dir;
  private Path pm;
  private Path multi;

  /** The same rows labelled +1/-1, 0/1, 1/2 and 2/1 (2 the negative class). */
  @BeforeEach
  void files() throws IOException {
    StringBuilder pmText = new StringBuilder();
    StringBuilder z = new StringBuilder();
    StringBuilder one = new StringBuilder();
    Random r = new Random(5);
    for (int i = 0; i < 200; i++) {
      double a = r.nextGaussian();
      double b = r.nextGaussian();
      boolean pos = a + 0.3 * b + 0.3 * r.nextGaussian() > 0;
      String x = " 1:" + a + " 2:" + b + "\n";
      pmText.append(pos ? "+1" : "-1").append(x);
      z.append(pos ? "1" : "0").append(x);
      one.append(pos ? "2" : "1").append(x);
    }
    pm = dir.resolve("pm.svm");
    Files.writeString(pm, pmText);
    Files.writeString(dir.resolve("z.svm"), z);
    Files.writeString(dir.resolve("one.svm"), one);
    multi = dir.resolve("multi.svm");
    Files.writeString(
        multi, "0 1:2 2:0.1\n1 2:2\n2 1:0.1 3:2\n0 1:1.5\n1 2:1.7 3:0.2\n2 3:3\n".repeat(20));
  }

  private String p(String name) {
    return dir.resolve(name).toString();
  }

  @ParameterizedTest
  @CsvSource({
    "z.svm, '', 'binary, 0 -> -1, 1 -> +1'",
    "one.svm, '', 'binary, 1 -> -1, 2 -> +1'",
    "one.svm, --labels=1;2, 'binary, 1 -> -1, 2 -> +1 (--labels)'"
  })
  void zeroOneAndOneTwoLabelsTrainAsBinaryExactlyLikePlusMinusOne(
      String file, String extra, String description) {
    CliRun ref = CliRun.line("train --data " + pm + " --json");
    String cmd =
        "train --data "
            + p(file)
            + " --json"
            + (extra.isEmpty() ? "" : " " + extra.replace(';', ','));
    CliRun r = CliRun.line(cmd);
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("\"outputs\": 1"), r.out());
    assertTrue(r.out().contains(description), r.out());
    assertEquals(ref.json("progressive", "loss"), r.json("progressive", "loss"));
    assertEquals(ref.json("progressive", "error"), r.json("progressive", "error"));
  }

  @Test
  void explicitMapCanSwapTheClassesAndPredictAppliesTheSameRule() throws IOException {
    Path flipped = dir.resolve("flipped.svm");
    Files.writeString(
        flipped,
        Files.readString(pm).replace("+1 ", "N ").replace("-1 ", "+1 ").replace("N ", "-1 "));
    CliRun ref = CliRun.line("train --data " + flipped + " --json --model " + p("m"));
    CliRun swapped = CliRun.line("train --data " + p("z.svm") + " --labels 1,0 --json");
    assertEquals(ref.json("progressive", "loss"), swapped.json("progressive", "loss"));
    // A binary model scores a 0/1 file as its +1/-1 twin.
    CliRun a = CliRun.line("predict --model " + p("m") + " --data " + pm + " --json");
    CliRun b = CliRun.line("predict --model " + p("m") + " --data " + p("z.svm") + " --json");
    assertEquals(0, b.code(), b.err());
    assertEquals(a.json("test", "loss"), b.json("test", "loss"));
    assertTrue(b.out().contains("0 -> -1"), b.out());
  }

  @Test
  void threeOrMoreLabelsMapToClassesInTheGivenOrder() {
    CliRun auto = CliRun.line("train --data " + multi + " --json");
    CliRun explicit = CliRun.line("train --data " + multi + " --labels 0,1,2 --json");
    assertEquals(auto.json("progressive", "loss"), explicit.json("progressive", "loss"));
    CliRun reordered = CliRun.line("train --data " + multi + " --labels 2,1,0 --json --no-shuffle");
    assertEquals(0, reordered.code(), reordered.err());
    assertTrue(reordered.out().contains("\"outputs\": 3"), reordered.out());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "--labels 1           | --labels needs 'auto' or at least two comma-separated labels, got '1'",
        "--labels 1,x         | --labels: 'x' is not a number (in '1,x')",
        "--labels 1,1         | --labels: label 1 given twice",
        "--labels 1,Infinity  | --labels: 'Infinity' is not a finite number",
        "--ties errors        | --ties must be half or error, got 'errors' (did you mean 'error'?)",
        "--type mix           | --type must be float, double or mixed, got 'mix' (did you mean 'mixed'?)",
        "--type mixed --algorithm dfeg | --type mixed: mixed precision exists for adagrad and scinol2, not for dfeg",
        "--algorithm adagrad_global | unknown algorithm 'adagrad_global'; valid names: adagrad, adagrad-global, aogd-ball, aogd-coord, scinol1, scinol2, dfeg, ftrl, kt, freegrad, ogd (did you mean 'adagrad-global'?)",
        "--loss logistc       | --loss: unknown loss 'logistc'; valid names: logistic, hinge, absolute, squared (did you mean 'logistic'?)",
        "--param epsilon=1    | algorithm scinol2 has no parameter 'epsilon'; its parameters: eps (did you mean 'eps'?)",
        "--param eps=0        | eps must be a finite number > 0, got 0.0",
        "--algorithm adagrad --param q0=-1 | q0 must be a finite number >= 0, got -1.0",
        "--epoch 2            | unknown option '--epoch' (did you mean '--epochs'?)",
        "--progresive-out x   | unknown option '--progresive-out' (did you mean '--progressive-out'?)",
      })
  void badOptionValuesAreUsageErrorsNamingTheFlag(String options, String message) {
    CliRun.line("train --data " + pm + " " + options).assertError(2, message + " (see --help)");
  }

  @Test
  void demoRefusesMixedAndSaysWhere() {
    CliRun.line("demo --type mixed --n 10")
        .assertError(2, "--type mixed exists for adagrad and scinol2 only");
  }

  @Test
  void labelOutsideAnExplicitListNamesTheExample() {
    CliRun.line("train --data " + multi + " --labels 0,1")
        .assertError(1, multi + ": example 3 has label 2, which is not one of the labels 0,1");
  }

  @Test
  void tieRuleHalfOrWhole() throws IOException {
    // One example: the fresh model predicts exactly 0, a tie.
    Path one = dir.resolve("tie.svm");
    Files.writeString(one, "+1 1:1\n");
    assertEquals(0.5, CliRun.line("train --data " + one + " --json").json("progressive", "error"));
    assertEquals(
        0.5,
        CliRun.line("train --data " + one + " --json --ties half").json("progressive", "error"));
    CliRun whole = CliRun.line("train --data " + one + " --json --ties error");
    assertEquals(1.0, whole.json("progressive", "error"));
    assertTrue(whole.out().contains("\"ties\": \"error\""), whole.out());
    assertTrue(
        CliRun.line("train --data " + one + " --ties error")
            .out()
            .contains("(ties count as errors)"));
  }

  @Test
  void multiclassReportsTheOneVsRestSumByNameAndTheSoftmaxLogLoss() throws IOException {
    CliRun r = CliRun.line("train --data " + multi + " --test " + multi + " --json");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("\"loss\": \"ovr-logistic-sum\""), r.out());
    double softmax = r.json("progressive", "softmax_log_loss");
    assertTrue(softmax > 0 && softmax < Math.log(3) + 1, r.out());
    // The command line's error (tie rule half, from the progressive hook) is the trainer's own.
    TrainResult lib =
        OnlineTrainer.train(
            TrainerConfig.of(AlgorithmSpec.of("scinol2")),
            LibSvmReader.read(multi),
            LibSvmReader.read(multi),
            null);
    assertEquals(lib.progressive().errorRate(), r.json("progressive", "error"));
    assertEquals(lib.progressive().meanLoss(), r.json("progressive", "loss"));
    assertEquals(lib.test().errorRate(), r.json("\"test\"", "error"));
    assertTrue(r.json("\"test\"", "softmax_log_loss") > 0);
    assertTrue(
        CliRun.line("train --data " + multi).out().contains("mean ovr-logistic-sum loss"),
        "text names the loss");
  }

  @Test
  void softmaxLogLossIsStableAndExact() {
    assertEquals(Math.log(2), Scoring.softmaxLogLoss(0, new double[] {3, 3}, 2), 1e-15);
    assertEquals(0, Scoring.softmaxLogLoss(0, new double[] {1000, 0}, 2), 1e-12);
    assertEquals(1000, Scoring.softmaxLogLoss(1, new double[] {1000, 0}, 2), 1e-9);
    assertEquals(
        Math.log(1 + Math.exp(-2)),
        Scoring.softmaxLogLoss(1, new double[] {-1, 1, -1e308}, 3),
        1e-15);
  }

  @Test
  void progressiveOutHasOneLinePerExampleAndEpochAndAgreesWithTheReport() throws IOException {
    Path prog = dir.resolve("prog.txt");
    CliRun r =
        CliRun.line("train --data " + p("z.svm") + " --epochs 2 --json --progressive-out " + prog);
    assertEquals(0, r.code(), r.err());
    List<String> lines = Files.readAllLines(prog);
    assertEquals(400, lines.size());
    double errors = 0;
    for (String l : lines) {
      String[] f = l.split(" ");
      assertEquals(4, f.length, l);
      double m = Double.parseDouble(f[2]) * Double.parseDouble(f[3]);
      errors += m > 0 ? 0 : m == 0 ? 0.5 : 1;
    }
    assertEquals(r.json("progressive", "error"), errors / 400, 1e-12);
    // File order without shuffling: the first line is the first example, scored 0 by the fresh
    // model.
    CliRun.line("train --data " + p("z.svm") + " --no-shuffle --progressive-out " + prog);
    String first = Files.readAllLines(prog).get(0);
    String label = Files.readString(dir.resolve("z.svm")).startsWith("1") ? "1" : "-1";
    assertEquals("1 1 " + label + " 0.0", first);
    // Multiclass lines: epoch, row, class label, predicted class, K scores.
    CliRun.line("train --data " + multi + " --progressive-out " + prog);
    assertEquals(7, Files.readAllLines(prog).get(0).split(" ").length);
  }

  @Test
  void unwritableProgressiveOutFailsBeforeTraining() {
    CliRun.line("train --data " + pm + " --progressive-out " + p("no/such/dir/p.txt"))
        .assertError(1, "cannot write " + p("no/such/dir/p.txt") + ": no such directory");
  }

  @Test
  void mixedPrecisionTrainsAndDiffersFromFloatOnlyInRounding() {
    CliRun f = CliRun.line("train --data " + pm + " --json --algorithm scinol2");
    CliRun m = CliRun.line("train --data " + pm + " --json --algorithm scinol2 --type mixed");
    assertEquals(0, m.code(), m.err());
    assertTrue(m.out().contains("\"type\": \"mixed\""), m.out());
    assertEquals(f.json("progressive", "loss"), m.json("progressive", "loss"), 1e-4);
    CliRun a = CliRun.line("train --data " + pm + " --json --algorithm adagrad --type mixed");
    assertEquals(0, a.code(), a.err());
    assertNotEquals(-1, a.out().indexOf("\"type\": \"mixed\""));
  }
}
