package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.onlinekernels.trainer.AlgorithmSpec;

/**
 * {@code train} on an input longer than its shuffle buffer streams it (docs/CLI.md, "Streaming"):
 * in file order it gives the in-memory run's model, progressive predictions, holdout and state bit
 * for bit, for every rule; it reads standard input and a cache, and refuses what a stream cannot
 * know in advance with a line that says what to give.
 */
class StreamTrainTest {
  @TempDir Path dir;

  static List<String> rules() {
    return AlgorithmSpec.NAMES;
  }

  /** Runs {@code train} with {@code args}, asserting success; returns the run. */
  private static CliRun ok(String... args) {
    String[] all = new String[args.length + 1];
    all[0] = "train";
    System.arraycopy(args, 0, all, 1, args.length);
    CliRun r = CliRun.of(all);
    assertEquals(0, r.code(), String.join(" ", all) + "\n" + r.err() + r.out());
    return r;
  }

  /** The in-memory run and the streamed one (buffer of 64 rows) write the same files. */
  private void sameFiles(String what, List<String> common, String... outs) throws IOException {
    List<String> memory = new ArrayList<>(common);
    List<String> stream = new ArrayList<>(common);
    stream.addAll(List.of("--shuffle-buffer", "64"));
    for (String o : outs) {
      memory.addAll(List.of(o, dir.resolve("mem" + o).toString()));
      stream.addAll(List.of(o, dir.resolve("str" + o).toString()));
    }
    CliRun m = ok(memory.toArray(new String[0]));
    CliRun s = ok(stream.toArray(new String[0]));
    for (String o : outs) {
      assertArrayEquals(
          Files.readAllBytes(dir.resolve("mem" + o)),
          Files.readAllBytes(dir.resolve("str" + o)),
          what + ": " + o);
    }
    assertEquals(m.json("progressive", "loss"), s.json("progressive", "loss"), what);
  }

  /** The default rule in the default stage; every rule in the long one (about 2 s per rule). */
  @Test
  void theDefaultRuleStreamedInFileOrderGivesTheInMemoryRunsFilesBitForBit() throws IOException {
    streamedInFileOrderGivesTheInMemoryRunsFilesBitForBit("scinol2");
  }

  @Tag("long")
  @ParameterizedTest
  @MethodSource("rules")
  void everyRuleStreamedInFileOrderGivesTheInMemoryRunsFilesBitForBit(String rule)
      throws IOException {
    streamedInFileOrderGivesTheInMemoryRunsFilesBitForBit(rule);
  }

  private void streamedInFileOrderGivesTheInMemoryRunsFilesBitForBit(String rule)
      throws IOException {
    StreamFiles.Parts vw = StreamFiles.vw(dir, "v", 150, 150, 0, 3);
    List<String> args =
        new ArrayList<>(
            List.of(
                "--data",
                vw.ab().toString(),
                "--algorithm",
                rule,
                "-q",
                "ab",
                "--bits",
                "12",
                "--no-shuffle",
                "--epochs",
                "2",
                "--json"));
    String[] outs =
        rule.equals("ogd")
            ? new String[] {"--model", "--progressive-out"}
            : new String[] {"--model", "--progressive-out", "--save-state"};
    sameFiles(rule + " vw", args, outs);
    args.addAll(List.of("--type", "double", "--holdout-period", "7"));
    sameFiles(rule + " vw double holdout", args, outs);
  }

  @Test
  void libsvmClassesAndTheDimensionComeFromTheWholeFile() throws IOException {
    // The largest index and class are in the last rows: a pre-scan finds them.
    StreamFiles.Parts svm = StreamFiles.libsvm(dir, "s", 200, 100, 30, 4, 5);
    List<String> lines = new ArrayList<>(Files.readAllLines(svm.ab()));
    lines.add("5 31:1.5");
    Path f = dir.resolve("late.svm");
    Files.write(f, lines);
    sameFiles(
        "libsvm",
        List.of("--data", f.toString(), "--no-shuffle", "--json", "--normalize"),
        "--model",
        "--progressive-out");
  }

