package org.onlinekernels.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.onlinekernels.spark.SparkTestSession.data;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The training job's entry point on bad data, in the shared {@code local[2]} session: a test file
 * with a feature the training file lacks is scored (that feature counts 0, as {@code predict} does)
 * and the model is written; data Spark's reader or the trainer refuses ends in one line naming the
 * file, indices 1-based, exit code 1.
 */
@Tag("long")
class EntryPointErrorsTest {
  private record Outcome(int code, String out, String err) {}

  private static Outcome job(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
    int code =
        JobFailure.run(
            () -> SparkTrain.run(SparkTestSession.get(), SparkTrain.options(args), o),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Outcome(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aTestFileWiderThanTheModelIsScoredAndTheModelWritten(@TempDir Path tmp) throws Exception {
    Path heart = data("heart_scale.svm");
    Path wide = tmp.resolve("wide.svm");
    Files.writeString(wide, "+1 1:0.5 20:1\n-1 2:1\n");
    Path model = tmp.resolve("heart.model");
    Path plain = tmp.resolve("plain.model");
    Outcome o =
        job(
            "--train",
            heart.toString(),
            "--test",
            wide.toString(),
            "--algorithm",
            "adagrad",
            "--model",
            model.toString());
    assertEquals(0, o.code(), o.err());
    assertTrue(o.out().contains("test: loss") && o.out().contains("on 2 rows"), o.out());
    assertEquals(
        0,
        job("--train", heart.toString(), "--algorithm", "adagrad", "--model", plain.toString())
            .code());
    assertArrayEquals(Files.readAllBytes(plain), Files.readAllBytes(model));
  }

  @Test
  void badDataEndsInOneLineNamingTheFile(@TempDir Path tmp) throws Exception {
    String[][] cases = {
      {"+1 1:0.5 3:abc\n-1 2:1\n", "not a number: \"abc\""},
      {"+1 0:1\n-1 2:1\n", "feature indices must be 1-based and increasing, found 0 in the line"},
      {"+1 3:1 2:1\n-1 2:1\n", "found 2 after 3 in the line \"+1 3:1 2:1\""},
      {"+1 1:1\n2.5 2:1\n0 1:1\n", "labels must be"},
      {"+1 1:0.5 20:1\n-1 2:1\n", "feature index 20 is beyond the dimension 13"},
    };
    for (int i = 0; i < cases.length; i++) {
      Path f = tmp.resolve("bad" + i + ".svm");
      Files.writeString(f, cases[i][0]);
      Outcome o = job("--train", f.toString(), "--num-features", "13", "--algorithm", "adagrad");
      assertEquals(JobFailure.FAILED, o.code(), o.err());
      List<String> lines = o.err().lines().toList();
      assertEquals(1, lines.size(), o.err());
      assertTrue(lines.get(0).startsWith("error: " + f + ": "), o.err());
      assertTrue(lines.get(0).contains(cases[i][1]), o.err());
    }
    Outcome missing = job("--train", tmp.resolve("missing.svm").toString());
    assertEquals(JobFailure.FAILED, missing.code(), missing.err());
    assertTrue(missing.err().contains("missing.svm: no such file"), missing.err());
  }
}
