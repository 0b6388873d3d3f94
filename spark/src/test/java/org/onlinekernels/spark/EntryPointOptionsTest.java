package org.onlinekernels.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The entry points' checks that come before Spark starts (no session is made here, so this runs in
 * the default suite): the model may not replace an input, by any spelling or link; a model path
 * into a missing directory fails before the training file is even looked at; bad options are usage
 * errors; each failure is one line with the command line's exit code; Spark's reader's messages are
 * told in the file's terms (1-based indices, the file named).
 */
class EntryPointOptionsTest {
  /** Exit code and stderr of {@code SparkTrain} or {@code SparkStream} with {@code args}. */
  private record Outcome(int code, String err) {}

  private static Outcome train(String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        SparkTrain.run(
            args,
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Outcome(code, err.toString(StandardCharsets.UTF_8));
  }

  private static Outcome stream(String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        SparkStream.run(
            args,
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Outcome(code, err.toString(StandardCharsets.UTF_8));
  }

  /** Exit {@code code} with one line {@code error: ...} containing {@code words}. */
  private static void assertOneLine(Outcome o, int code, String words) {
    assertEquals(code, o.code(), o.err());
    List<String> lines = o.err().lines().toList();
    assertEquals(1, lines.size(), o.err());
    assertTrue(lines.get(0).startsWith("error: ") && lines.get(0).contains(words), o.err());
  }

  @Test
  void theModelMayNotReplaceTheTrainingOrTestFile(@TempDir Path tmp) throws Exception {
    Path tiny = tmp.resolve("tiny.svm");
    byte[] content = "+1 1:1\n-1 2:1\n".getBytes(StandardCharsets.US_ASCII);
    Files.write(tiny, content);
    Path link = Files.createSymbolicLink(tmp.resolve("link.model"), tiny);
    String other = tmp.resolve("sub/../tiny.svm").toString();
    Files.createDirectories(tmp.resolve("sub"));
    for (String[] args :
        List.of(
            new String[] {
              "--master", "local[1]", "--train", tiny.toString(), "--model", tiny.toString()
            },
            new String[] {"--master", "local[1]", "--train", tiny.toString(), "--model", other},
            new String[] {
              "--master", "local[1]", "--train", tiny.toString(), "--model", link.toString()
            },
            new String[] {
              "--master",
              "local[1]",
              "--train",
              "elsewhere.svm",
              "--test",
              tiny.toString(),
              "--model",
              tiny.toString()
            })) {
      assertOneLine(train(args), JobFailure.USAGE, "refusing to overwrite an input");
      assertArrayEquals(content, Files.readAllBytes(tiny));
    }
  }

  @Test
  void aModelIntoAMissingDirectoryFailsBeforeTheDataIsRead(@TempDir Path tmp) {
    // The training file is missing too: the model's directory is what the job must report, so it
    // is checked first (it was found only after training).
    Outcome o =
        train(
            "--master",
            "local[1]",
            "--train",
            tmp.resolve("missing.svm").toString(),
            "--model",
            tmp.resolve("no/such/dir/m.model").toString());
    assertOneLine(o, JobFailure.FAILED, "no such directory");
  }

  @Test
  void badOptionsAreUsageErrorsInOneLine() {
    String[][] cases = {
      {"--master", "local[1]", "--train", "t.svm", "--partitions", "x"},
      {"--master", "local[1]", "--train", "t.svm", "--epochs", "0"},
      {"--master", "local[1]", "--train", "t.svm", "--algorithm", "adagrad", "--params", "eta=-1"},
      {"--master", "local[1]", "--train", "t.svm", "--algorithm", "ogd"},
      {"--master", "local[1]", "--train", "t.svm", "--bogus", "1"},
      {"--master", "local[1]", "--train"},
      {"--master", "local[1]"},
    };
    String[] words = {
      "--partitions", "--epochs", "eta", "ogd", "unknown option", "needs a value", "--train"
    };
    for (int i = 0; i < cases.length; i++) {
      assertOneLine(train(cases[i]), JobFailure.USAGE, words[i]);
    }
    assertOneLine(stream("--master", "local[1]", "--input", "in"), JobFailure.USAGE, "--state");
    String[] streamed = {
      "--master",
      "local[1]",
      "--input",
      "in",
      "--state",
      "s",
      "--checkpoint",
      "c",
      "--num-features",
      "13"
    };
    assertOneLine(stream(concat(streamed, "--classes", "1")), JobFailure.USAGE, "--classes");
    assertOneLine(stream(concat(streamed, "--format", "csv")), JobFailure.USAGE, "--format");
    assertOneLine(stream(concat(streamed, "--trigger", "soon")), JobFailure.USAGE, "--trigger");
  }

  private static String[] concat(String[] a, String... b) {
    String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  /**
   * Spark's LIBSVM reader reports indices 0-based and names no file (its messages as Spark 4.1
   * words them, wrapped as a failed task's exception reaches the driver); SparkEntryPointErrorsTest
   * runs the reader itself.
   */
  @Test
  void theReadersMessagesAreToldInTheFilesTerms() {
    String[][] cases = {
      {
        "requirement failed: indices should be one-based and in ascending order;"
            + " found current=-1, previous=-1; line=\"+1 0:1\"",
        "d.svm: feature indices must be 1-based and increasing, found 0 in the line \"+1 0:1\""
      },
      {
        "requirement failed: indices should be one-based and in ascending order;"
            + " found current=1, previous=2; line=\"+1 3:1 2:1\"",
        "d.svm: feature indices must be 1-based and increasing, found 2 after 3 in the line"
            + " \"+1 3:1 2:1\""
      },
      {
        "requirement failed: Index 19 out of bounds for vector of size 13",
        "d.svm: feature index 20 is beyond the dimension 13 (--num-features)"
      },
    };
    for (String[] c : cases) {
      RuntimeException spark =
          new RuntimeException(
              "Job aborted due to stage failure: ...", new IllegalArgumentException(c[0]));
      RuntimeException e = JobFailure.explained("d.svm", spark);
      assertTrue(e instanceof JobFailure f && f.exitCode() == JobFailure.FAILED, e.toString());
      assertEquals(c[1], e.getMessage());
    }
    RuntimeException nf =
        JobFailure.explained(
            "d.svm",
            new RuntimeException("stage", new NumberFormatException("For input string: \"abc\"")));
    assertEquals("d.svm: not a number: \"abc\"", nf.getMessage());
    // The task's exception not attached, only in the message (as the driver sometimes gets it).
    RuntimeException inMessage =
        JobFailure.explained(
            "d.svm",
            new RuntimeException(
                "Job aborted due to stage failure: Task 0 in stage 0.0 failed 1 times, most recent"
                    + " failure: Lost task 0.0 in stage 0.0 (TID 0) (192.0.2.2 executor driver):"
                    + " java.lang.IllegalArgumentException: requirement failed: Index 19 out of"
                    + " bounds for vector of size 13\n\tat org.apache.spark.ml.linalg.Vectors"));
    assertEquals(
        "d.svm: feature index 20 is beyond the dimension 13 (--num-features)",
        inMessage.getMessage());
    // Not the data's fault: passed on as it is (an internal error).
    IllegalStateException bug = new IllegalStateException("a bug");
    assertEquals(bug, JobFailure.explained("d.svm", bug));
  }
}