  @Test
  void parameterMixingOnAStreamGivesTheInMemoryModel() throws IOException {
    StreamFiles.Parts vw = StreamFiles.vw(dir, "p", 400, 200, 0, 9);
    sameFiles(
        "mixing",
        List.of(
            "--data",
            vw.ab().toString(),
            "--threads",
            "2",
            "--merge-every",
            "32",
            "--no-shuffle",
            "--bits",
            "12",
            "--json"),
        "--model");
  }

  @Test
  void standardInputIsReadAsAStream() throws IOException {
    StreamFiles.Parts vw = StreamFiles.vw(dir, "i", 200, 100, 0, 4);
    CliRun file =
        ok("--data", vw.ab().toString(), "--no-shuffle", "--json", "--model", dir + "/f.model");
    InputStream saved = System.in;
    try {
      System.setIn(new ByteArrayInputStream(Files.readAllBytes(vw.ab())));
      ok(
          "--data",
          "-",
          "--format",
          "vw",
          "--no-shuffle",
          "--shuffle-buffer",
          "50",
          "--model",
          dir + "/i.model");
      assertArrayEquals(
          Files.readAllBytes(dir.resolve("f.model")), Files.readAllBytes(dir.resolve("i.model")));
      System.setIn(new ByteArrayInputStream(Files.readAllBytes(vw.ab())));
      CliRun small = ok("--data", "-", "--format", "vw", "--no-shuffle", "--json");
      assertEquals(file.json("progressive", "loss"), small.json("progressive", "loss"));
      StreamFiles.Parts svm = StreamFiles.libsvm(dir, "i", 200, 100, 20, 0, 4);
      System.setIn(new ByteArrayInputStream(Files.readAllBytes(svm.ab())));
      CliRun.of("train", "--data", "-", "--shuffle-buffer", "50")
          .assertError(
              1,
              "standard input holds more than --shuffle-buffer 50 rows, so it is trained as a"
                  + " stream: give the model's dimension, --dimension N");
    } finally {
      System.setIn(saved);
    }
  }

  @Test
  void aCacheIsWrittenThenReadInsteadOfTheTextAndRefusedWhenStale() throws IOException {
    StreamFiles.Parts vw = StreamFiles.vw(dir, "c", 200, 100, 0, 6);
    Path data = vw.ab();
    Path cache = dir.resolve("c.okrc");
    String[] args = {
      "--data",
      data.toString(),
      "--epochs",
      "3",
      "--shuffle-buffer",
      "40",
      "--cache",
      cache.toString(),
      "--json",
      "--model",
      dir + "/a.model"
    };
    CliRun first = ok(args);
    assertTrue(Files.exists(cache));
    // Same size and time, other content: a run that reads the cache still sees the old rows.
    FileTime time = Files.getLastModifiedTime(data);
    List<String> lines = new ArrayList<>(Files.readAllLines(data));
    java.util.Collections.reverse(lines);
    Files.write(data, lines);
    Files.setLastModifiedTime(data, time);
    args[args.length - 1] = dir + "/b.model";
    CliRun second = ok(args);
    assertEquals(first.json("progressive", "loss"), second.json("progressive", "loss"));
    assertArrayEquals(
        Files.readAllBytes(dir.resolve("a.model")), Files.readAllBytes(dir.resolve("b.model")));
    Files.setLastModifiedTime(data, FileTime.fromMillis(time.toMillis() + 5000));
    CliRun.of(prepend("train", args))
        .assertError(1, cache + ": the cache is stale: it holds modified = " + time);
  }

