package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.onlinekernels.data.SyntheticScInOL;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * {@code train --threads T|auto [--deterministic] [--merge-every N]}: runs in the mode asked for
 * (or the fastest), reports it, writes a model; bad values are usage errors.
 */
class ParallelTrainCommandTest {
  private static int run(ByteArrayOutputStream out, ByteArrayOutputStream err, String... args) {
    return Main.run(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  /** 2,000 rows of the ScInOL paper's problem, as LIBSVM text. */
  private static Path write(Path tmp) throws java.io.IOException {
    Path data = tmp.resolve("train.svm");
    StringBuilder sb = new StringBuilder();
    var ds = SyntheticScInOL.generate(2000, 1);
    int[] idx = ds.indices();
    double[] val = ds.values();
    for (int r = 0; r < ds.size(); r++) {
      sb.append(ds.label(r) > 0 ? "+1" : "-1");
      for (int j = ds.rowStart(r); j < ds.rowEnd(r); j++) {
        sb.append(' ').append(idx[j] + 1).append(':').append(val[j]);
      }
      sb.append('\n');
    }
    Files.writeString(data, sb);
    return data;
  }

  @Test
  void reportsWhereEachThreadSpentItsTime(@TempDir Path tmp) throws Exception {
    Path data = write(tmp);
    ByteArrayOutputStream json = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(
        0,
        run(json, err, "train", "--data", data.toString(), "--threads", "3", "--json"),
        err.toString());
    String j = json.toString();
    assertTrue(j.contains("\"thread_report\": {\"fits\": 1, "), j);
    for (int t = 0; t < 3; t++) {
      assertTrue(j.contains("{\"thread\": " + t + ", \"cpu_seconds\": "), j);
    }
    assertTrue(!j.contains("\"thread\": 3,"), j);
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    assertEquals(
        0,
        run(text, err, "train", "--data", data.toString(), "--threads", "2", "--verbose"),
        err.toString());
    assertTrue(text.toString().contains("threads at work: 1 fit(s), "), text.toString());
    assertTrue(text.toString().contains("  thread 1: CPU "), text.toString());
    // Without --verbose the text stays as it was; one thread has no report.
    ByteArrayOutputStream plain = new ByteArrayOutputStream();
    assertEquals(0, run(plain, err, "train", "--data", data.toString(), "--threads", "2"));
    assertTrue(!plain.toString().contains("threads at work"), plain.toString());
    ByteArrayOutputStream one = new ByteArrayOutputStream();
    assertEquals(0, run(one, err, "train", "--data", data.toString(), "--json"));
    assertTrue(one.toString().contains("\"thread_report\": null"), one.toString());
  }

  @Test
  void trainsOnTwoThreads(@TempDir Path tmp) throws Exception {
    Path data = write(tmp);
    Path model = tmp.resolve("m.model");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        run(
            out,
            err,
            "train",
            "--data",
            data.toString(),
            "--threads",
            "2",
            "--merge-every",
            "500",
            "--model",
            model.toString());
    assertEquals(0, code, err.toString());
    assertTrue(
        out.toString().contains("threads: 2, parameter mixing, learners merged every 500 examples"),
        out.toString());
    // Without --deterministic or --merge-every: the fastest mode, shared state for ScInOL2.
    ByteArrayOutputStream fast = new ByteArrayOutputStream();
    assertEquals(
        0,
        run(fast, err, "train", "--data", data.toString(), "--threads", "2", "--json"),
        err.toString());
    assertTrue(fast.toString().contains("\"mode\": \"shared\""), fast.toString());
    assertTrue(fast.toString().contains("\"merge_every\": null"), fast.toString());
    assertTrue(fast.toString().contains("\"threads_reason\": null"), fast.toString());
    // auto on 2,000 rows: too small a job for a second thread to gain; it says so.
    ByteArrayOutputStream auto = new ByteArrayOutputStream();
    assertEquals(
        0,
        run(auto, err, "train", "--data", data.toString(), "--threads", "auto", "--json"),
        err.toString());
    assertTrue(auto.toString().contains("\"threads\": 1, "), auto.toString());
    assertTrue(auto.toString().contains("\"mode\": \"sequential\""), auto.toString());
    assertTrue(auto.toString().contains("\"threads_reason\": \"auto: 1 "), auto.toString());
    ByteArrayOutputStream autoText = new ByteArrayOutputStream();
    assertEquals(0, run(autoText, err, "train", "--data", data.toString(), "--threads", "auto"));
    assertTrue(autoText.toString().contains("threads chosen: auto: 1 "), autoText.toString());
    ByteArrayOutputStream det = new ByteArrayOutputStream();
    assertEquals(
        0,
        run(
            det,
            err,
            "train",
            "--data",
            data.toString(),
            "--threads",
            "2",
            "--deterministic",
            "--json"),
        err.toString());
    assertTrue(det.toString().contains("\"mode\": \"mixing\""), det.toString());
    assertTrue(det.toString().contains("\"threads\": 2"), det.toString());
    assertEquals(SyntheticScInOL.DIMENSION, LinearModel.load(model).dimension());
    assertEquals(
        2,
        run(
            new ByteArrayOutputStream(),
            new ByteArrayOutputStream(),
            "train",
            "--data",
            data.toString(),
            "--threads",
            "0"));
    assertEquals(
        2,
        run(
            new ByteArrayOutputStream(),
            new ByteArrayOutputStream(),
            "train",
            "--data",
            data.toString(),
            "--threads",
            "2",
            "--merge-every",
            "-5"));
    assertEquals(
        2,
        run(
            new ByteArrayOutputStream(),
            new ByteArrayOutputStream(),
            "train",
            "--data",
            data.toString(),
            "--threads",
            "2",
            "--dense"));
  }
}
