package org.onlinekernels.spark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.onlinekernels.io.AtomicFiles;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.checkpoint.Checkpoint;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * The directory that holds a streaming model's state between micro-batches, written so that a crash
 * at any point leaves a complete state: each committed batch writes a generation {@code
 * batch-<id>/} (the {@code manifest} and one optimizer {@link Checkpoint} per output, {@code
 * output-<c>.okcp}, each written atomically), then names it in {@code CURRENT} (atomic rename),
 * then replaces {@code model} (the command line's model file), then deletes every other generation.
 * A generation that {@code CURRENT} does not name is never read.
 */
final class StreamState {
  static final String CURRENT = "CURRENT";
  static final String MODEL = "model";
  private static final String MAGIC = "online-kernels-stream 1";

  private final Path dir;

  /** What identifies the model: algorithm, params, type, loss, d, classes. */
  private final Map<String, String> identity;

  /** The last committed batch (-1: none) and its generation (null: none). */
  final long lastBatch;

  final long examples;
  private final Path generation;

  private StreamState(
      Path dir, Map<String, String> identity, long lastBatch, long examples, Path generation) {
    this.dir = dir;
    this.identity = identity;
    this.lastBatch = lastBatch;
    this.examples = examples;
    this.generation = generation;
  }

  /**
   * The state in {@code dir} (none yet if the directory is new or empty).
   *
   * @throws IllegalStateException if it holds the state of another model than {@code identity}
   */
  static StreamState open(Path dir, Map<String, String> identity) throws IOException {
    Files.createDirectories(dir);
    String current;
    try {
      current = Files.readString(dir.resolve(CURRENT), StandardCharsets.UTF_8).trim();
    } catch (NoSuchFileException e) {
      return new StreamState(dir, identity, -1, 0, null);
    }
    Path gen = dir.resolve(current);
    Map<String, String> m = new LinkedHashMap<>();
    List<String> lines = Files.readAllLines(gen.resolve("manifest"), StandardCharsets.UTF_8);
    if (lines.isEmpty() || !lines.get(0).equals(MAGIC)) {
      throw new IllegalStateException(
          gen.resolve("manifest") + ": not a streaming state manifest ('" + MAGIC + "')");
    }
    for (String line : lines.subList(1, lines.size())) {
      int sp = line.indexOf(' ');
      m.put(sp < 0 ? line : line.substring(0, sp), sp < 0 ? "" : line.substring(sp + 1));
    }
    for (Map.Entry<String, String> e : identity.entrySet()) {
      if (!e.getValue().equals(m.get(e.getKey()))) {
        throw new IllegalStateException(
            dir
                + " holds the state of another model ("
                + e.getKey()
                + " "
                + m.get(e.getKey())
                + ", this trainer has "
                + e.getValue()
                + "); give this trainer a directory of its own");
      }
    }
    return new StreamState(
        dir, identity, Long.parseLong(m.get("batch")), Long.parseLong(m.get("examples")), gen);
  }

  /** Loads the committed optimizer states into {@code outputs} (nothing when there is none). */
  void restore(AbstractOptimizer[] outputs) throws IOException {
    if (generation == null) {
      return;
    }
    for (int c = 0; c < outputs.length; c++) {
      Checkpoint.load(generation.resolve("output-" + c + ".okcp"), outputs[c]);
    }
  }

  /** Commits batch {@code batch}: the state of {@code outputs} and the model they read out. */
  StreamState commit(long batch, long examples, AbstractOptimizer[] outputs, LinearModel model)
      throws IOException {
    String name = "batch-" + batch;
    Path gen = dir.resolve(name);
    Files.createDirectories(gen);
    for (int c = 0; c < outputs.length; c++) {
      Checkpoint.save(outputs[c], gen.resolve("output-" + c + ".okcp"));
    }
    StringBuilder sb = new StringBuilder(MAGIC).append('\n');
    identity.forEach((k, v) -> sb.append(k).append(' ').append(v).append('\n'));
    sb.append("batch ")
        .append(batch)
        .append('\n')
        .append("examples ")
        .append(examples)
        .append('\n');
    AtomicFiles.write(gen.resolve("manifest"), sb.toString().getBytes(StandardCharsets.UTF_8));
    AtomicFiles.write(dir.resolve(CURRENT), (name + "\n").getBytes(StandardCharsets.UTF_8));
    model.save(dir.resolve(MODEL));
    List<Path> old = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "batch-*")) {
      for (Path p : ds) {
        if (!p.getFileName().toString().equals(name)) {
          old.add(p);
        }
      }
    }
    for (Path p : old) {
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(p)) {
        for (Path f : ds) {
          Files.deleteIfExists(f);
        }
      }
      Files.deleteIfExists(p);
    }
    return new StreamState(dir, identity, batch, examples, gen);
  }
}
