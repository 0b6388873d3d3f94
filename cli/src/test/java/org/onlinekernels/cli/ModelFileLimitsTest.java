package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code predict --model} and {@code serve --model} given what is not a model they can load (a
 * device that never ends, a model or state file cut short, a file far larger than the heap, a state
 * file whose header is sound and whose body is not) end in one error line naming the file, never
 * out of memory. Each run is a JVM of its own with a 64 MiB heap, and the large files are larger
 * than that heap: read whole before they are checked, they ran out of memory (issue #41). Starts
 * JVMs: the long stage.
 */
@Tag("long")
class ModelFileLimitsTest {
  @TempDir Path dir;

  @Test
  void whatIsNotALoadableModelIsOneLineNeverOutOfMemory() throws Exception {
    StreamFiles.Parts svm = StreamFiles.libsvm(dir, "s", 60, 40, 20, 0, 5);
    Path model = dir.resolve("m.model");
    Path state = dir.resolve("s.okst");
    CliRun r =
        CliRun.line("train --data " + svm.a() + " --model " + model + " --save-state " + state);
    assertEquals(0, r.code(), r.err());
    byte[] m = Files.readAllBytes(model);
    byte[] s = Files.readAllBytes(state);
    Path cutModel = dir.resolve("cut.model");
    Files.write(cutModel, Arrays.copyOf(m, m.length - 10));
    Path cutState = dir.resolve("cut.okst");
    Files.write(cutState, Arrays.copyOf(s, s.length / 2));
    // The first bytes of the real files (magic, version, settings), then a hole.
    Path hugeModel = sparse("huge.model", m, 3L << 30);
    // A state file is read in place (its images stay in the file), so no size refuses it: the
    // file four times the heap is refused by its checksum, streamed.
    Path bigState = sparse("big.okst", s, 256L << 20);

    Path zero = Path.of("/dev/zero");
    if (Files.isReadable(zero)) {
      refused(
          List.of("predict", "--model", zero.toString(), "--data", svm.b().toString()),
          zero,
          "not an online-kernels model");
      refused(
          List.of("serve", "--model", zero.toString(), "--port", "0"),
          zero,
          "not an online-kernels model");
    }
    String data = svm.b().toString();
    refused(
        List.of("predict", "--model", cutModel.toString(), "--data", data),
        cutModel,
        "truncated or damaged");
    refused(
        List.of("predict", "--model", hugeModel.toString(), "--data", data),
        hugeModel,
        "a model file of this format holds at most");
    refused(
        List.of("predict", "--model", cutState.toString(), "--data", data),
        cutState,
        "checksum mismatch");
    refused(
        List.of("predict", "--model", bigState.toString(), "--data", data),
        bigState,
        "checksum mismatch");
    refused(
        List.of("serve", "--model", bigState.toString(), "--port", "0"),
        bigState,
        "checksum mismatch");
  }

  private Path sparse(String name, byte[] head, long size) throws IOException {
    Path f = dir.resolve(name);
    try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
      raf.write(head, 0, Math.min(head.length, 64));
      raf.setLength(size);
    }
    return f;
  }

  /** Runs the command line in a JVM with a 64 MiB heap: exit 1 and one line naming the file. */
  private static void refused(List<String> args, Path file, String words) throws Exception {
    List<String> cmd = MainJvm.command(List.of("-Xmx64m"), args.toArray(String[]::new));
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .start();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    boolean ended = p.waitFor(60, TimeUnit.SECONDS);
    if (!ended) {
      p.destroyForcibly();
    }
    String what = String.join(" ", args) + ": " + err;
    assertTrue(ended, what);
    assertEquals(1, p.exitValue(), what);
    List<String> lines = err.lines().filter(l -> !l.startsWith("WARNING")).toList();
    assertEquals(1, lines.size(), what);
    assertTrue(lines.get(0).startsWith("error: ") && lines.get(0).contains(file.toString()), what);
    assertTrue(lines.get(0).contains(words), what);
    assertFalse(err.contains("out of memory"), what);
  }
}
