package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.model.LinearModel;

class MainTest {
  @TempDir Path dir;
  private String out;
  private String err;
  private Path bin;
  private Path multi;

  @BeforeEach
  void files() throws IOException {
    bin = dir.resolve("bin.svm");
    StringBuilder sb = new StringBuilder();
    java.util.Random r = new java.util.Random(3);
    for (int i = 0; i < 300; i++) {
      double a = r.nextGaussian();
      double b = 100 * r.nextGaussian();
      sb.append(a + b / 100 > 0 ? "+1" : "-1")
          .append(" 1:")
          .append(a)
          .append(" 3:")
          .append(b)
          .append('\n');
    }
    Files.writeString(bin, sb);
    multi = dir.resolve("multi.svm");
    Files.writeString(
        multi, "0 1:2 2:0.1\n1 2:2\n2 1:0.1 3:2\n0 1:1.5\n1 2:1.7 3:0.2\n2 3:3\n".repeat(20));
  }

  private int run(String... args) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code =
        Main.run(
            args,
            new PrintStream(o, true, StandardCharsets.UTF_8),
            new PrintStream(e, true, StandardCharsets.UTF_8));
    out = o.toString(StandardCharsets.UTF_8);
    err = e.toString(StandardCharsets.UTF_8);
    return code;
  }

  private String[] args(String line) {
    return line.equals("none")
        ? new String[0]
        : line.replace("BIN", bin.toString())
            .replace("MULTI", multi.toString())
            .replace("DIR", dir.toString())
            .split(" ");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "none                                  | missing command; commands: train, predict, serve, demo, experiment",
        "fit                                   | unknown command 'fit'; commands: train, predict, serve, demo, experiment",
        "train                                 | --data is required",
        "train --data                          | --data needs a value",
        "train --data=                         | --data needs a non-empty value",
        "train --data BIN --x                  | unknown option '--x'",
        "train --data BIN extra                | unexpected argument 'extra'",
        "train --data BIN --data BIN           | --data given twice",
        "train --data BIN --json=1             | --json takes no value",
        "train --data BIN --algorithm sgd      | unknown algorithm 'sgd'; valid names: adagrad, adagrad-global, aogd-ball, aogd-coord, scinol1, scinol2, dfeg, ftrl, kt, freegrad, ogd (did you mean 'ogd'?)",
        "train --data BIN --algorithm dfeg --param a=2 | a must lie in [0.882, 1.109], got 2.0",
        "train --data BIN --algorithm dfeg --param eta=1 | algorithm dfeg has no parameter 'eta'; its parameters: L, a, delta",
        "train --data BIN --param eps         | parameter 'eps' is not of the form name=value",
        "train --data BIN --param eps=x        | parameter eps must be a number, got 'x'",
        "train --data BIN --param eps=-1       | eps must be a finite number > 0, got -1.0",
        "train --data BIN --loss log           | --loss: unknown loss 'log'; valid names: logistic, hinge, absolute, squared (did you mean 'logistic'?)",
        "train --data BIN --type half          | --type must be float, double or mixed, got 'half'",
        "train --data BIN --epochs 0           | --epochs must be at least 1, got 0",
        "train --data BIN --epochs two         | --epochs must be a whole number, got 'two'",
        "train --data BIN --seed 1.5           | --seed must be a whole number (64-bit), got '1.5'",
        "predict --data BIN                    | --model is required",
        "predict --model m --data BIN --y      | unknown option '--y'",
        "demo --n 0                            | --n must be at least 1, got 0",
        "train --data BIN --threads 2 --algorithm ogd | --threads trains one of the rules in parallel; ogd (the baseline) has no merge rule (docs/MERGING.md)",
        "demo --data BIN --seed 3              | --seed only applies to the synthetic problem, not to --data",
        "experiment                            | experiment needs a name: scinol-synthetic, dfeg-synthetic, streeter-mcmahan, aogd-regret, all-datasets, ftrl-sparsity, kt-regret, freegrad-scale-free",
        "experiment nope --out DIR             | unknown experiment 'nope'; experiments: scinol-synthetic, dfeg-synthetic, streeter-mcmahan, aogd-regret, all-datasets, ftrl-sparsity, kt-regret, freegrad-scale-free",
      })
  void usageErrorsAreOneLineAndExitCode2(String line, String message) {
    assertEquals(2, run(args(line)), err);
    assertEquals("error: " + message + " (see --help)" + System.lineSeparator(), err);
    assertEquals("", out);
  }

  @Test
  void outputsThatNameAnInputAreRefusedAndTheInputIsKept() throws IOException {
    byte[] data = Files.readAllBytes(bin);
    Path model = dir.resolve("m.model");
    assertEquals(0, run(args("train --data BIN --model " + model)), err);
    byte[] modelBytes = Files.readAllBytes(model);
    Path link = dir.resolve("link.svm");
    Files.createSymbolicLink(link, bin);
    String[][] cases = {
      {"train --data BIN --model BIN", "--model " + bin + " is the --data file"},
      {"train --data BIN --model DIR/./bin.svm", "is the --data file"},
      {"train --data BIN --model " + link, "is the --data file"},
      {"train --data BIN --test MULTI --model MULTI", "is the --test file"},
      {
        "predict --model " + model + " --data BIN --out " + model,
        "--out " + model + " is the --model file"
      },
      {"predict --model " + model + " --data BIN --out BIN", "is the --data file"}
    };
    for (String[] c : cases) {
      assertEquals(2, run(args(c[0])), c[0] + ": " + err);
      assertTrue(
          err.startsWith("error: ") && err.contains(c[1] + ": refusing to overwrite an input"),
          err);
    }
    assertArrayEquals(data, Files.readAllBytes(bin));
    assertArrayEquals(modelBytes, Files.readAllBytes(model));
  }

  @Test
  void inputLimitsNameFileLineFeatureAndTheFlagThatLiftsThem() throws IOException {
    Path big = dir.resolve("big.svm");
    Files.writeString(big, "+1 1:1\n-1 2:1 3:1e13\n");
    assertEquals(1, run(args("train --data " + big)), err);
    assertEquals(
        "error: "
            + big
            + ":2: value 1e13 of feature index 3 exceeds 1.099511627776E12, the largest input"
            + " magnitude float training accepts (2^40): rescale that feature, or use --normalize or --type double"
            + System.lineSeparator(),
        err);
    assertEquals(0, run(args("train --data " + big + " --type double")), err);
    assertEquals(0, run(args("train --data " + big + " --normalize")), err);
    Path wide = dir.resolve("wide.svm");
    Files.writeString(wide, "+1 1:1\n-1 500000000:1\n");
    assertEquals(1, run(args("train --data " + wide)), err);
    assertEquals(
        "error: "
            + wide
            + ":2: feature index 500000000 exceeds 16777216, the largest dimension train accepts"
            + " without --dimension (the model's state grows with it): give --dimension N to train a larger model"
            + System.lineSeparator(),
        err);
    assertEquals(1, run(args("train --data " + wide + " --dimension 1000")), err);
    assertTrue(err.contains("exceeds 1000, the dimension given by --dimension"), err);
    assertEquals(0, run(args("train --data BIN --dimension 10 --json")), err);
    assertTrue(out.contains("\"d\": 10,"), out);
  }

  /**
   * Issue 12, item 8: out of memory is one error line with exit code 1, not a stack trace. Starts a
   * JVM: the long stage.
   */
  @Test
  @Tag("long")
  void outOfMemoryIsOneErrorLine() throws Exception {
    java.util.List<String> cmd = MainJvm.command(List.of("-Xmx24m"), "demo", "--n", "200000000");
    Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
    assertEquals(1, p.exitValue(), stderr);
    String last =
        stderr.lines().filter(l -> !l.startsWith("WARNING")).reduce((a, b) -> b).orElse("");
    assertTrue(last.startsWith("error: out of memory ("), stderr);
    assertFalse(stderr.contains("\tat "), stderr);
  }

  @Test
  void parametersBeyondTheElementTypeAreUsageErrorsNamingTheFlag() {
    assertEquals(2, run(args("train --data BIN --algorithm aogd-coord --param R=1e20")), err);
    assertTrue(
        err.startsWith(
            "error: --param R with --type float: aogd-coordinate: R = 1.0E20 is too large for float"
                + " elements (3 R^2 would overflow and nothing be learned); |R| must be at most "),
        err);
    assertEquals(1, err.lines().count(), err);
    for (String line :
        new String[] {
          "--algorithm scinol2 --param eps=1e39",
          "--algorithm adagrad --param eta=1e39",
          "--algorithm adagrad-global --param alpha=1e39",
          "--algorithm aogd-ball --param R=1e39"
        }) {
      assertEquals(2, run(args("train --data BIN " + line)), line + ": " + err);
      assertTrue(
          err.startsWith("error: --param ") && err.contains("is too large for float elements"),
          err);
    }
    assertEquals(
        0, run(args("train --data BIN --algorithm aogd-coord --param R=1e20 --type double")), err);
  }

  /**
   * A refused parameter is named as --param takes it: the library's own names (lambda1, lambda2,
   * epsilon, AdaGrad's rate, global AdaGrad's alpha * D) used to reach the user.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "--algorithm ftrl --param l1=-1              | l1 must",
        "--algorithm ftrl --param l2=-1              | l2 must",
        "--algorithm kt --param eps=-1               | eps must",
        "--algorithm freegrad --param eps=1e39       | --param eps with --type float: freegrad: eps = ",
        "--algorithm scinol1 --param eps=1e39        | --param eps with --type float: scinol1: eps = ",
        "--algorithm adagrad --param eta=1e39        | --param eta with --type float: adagrad: eta = ",
        "--algorithm adagrad --param alpha=1e39,R=1  | --param alpha with --type float: adagrad: alpha = ",
        "--algorithm adagrad-global --param alpha=1e39 | --param alpha with --type float: global-adagrad: alpha * D = ",
        "--algorithm adagrad --param q0=-1           | q0 must",
      })
  void refusedParametersAreNamedAsTheCommandLineNamesThem(String line, String start) {
    assertEquals(2, run(args("train --data BIN " + line)), line + ": " + err);
    assertTrue(err.startsWith("error: " + start), err);
    for (String libraryName : new String[] {"lambda1", "lambda2", "epsilon", "Q0", "|rate|"}) {
      assertFalse(err.contains(libraryName), err);
    }
  }

  /**
   * A control character in an echoed argument or file name is shown as its {@code \\uXXXX} escape:
   * the error stays one line whatever the user or a damaged file passed.
   */
  @ParameterizedTest
  @MethodSource("controls")
  void aControlCharacterInAnEchoedArgumentKeepsTheErrorOnOneLine(String control, String shown) {
    assertEquals(2, run("fit" + control), err);
    assertEquals(
        "error: unknown command 'fit"
            + shown
            + "'; commands: train, predict, serve, demo, experiment (see --help)"
            + System.lineSeparator(),
        err);
    Path missing = dir.resolve("no" + control + "file.svm");
    assertEquals(1, run("train", "--data", missing.toString()), err);
    assertEquals(1, err.lines().count(), err);
    assertTrue(err.contains("no" + shown + "file.svm: no such file"), err);
  }

  static List<Arguments> controls() {
    return List.of(
        Arguments.of("\n", "\\u000a"),
        Arguments.of("\r", "\\u000d"),
        Arguments.of("\r\n", "\\u000d\\u000a"),
        Arguments.of("\u001b[2J", "\\u001b[2J"));
  }

  /** An output that is a directory is named once ("cannot write .: .: Is a directory"). */
  @Test
  void aProgressiveOutThatIsADirectoryIsNamedOnce() {
    assertEquals(1, run(args("train --data BIN --progressive-out DIR")), err);
    assertTrue(err.startsWith("error: cannot write " + dir + ": "), err);
    assertFalse(err.contains(dir + ": " + dir), err);
    assertEquals(1, err.lines().count(), err);
  }

  @Test
  void fileErrorsAreOneLineAndExitCode1() throws IOException {
    Path bad = dir.resolve("bad.svm");
    Files.writeString(bad, "+1 1:1\n+1 2:x\n");
    Path empty = dir.resolve("empty.svm");
    Files.writeString(empty, "");
    Path notModel = dir.resolve("not.model");
    Files.writeString(notModel, "hello\n");
    Path truncated = dir.resolve("t.model");
    Files.writeString(
        truncated,
        LinearModel.MAGIC
            + "\nalgorithm scinol2\nparams\ntype float\nloss logistic\nd 2\noutputs 1\nclasses binary\nw 1\n");
    List<String[]> cases =
        List.of(
            new String[] {
              "train --data DIR/missing.svm",
              "error: cannot read " + dir.resolve("missing.svm") + ": no such file"
            },
            new String[] {"train --data DIR", "error: cannot read " + dir + ": it is a directory"},
            new String[] {"train --data " + bad, "error: " + bad + ":2"},
            new String[] {"train --data " + empty, "error: " + empty + " has no examples"},
            new String[] {
              "train --data BIN --test MULTI",
              "error: the test data has class labels 0..2 but the model is binary (+1/-1)"
            },
            new String[] {
              "train --data BIN --model DIR/no/such/m.model",
              "error: cannot write " + dir.resolve("no/such/m.model")
            },
            new String[] {
              "predict --model DIR/none.model --data BIN",
              "error: cannot read " + dir.resolve("none.model") + ": no such file"
            },
            new String[] {
              "predict --model DIR --data BIN", "error: cannot read " + dir + ": it is a directory"
            },
            new String[] {
              "predict --model " + notModel + " --data BIN --out DIR/no/p.txt",
              "error: cannot write "
                  + dir.resolve("no/p.txt")
                  + ": no such directory "
                  + dir.resolve("no")
            },
            new String[] {
              "train --data BIN --model DIR", "error: cannot write " + dir + ": it is a directory"
            },
            new String[] {
              "predict --model " + notModel + " --data BIN",
              "error: " + notModel + ":1: not an online-kernels model"
            },
            new String[] {
              "predict --model " + truncated + " --data BIN",
              "error: " + truncated + ":10: truncated or damaged"
            },
            new String[] {
              "experiment streeter-mcmahan --out DIR/x --data-dir DIR/nodata",
              "error: data directory " + dir.resolve("nodata") + " not found"
            },
            new String[] {
              // It said "cannot write to F: F", after running.
              "experiment dfeg-synthetic --quick --out " + bad,
              "error: cannot write to " + bad + ": it is a file; --out names a directory"
            });
    for (String[] c : cases) {
      assertEquals(1, run(args(c[0])), c[0] + ": " + err);
      assertTrue(err.startsWith(c[1]), c[0] + ": " + err);
      assertEquals(1, err.lines().count(), err);
      assertFalse(err.contains("\tat "), err);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "--help",
        "train --help",
        "predict --help",
        "demo --help",
        "experiment --help",
        "train -h"
      })
  void helpForEachCommand(String line) {
    assertEquals(0, run(line.split(" ")));
    assertTrue(out.startsWith("usage: online-kernels"), out);
    assertEquals("", err);
  }

  @Test
  void trainHelpListsAlgorithmsAndTheirParameters() {
    run("train", "--help");
    for (String a :
        new String[] {
          "adagrad",
          "adagrad-global",
          "aogd-ball",
          "aogd-coord",
          "scinol1",
          "scinol2",
          "dfeg",
          "ftrl",
          "kt",
          "freegrad",
          "ogd"
        }) {
      assertTrue(out.contains("  " + a + " "), a);
    }
  }

  @Test
  void savedModelPredictsExactlyWhatTheTrainerMeasured() throws IOException {
    for (String type : new String[] {"float", "double"}) {
      Path model = dir.resolve("m-" + type + ".model");
      Path preds = dir.resolve("p-" + type + ".txt");
      assertEquals(
          0,
          run(
              "train",
              "--data",
              bin.toString(),
              "--test",
              bin.toString(),
              "--algorithm",
              "adagrad",
              "--param",
              "eta=0.5,delta=0.1",
              "--type",
              type,
              "--epochs",
              "2",
              "--model",
              model.toString(),
              "--json"),
          err);
      String trainJson = out;
      assertEquals(
          0,
          run(
              "predict",
              "--model",
              model.toString(),
              "--data",
              bin.toString(),
              "--out",
              preds.toString(),
              "--json"),
          err);
      // The test block of train and of predict print the same doubles.
      String testOfTrain =
          trainJson.substring(trainJson.indexOf("\"test\": {") + 9, trainJson.indexOf("\"file\""));
      assertTrue(
          out.contains("\"test\": {" + testOfTrain.replaceAll(", $", "}")), trainJson + "\n" + out);
      // And the predictions file holds <w, x> with the saved weights, row by row.
      LinearModel m = LinearModel.load(model);
      SparseDataset data = LibSvmReader.read(bin);
      List<String> lines = Files.readAllLines(preds);
      assertEquals(data.size(), lines.size());
      double[] yhat = new double[1];
      int[] idx = data.indices();
      double[] val = data.values();
      for (int r = 0; r < data.size(); r++) {
        m.scores(idx, val, data.rowStart(r), data.nnz(r), yhat);
        assertEquals(yhat[0], Double.parseDouble(lines.get(r)));
      }
      assertEquals(type, m.type().name().toLowerCase());
      assertEquals("eta=0.5,delta=0.1", m.algorithm().paramString());
    }
  }

  @Test
  void trainJsonHasTheSummary() {
    assertEquals(
        0, run("train", "--data", bin.toString(), "--algorithm", "scinol2", "--json"), err);
    assertEquals(1, out.lines().count());
    for (String key :
        new String[] {
          "\"algorithm\": \"scinol2\"",
          "\"params\": \"\"",
          "\"progressive\": {",
          "\"test\": null",
          "\"examples_per_second\": ",
          "\"nonzeros_per_second\": ",
          "\"type\": \"float\"",
          "\"loss\": \"logistic\"",
          "\"steady_examples\": ",
          "\"steady_seconds\": ",
          "\"steady_examples_per_second\": ",
          "\"handover_at\": ",
          "\"kernels_at_end\": "
        }) {
      assertTrue(out.contains(key), key + " in " + out);
    }
    // A rate only where its span lasted 0.1 s (docs/CLI.md), else null.
    double seconds =
        Double.parseDouble(out.replaceAll(".*\"seconds\": ([0-9.eE-]+),.*", "$1").trim());
    double steady =
        Double.parseDouble(out.replaceAll(".*\"steady_seconds\": ([0-9.eE-]+),.*", "$1").trim());
    assertEquals(seconds < 0.1, out.contains("\"examples_per_second\": null"), out);
    assertEquals(steady < 0.1, out.contains("\"steady_examples_per_second\": null"), out);
  }

  @Test
  void multiclassTrainAndPredict() throws IOException {
    Path model = dir.resolve("multi.model");
    assertEquals(
        0,
        run(
            "train",
            "--data",
            multi.toString(),
            "--test",
            multi.toString(),
            "--epochs",
            "3",
            "--model",
            model.toString()),
        err);
    assertTrue(out.contains("3 classes (one-vs-rest)"), out);
    assertTrue(out.contains("test ("), out);
    assertTrue(out.contains("throughput: whole pass "), out);
    assertTrue(out.contains("; steady state "), out);
    assertTrue(Files.readString(model).contains("\noutputs 3\nclasses 3\n"));
    assertEquals(
        0,
        run("predict", "--model", model.toString(), "--data", multi.toString(), "--out", "-"),
        err);
    List<String> lines = out.lines().toList();
    assertEquals(120, lines.size());
    assertEquals(4, lines.get(0).split(" ").length, "class then 3 scores");
    assertTrue(err.contains("error rate"), err);
    Metrics m = Metrics.evaluate(LinearModel.load(model), LibSvmReader.read(multi));
    assertTrue(m.errorRate() < 0.2, "learns the toy problem: " + m);
  }

  @Test
  void syntheticDemoRunsOnTheKernels() {
    assertEquals(0, run("demo", "--n", "2000", "--seed", "4"));
    assertEquals("", err);
    assertTrue(out.contains("n = 2000, d = 21"), out);
    assertTrue(out.contains("kernels: "), out);
    assertTrue(out.contains("baseline: zero"), out);
    assertTrue(out.contains("0.693147"), out);
    assertTrue(out.contains("baseline: true u"), out);
    for (String a : new String[] {"adagrad", "scinol1", "scinol2", "dfeg", "aogd-ball", "ogd"}) {
      assertTrue(out.contains("\n" + a + " "), a + " in " + out);
    }
  }

  @Test
  void dataFileDemoTrainsMulticlassOneVsRest() {
    assertEquals(0, run("demo", "--data", multi.toString(), "--n=30"));
    assertEquals("", err);
    assertTrue(out.contains("n = 30, d = 3"), out);
    assertTrue(out.contains("3 classes, one-vs-rest"), out);
  }

  @Test
  void experimentWithoutOutWritesUnderTargetAndLeavesTheCommittedResultsAlone() throws IOException {
    Path home = Path.of(System.getProperty("onlinekernels.home")).toAbsolutePath().normalize();
    Path committed = home.resolve("docs/experiments/dfeg-synthetic/README.md");
    byte[] before = Files.readAllBytes(committed);
    Path o = home.resolve("target/experiments/dfeg-synthetic");
    Files.deleteIfExists(o.resolve("README.md"));
    assertEquals(0, run("experiment", "dfeg-synthetic", "--quick"), err);
    assertTrue(
        Files.readString(o.resolve("README.md"))
            .contains("bin/online-kernels experiment dfeg-synthetic --quick\n"),
        "the command as typed, with no machine's path in it");
    assertArrayEquals(
        before,
        Files.readAllBytes(committed),
        "docs/experiments is only written when --out says so");
  }

  @Test
  void quickExperimentWritesReportCsvAndPlot() throws IOException {
    Path o = dir.resolve("dfeg");
    assertEquals(0, run("experiment", "dfeg-synthetic", "--out", o.toString(), "--quick"), err);
    assertTrue(Files.readString(o.resolve("README.md")).contains("experiment dfeg-synthetic"));
    assertTrue(Files.readString(o.resolve("regret.csv")).startsWith("T,dfeg,"));
    byte[] png = Files.readAllBytes(o.resolve("regret_vs_T.png"));
    assertTrue(png.length > 1000 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G', "a PNG chart");
  }

  /**
   * KT's regret stays within the paper's bound on every coin sequence and horizon of the quick run.
   */
  @Test
  void ktRegretExperimentStaysWithinThePapersBound() throws IOException {
    Path o = dir.resolve("kt");
    assertEquals(0, run("experiment", "kt-regret", "--out", o.toString(), "--quick"), err);
    List<String> rows = Files.readAllLines(o.resolve("regret.csv"));
    assertTrue(rows.size() > 10, rows.toString());
    for (String r : rows.subList(1, rows.size())) {
      String[] c = r.split(",");
      assertTrue(Double.parseDouble(c[4]) <= 1, "regret beyond the bound: " + r);
    }
  }

  /** FreeGrad's weights are bit-identical when every gradient is scaled by 2^k. */
  @Test
  void freeGradScaleFreeExperimentFindsNoDifferingWeight() throws IOException {
    Path o = dir.resolve("freegrad");
    assertEquals(
        0, run("experiment", "freegrad-scale-free", "--out", o.toString(), "--quick"), err);
    List<String> rows = Files.readAllLines(o.resolve("scale_free.csv"));
    assertEquals(8, rows.size(), rows.toString());
    for (String r : rows.subList(1, rows.size())) {
      assertEquals("0", r.split(",")[3], "weights differ: " + r);
      assertTrue(Double.parseDouble(r.split(",")[4]) > 0, "the weights moved at all: " + r);
    }
  }

  /**
   * FTRL's L1 must produce exact zeros: none among the seen features' weights without L1, most of
   * them at {@code lambda1 = 10} (austen_lines' word counts, first 2,000 lines).
   */
  @Test
  void ftrlSparsityExperimentShowsExactZerosGrowingWithL1() throws IOException {
    Path o = dir.resolve("ftrl");
    Path data = Path.of(System.getProperty("onlinekernels.data", "../data"));
    assertEquals(
        0,
        run(
            "experiment",
            "ftrl-sparsity",
            "--out",
            o.toString(),
            "--data-dir",
            data.toString(),
            "--quick"),
        err);
    List<String> rows = Files.readAllLines(o.resolve("sparsity.csv"));
    assertTrue(
        rows.get(0).startsWith("lambda1,zero weights (all),zero weights (seen features)"),
        rows.get(0));
    double[] seenZeros =
        rows.stream().skip(1).mapToDouble(r -> Double.parseDouble(r.split(",")[2])).toArray();
    assertEquals(7, seenZeros.length, rows.toString());
    assertEquals(0.0, seenZeros[0], "lambda1 = 0 leaves no seen feature's weight at zero: " + rows);
    assertTrue(seenZeros[6] > 0.5, "lambda1 = 10 zeroes most seen features' weights: " + rows);
  }
}
