package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * A {@code train} run that writes no model and scores no test file reads no weight out of the
 * optimizers' state (a small job's largest end-of-run cost: all 2^bits weights computed in a cold
 * JVM; issue #35), and prints what it printed with the read-out; a run with {@code --model} writes
 * the model the library's trainer reads out, byte for byte. In memory and streamed.
 */
class ReadOutOnDemandTest {
  /** ScInOL2's state at 2^20 coordinates in float: 4 floats per coordinate. */
  private static final long STATE = 16L << 20;

  /** The read-out of 2^20 weights: one {@code double} each. */
  private static final long READ_OUT = 8L << 20;

  @TempDir Path dir;

  private Path rows(String name, int n, boolean multiclass) throws IOException {
    StringBuilder s = new StringBuilder();
    Random r = new Random(7);
    for (int i = 0; i < n; i++) {
      String label = multiclass ? Integer.toString(r.nextInt(3)) : r.nextBoolean() ? "1" : "-1";
      s.append(label).append(" |f t").append(r.nextInt(50)).append(" t").append(r.nextInt(50));
      s.append(" |g u").append(r.nextInt(9)).append(":").append(r.nextDouble()).append('\n');
    }
    Path p = dir.resolve(name);
    Files.writeString(p, s);
    return p;
  }

  /** The heap bytes the calling thread allocates during {@code train args} (which must succeed). */
  private static long allocatedBy(List<String> args) {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long id = Thread.currentThread().threadId();
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    PrintStream quiet = new PrintStream(sink, true, StandardCharsets.UTF_8);
    long before = threads.getThreadAllocatedBytes(id);
    int code = Main.run(args.toArray(new String[0]), quiet, quiet);
    long after = threads.getThreadAllocatedBytes(id);
    assertEquals(0, code, sink::toString);
    return after - before;
  }

  /**
   * Without {@code --model} the run allocates the state and less than a read-out besides (measured
   * 2 MB: the rows, the report); the read-out alone is 8 MiB. The stream: a shuffle buffer of one
   * row.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aRunWithoutModelReadsNoWeightOut(boolean streamed) throws IOException {
    Path data = rows("small.vw", 2, false);
    List<String> args =
        new ArrayList<>(
            List.of(
                "train",
                "--data",
                data.toString(),
                "--bits",
                "20",
                "--algorithm",
                "scinol2",
                "--no-shuffle"));
    if (streamed) {
      args.addAll(List.of("--shuffle-buffer", "1"));
    }
    allocatedBy(args); // the first run in this JVM also loads classes: measured after it
    long bytes = allocatedBy(args);
    assertTrue(bytes > STATE, "the state itself was allocated here: " + bytes);
    assertTrue(bytes < STATE + READ_OUT, "read out without --model: " + (bytes >> 20) + " MiB");
  }

  /** The JSON line less its timings and the model's name. */
  private static String figures(CliRun r) {
    assertEquals(0, r.code(), r.err() + r.out());
    return r.out()
        .replaceAll("\"(seconds|examples_per_second|nonzeros_per_second)\": [^,]*,", "")
        .replaceAll("\"steady_(seconds|examples_per_second)\": [^,]*,", "")
        .replaceAll("\"model\": [^,]*,", "");
  }

  /**
   * The same figures with and without {@code --model}: losses, errors, counts, dimension and
   * outputs; binary and multiclass, in memory and streamed, JSON and text.
   */
  @ParameterizedTest
  @ValueSource(strings = {"binary", "multiclass", "binary-stream", "multiclass-stream"})
  void aRunWithoutModelPrintsWhatItPrintedWithIt(String kind) throws IOException {
    Path data = rows(kind + ".vw", 300, kind.startsWith("multiclass"));
    List<String> args =
        new ArrayList<>(List.of("train", "--data", data.toString(), "--bits", "12", "--seed", "3"));
    if (kind.endsWith("stream")) {
      args.addAll(List.of("--shuffle-buffer", "64"));
    }
    List<String> json = new ArrayList<>(args);
    json.add("--json");
    List<String> model = new ArrayList<>(json);
    model.addAll(List.of("--model", dir.resolve(kind + ".model").toString()));
    String with = figures(CliRun.of(model.toArray(new String[0])));
    String without = figures(CliRun.of(json.toArray(new String[0])));
    assertEquals(with, without);
    assertTrue(
        without.contains("\"d\": 4096, \"outputs\": " + (kind.startsWith("m") ? 3 : 1)), without);
    CliRun text = CliRun.of(args.toArray(new String[0]));
    assertEquals(0, text.code(), text.err());
    assertTrue(
        text.out()
            .startsWith(
                "data: "
                    + data
                    + "; n = 300, d = 4096, "
                    + (kind.startsWith("m") ? "3 classes (one-vs-rest)" : "binary labels")),
        text.out());
  }

  /** {@code --model} writes the library trainer's read-out, byte for byte, whatever it skips. */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aRunWithModelWritesTheLibrarysModel(boolean streamed) throws IOException {
    StringBuilder s = new StringBuilder();
    Random r = new Random(11);
    for (int i = 0; i < 400; i++) {
      s.append(r.nextBoolean() ? "+1" : "-1");
      for (int j = 1; j <= 20; j += 1 + r.nextInt(4)) {
        s.append(' ').append(j).append(':').append(r.nextGaussian());
      }
      s.append('\n');
    }
    Path data = dir.resolve("rows.svm");
    Files.writeString(data, s);
    Path cli = dir.resolve("cli.model");
    List<String> args =
        new ArrayList<>(
            List.of(
                "train",
                "--data",
                data.toString(),
                "--algorithm",
                "ftrl",
                "--no-shuffle",
                "--dimension",
                "21",
                "--model",
                cli.toString()));
    if (streamed) {
      args.addAll(List.of("--shuffle-buffer", "64"));
    }
    CliRun run = CliRun.of(args.toArray(new String[0]));
    assertEquals(0, run.code(), run.err());
    Path lib = dir.resolve("lib.model");
    OnlineTrainer.train(
            TrainerConfig.of(AlgorithmSpec.of("ftrl")).withShuffle(false, 1),
            LibSvmReader.read(data, 21),
            null,
            null)
        .model()
        .save(lib);
    assertArrayEquals(Files.readAllBytes(lib), Files.readAllBytes(cli));
  }
}
