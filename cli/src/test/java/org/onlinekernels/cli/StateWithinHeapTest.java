package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Saving and loading a state stream: {@code train --save-state --model} of a model whose state is
 * 32 MiB (ScInOL2, 2^21 coordinates, float) succeeds in a JVM allowed 96 MiB of heap, and writes
 * the bytes an unconstrained run writes; so does resuming that state with {@code --initial} in 80
 * MiB. Holding the files in memory (a copy of the state, a growing byte array and its copies; or
 * the file's bytes and each output's image copied out of them) needs several times the state and
 * runs out of heap there.
 */
@Tag("long")
class StateWithinHeapTest {
  @TempDir Path dir;

  @Test
  void aStateAndAModelAreSavedInAHeapThreeTimesTheState() throws Exception {
    Path data = rows();
    Path smallState = dir.resolve("small.state");
    Path smallModel = dir.resolve("small.model");
    inJvm(
        "-Xmx96m",
        args(
            data,
            21,
            List.of("--save-state", smallState.toString(), "--model", smallModel.toString())));

    Path state = dir.resolve("here.state");
    Path model = dir.resolve("here.model");
    here(args(data, 21, List.of("--save-state", state.toString(), "--model", model.toString())));
    assertArrayEquals(Files.readAllBytes(state), Files.readAllBytes(smallState), "the state file");
    assertArrayEquals(Files.readAllBytes(model), Files.readAllBytes(smallModel), "the model file");
    assertTrue(Files.size(smallState) > 32L << 20, "a state of at least 32 MiB was saved");
  }

  /**
   * The model alone, at 2^22 coordinates (a 64 MiB state and 32 MiB of double weights), within 144
   * MiB of heap (it needs about 120): the model's text built in memory and copied twice needs more
   * than 160.
   */
  @Test
  void aModelIsSavedInAHeapJustAboveStateAndWeights() throws Exception {
    Path data = rows();
    Path smallModel = dir.resolve("small.model");
    inJvm("-Xmx144m", args(data, 22, List.of("--model", smallModel.toString())));
    Path model = dir.resolve("here.model");
    here(args(data, 22, List.of("--model", model.toString())));
    assertArrayEquals(Files.readAllBytes(model), Files.readAllBytes(smallModel), "the model file");
  }

  /**
   * A 32 MiB state resumed, trained on and saved again in 80 MiB of heap: the state file is read in
   * place, in chunks, into the resumed optimizer; reading it whole (32 MiB) and copying the image
   * out of it (32 MiB more) beside the optimizer's own 32 MiB does not fit.
   */
  @Test
  void aStateIsResumedInAHeapTwoAndAHalfTimesTheState() throws Exception {
    Path data = rows();
    Path state = dir.resolve("first.state");
    here(args(data, 21, List.of("--save-state", state.toString())));
    assertTrue(Files.size(state) > 32L << 20, "a state of at least 32 MiB");
    Path small = dir.resolve("small-resumed.state");
    inJvm(
        "-Xmx80m",
        args(data, 21, List.of("--initial", state.toString(), "--save-state", small.toString())));
    Path resumed = dir.resolve("resumed.state");
    here(
        args(data, 21, List.of("--initial", state.toString(), "--save-state", resumed.toString())));
    assertArrayEquals(Files.readAllBytes(resumed), Files.readAllBytes(small), "the resumed state");
  }

  private Path rows() throws Exception {
    Path data = dir.resolve("rows.vw");
    Files.writeString(data, "1 |f a b c\n-1 |f b d\n1 |f a e\n");
    return data;
  }

  private static void inJvm(String heap, List<String> args) throws Exception {
    List<String> cmd = MainJvm.command(List.of(heap), args.toArray(String[]::new));
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .start();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), err);
    assertEquals(0, p.exitValue(), heap + ": " + err);
  }

  private static void here(List<String> args) {
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    PrintStream quiet = new PrintStream(sink, true, StandardCharsets.UTF_8);
    assertEquals(0, Main.run(args.toArray(String[]::new), quiet, quiet), sink::toString);
  }

  private static List<String> args(Path data, int bits, List<String> outputs) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "train",
                "--data",
                data.toString(),
                "--format",
                "vw",
                "--bits",
                Integer.toString(bits),
                "--algorithm",
                "scinol2",
                "--no-shuffle"));
    args.addAll(outputs);
    return args;
  }
}
