package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MainTest {
  private String out;
  private String err;

  private int run(String... args) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code = Main.run(args, new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8));
    out = o.toString(StandardCharsets.UTF_8);
    err = e.toString(StandardCharsets.UTF_8);
    return code;
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
      "none                      | missing command; the only command is 'demo'",
      "train                     | unknown command 'train'; the only command is 'demo'",
      "demo --x                  | unknown option '--x'",
      "demo extra                | unexpected argument 'extra'",
      "demo --n                  | --n needs a value",
      "demo --n 0                | --n must be at least 1, got 0",
      "demo --n ten              | --n must be a whole number, got 'ten'",
      "demo --n 5 --n 6          | --n given twice",
      "demo --seed 1.5           | --seed must be a whole number (64-bit), got '1.5'",
      "demo --data=              | --data needs a file name",
      "demo --data f.svm --seed 3 | --seed only applies to the synthetic problem, not to --data",
  })
  void usageErrorsAreOneLineAndExitCode2(String args, String message) {
    String[] a = args.equals("none") ? new String[0] : args.split(" ");
    assertEquals(2, run(a));
    assertEquals("error: " + message + " (see --help)" + System.lineSeparator(), err);
    assertEquals("", out);
  }

  @Test
  void helpPrintsUsage() {
    assertEquals(0, run("--help"));
    assertTrue(out.startsWith("usage: Main demo"), out);
    assertEquals(0, run("demo", "--help"));
    assertTrue(out.startsWith("usage: Main demo"), out);
    assertEquals("", err);
  }

  @Test
  void syntheticDemoPrintsTable() {
    assertEquals(0, run("demo", "--n", "2000", "--seed", "4"));
    assertEquals("", err);
    assertTrue(out.contains("n = 2000, d = 21"), out);
    assertTrue(out.contains("seed 4"), out);
    assertTrue(out.contains("algorithm"), out);
    assertTrue(out.contains("baseline: zero"), out);
    assertTrue(out.contains("0.693147"), out);
    assertTrue(out.contains("baseline: true u"), out);
  }

  @Test
  void dataFileDemoUsesOneVsRestForMulticlass(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("m.svm");
    Files.writeString(f, "0 1:1\n2 2:1\n1 1:1 2:1\n0\n");
    assertEquals(0, run("demo", "--data", f.toString(), "--n=3"));
    assertEquals("", err);
    assertTrue(out.contains("n = 3, d = 2"), out);
    assertTrue(out.contains("3 classes, one-vs-rest of class 0"), out);
  }

  @Test
  void malformedDataFileIsOneLineExitCode1(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("bad.svm");
    Files.writeString(f, "+1 1:1\n+1 3:1 2:1\n");
    assertEquals(1, run("demo", "--data", f.toString()));
    assertEquals("error: " + f + ":2: index 2 after 3: indices must be strictly increasing" + System.lineSeparator(), err);
  }

  @Test
  void missingDataFileIsOneLineExitCode1(@TempDir Path dir) {
    Path f = dir.resolve("nope.svm");
    assertEquals(1, run("demo", "--data", f.toString()));
    assertEquals("error: cannot read " + f + ": no such file" + System.lineSeparator(), err);
  }

  @Test
  void emptyDataFile(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("empty.svm");
    Files.writeString(f, "# nothing\n");
    assertEquals(1, run("demo", "--data", f.toString()));
    assertEquals("error: " + f + " has no examples" + System.lineSeparator(), err);
  }
}