  @Test
  void aCacheDamagedInALaterBlockIsRefusedNamingItWhenTheRunReachesIt() throws IOException {
    // 3,000 rows: three blocks of the cache (1,024 rows each), read ahead on the cache's thread.
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      lines.add((i % 3 == 0 ? "+1" : "-1") + " " + (1 + i % 97) + ":0.5 " + (100 + i % 13) + ":2");
    }
    Path data = dir.resolve("d.svm");
    Files.write(data, lines);
    Path cache = dir.resolve("d.okrc");
    String[] args = {
      "--data",
      data.toString(),
      "--epochs",
      "2",
      "--shuffle-buffer",
      "40",
      "--cache",
      cache.toString(),
      "--json"
    };
    ok(args);
    byte[] b = Files.readAllBytes(cache);
    // Walk the blocks (row count, byte length, bytes, CRC32C) to the last one; damage its bytes.
    java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(b);
    int at = 12 + buf.getInt(8) + 4;
    int last = -1;
    while (buf.getInt(at) != 0) {
      last = at;
      at += 12 + buf.getInt(at + 4);
    }
    assertTrue(last > 16 + buf.getInt(8), "the cache has more than one block");
    b[last + 8 + buf.getInt(last + 4) / 2] ^= 0x10;
    Files.write(cache, b);
    CliRun.of(prepend("train", args))
        .assertError(
            1,
            cache
                + ": damaged row cache at byte "
                + last
                + " (the checksum of the block); delete it to read the data again");
  }

  private static String[] prepend(String first, String[] rest) {
    String[] all = new String[rest.length + 1];
    all[0] = first;
    System.arraycopy(rest, 0, all, 1, rest.length);
    return all;
  }

  @Tag("long") // 30,000 rows, about 4 s
  @Test
  void aLabelTheFirstRowsDidNotShowIsRefusedNamingItsLineAndWhatToGive() throws IOException {
    // More than one chunk of text (256 KiB): the labels are decided from the first block read.
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 30_000; i++) {
      lines.add((i % 2) + " |a w" + (i % 1000));
    }
    lines.add("2 |a w");
    Path f = dir.resolve("late.vw");
    Files.write(f, lines);
    CliRun r = CliRun.of("train", "--data", f.toString(), "--shuffle-buffer", "64");
    r.assertError(1, f + ":30001: label 2 does not fit the labels decided from the first ");
    assertTrue(
        r.err().contains(" rows (--shuffle-buffer) (binary, +1/-1); give --labels"), r.err());
    ok("--data", f.toString(), "--shuffle-buffer", "64", "--labels", "0,1,2");
    CliRun.of(
            "train",
            "--data",
            f.toString(),
            "--shuffle-buffer",
            "64",
            "--threads",
            "2",
            "--merge-every",
            "0",
            "--labels",
            "0,1,2")
        .assertError(1, "--merge-every 0 merges once per epoch");
  }

  @Test
  void aMalformedLineLateInAStreamIsNamedAndNoModelIsWritten() throws IOException {
    StreamFiles.Parts vw = StreamFiles.vw(dir, "m", 300, 100, 0, 8);
    List<String> lines = new ArrayList<>(Files.readAllLines(vw.ab()));
    lines.set(350, "1 no bar here");
    Path f = dir.resolve("bad.vw");
    Files.write(f, lines);
    Path model = dir.resolve("bad.model");
    CliRun.of(
            "train", "--data", f.toString(), "--shuffle-buffer", "64", "--model", model.toString())
        .assertError(1, f + ":351: no '|': a line is LABEL |NAMESPACE FEATURE ...");
    assertFalse(Files.exists(model));
  }

  @Test
  void aMalformedLineLateInAStreamOnTwoThreadsIsNamedAndNoModelIsWritten() throws IOException {
    // The chunks of a stream on several threads are read on a thread of their own (ChunkReader):
    // its failure reaches the run as one thread's would, with the line.
    StreamFiles.Parts vw = StreamFiles.vw(dir, "mt", 300, 100, 0, 8);
    List<String> lines = new ArrayList<>(Files.readAllLines(vw.ab()));
    lines.set(350, "1 no bar here");
    Path f = dir.resolve("bad2.vw");
    Files.write(f, lines);
    Path model = dir.resolve("bad2.model");
    CliRun.of(
            "train",
            "--data",
            f.toString(),
            "--shuffle-buffer",
            "64",
            "--threads",
            "2",
            "--epochs",
            "2",
            "--model",
            model.toString())
        .assertError(1, f + ":351: no '|': a line is LABEL |NAMESPACE FEATURE ...");
    assertFalse(Files.exists(model));
  }
}
