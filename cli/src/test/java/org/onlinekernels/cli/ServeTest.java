package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code serve} over the loopback address: its predictions are {@code predict}'s, bit for bit; with
 * {@code --learn} a stream of labelled lines leaves the state {@code train --no-shuffle} leaves on
 * them, and the answers are the progressive predictions; the state is saved at shutdown and every
 * {@code --save-every} examples.
 */
class ServeTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "{0} {1} classes {2}")
  @CsvSource({
    "libsvm, model, 0",
    "libsvm, state, 4",
    "vw, model, 0",
    "vw, state, 3",
  })
  void predictionsAreThoseOfPredict(String format, String kind, int classes) throws Exception {
    boolean vw = format.equals("vw");
    StreamFiles.Parts p =
        vw
            ? StreamFiles.vw(dir, "p", 120, 60, classes, 3)
            : StreamFiles.libsvm(dir, "p", 120, 60, 30, classes, 3);
    Path model = dir.resolve(kind.equals("state") ? "m.okst" : "m.model");
    String hashing = vw ? " --bits 10 -q ab" : "";
    CliRun t =
        CliRun.line(
            "train --data "
                + p.a()
                + hashing
                + (kind.equals("state") ? " --save-state " : " --model ")
                + model);
    assertEquals(0, t.code(), t.err());
    // A model file knows no input settings: they are given again, as to predict.
    String input = kind.equals("model") && vw ? " --format vw" + hashing : "";
    CliRun predicted =
        CliRun.line("predict --model " + model + " --data " + p.b() + " --out -" + input);
    assertEquals(0, predicted.code(), predicted.err());
    try (ServedProcess s = new ServedProcess("--model " + model + input)) {
      List<String> answers = s.ask(Files.readAllLines(p.b()));
      assertEquals(predicted.out().lines().toList(), answers);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"libsvm, ''", "vw, ' --bits 9 -q ab'", "multiclass, ''"})
  void learningLeavesTheStateOfTrainNoShuffle(String format, String opts) throws Exception {
    StreamFiles.Parts p =
        switch (format) {
          case "vw" -> StreamFiles.vw(dir, "l", 80, 150, 0, 5);
          case "multiclass" -> StreamFiles.libsvm(dir, "l", 80, 150, 20, 3, 5);
          default -> StreamFiles.libsvm(dir, "l", 80, 150, 20, 0, 5);
        };
    Path initial = dir.resolve("a.okst");
    assertEquals(
        0, CliRun.line("train --data " + p.a() + opts + " --save-state " + initial).code());
    Path trained = dir.resolve("trained.okst");
    Path prog = dir.resolve("trained.prog");
    CliRun t =
        CliRun.line(
            "train --initial "
                + initial
                + " --data "
                + p.b()
                + " --no-shuffle --save-state "
                + trained
                + " --progressive-out "
                + prog);
    assertEquals(0, t.code(), t.err());
    Path served = dir.resolve("served.okst");
    List<String> answers;
    try (ServedProcess s =
        new ServedProcess("--initial " + initial + " --learn --save-state " + served)) {
      answers = s.ask(Files.readAllLines(p.b()));
    } // the shutdown path saves the state
    assertArrayEquals(Files.readAllBytes(trained), Files.readAllBytes(served), "states differ");
    List<String> progressive = new ArrayList<>();
    for (String line : Files.readAllLines(prog)) {
      String[] f = line.split(" ", 4);
      progressive.add(f[3]);
    }
    assertEquals(progressive, answers, "served answers are not the progressive predictions");
  }

  /**
   * At shutdown (SIGTERM's path) a learning serve says what it saved, as train does: the state file
   * and the examples in it, or that what it learned was not saved (it used to say nothing).
   */
  @Test
  void shutdownSaysWhatItSaved() throws Exception {
    StreamFiles.Parts p = StreamFiles.libsvm(dir, "w", 40, 3, 10, 0, 6);
    Path initial = dir.resolve("w.okst");
    assertEquals(0, CliRun.line("train --data " + p.a() + " --save-state " + initial).code());
    Path served = dir.resolve("w-served.okst");
    for (boolean save : new boolean[] {true, false}) {
      ServedProcess s =
          new ServedProcess(
              "--initial " + initial + " --learn" + (save ? " --save-state " + served : ""));
      s.ask(Files.readAllLines(p.b()));
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
      int code =
          ServeCommand.stop(
              s.server,
              new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8),
              new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
      assertEquals(0, code, err.toString());
      assertEquals(
          save
              ? "state: " + served + " (43 examples trained in all; 3 learned while serving)\n"
              : "3 examples learned while serving, not saved (no --save-state)\n",
          out.toString(java.nio.charset.StandardCharsets.UTF_8));
    }
  }

  @Test
  void stateIsSavedEveryNExamplesBeforeTheAnswer() throws Exception {
    StreamFiles.Parts p = StreamFiles.libsvm(dir, "e", 50, 30, 10, 0, 9);
    Path initial = dir.resolve("a.okst");
    assertEquals(0, CliRun.line("train --data " + p.a() + " --save-state " + initial).code());
    Path served = dir.resolve("served.okst");
    List<String> b = Files.readAllLines(p.b());
    try (ServedProcess s =
            new ServedProcess(
                "--initial " + initial + " --learn --save-state " + served + " --save-every 7");
        ServedProcess.Client c = s.connect()) {
      for (int i = 1; i <= b.size(); i++) {
        c.ask(b.get(i - 1));
        long saved =
            Files.exists(served)
                ? Long.parseLong(TrainingStateTestAccess.setting(served, "examples"))
                : 50;
        assertEquals(50 + (i / 7) * 7, saved, "after example " + i);
      }
    }
    assertEquals("80", TrainingStateTestAccess.setting(served, "examples"));
  }

  @Test
  void aBadLineGetsAnErrorLineAndTheNextLineIsAnswered() throws Exception {
    StreamFiles.Parts p = StreamFiles.libsvm(dir, "b", 40, 5, 10, 0, 2);
    Path model = dir.resolve("m.model");
    assertEquals(0, CliRun.line("train --data " + p.a() + " --model " + model).code());
    String good = Files.readAllLines(p.b()).get(0);
    String expected =
        CliRun.line("predict --model " + model + " --data " + p.b() + " --out -")
            .out()
            .lines()
            .findFirst()
            .orElseThrow();
    try (ServedProcess s = new ServedProcess("--model " + model);
        ServedProcess.Client c = s.connect()) {
      assertEquals(expected, c.ask(good));
      assertEquals("error: line 2: 'x' has no ':' (features are index:value)", c.ask("1 x"));
      assertEquals(
          "error: line 3: index 3 after 5: indices must be strictly increasing",
          c.ask("1 5:1 3:1"));
      assertTrue(c.ask("").startsWith("error: line 4: no example"));
      assertEquals(expected, c.ask(good));
    }
  }
}
