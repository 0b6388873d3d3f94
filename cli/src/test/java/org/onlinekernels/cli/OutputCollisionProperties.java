package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import net.jqwik.api.statistics.Statistics;
import org.onlinekernels.testsupport.Coverage;

/**
 * Issue 26, generalised: every output of {@code train} ({@code --progressive-out}, {@code --model},
 * {@code --save-state}, {@code --invert-hash}) and of {@code predict} ({@code --out}) generated to
 * name one other file of the call (the data, the test file, the {@code --initial} state, the model
 * read, or another output) by a generated spelling: the same text, {@code ./}, {@code sub/..},
 * relative to the working directory, an absolute or relative symbolic link, a chain of two, a link
 * to the directory, a hard link (a dangling link when the file does not exist yet); or no collision
 * at all. The outputs exist beforehand or not.
 *
 * <p>The property: a collision is one usage error naming both flags, and no byte of any file is
 * changed and no file made; the one documented exception ({@code --save-state} naming the {@code
 * --initial} state: continuing in place) and a call without a collision succeed, leave every input
 * as it was and write every output. Each spelling, and the control are reached in a stated share of
 * tries.
 */
class OutputCollisionProperties {
  /**
   * The least share of refused calls the coverage check holds (Coverage): 0.8 of the 84 % measured
   * over 5,000 tries, more than ten standard errors below it.
   */
  private static final double SHARE_REFUSED = 0.67;

  private static final List<String> TRAIN_OUTPUTS =
      List.of("--progressive-out", "--model", "--save-state", "--invert-hash");

  private Path dir;
  private Path data;
  private Path test;
  private Path state;
  private Path model;
  private int tryNumber;

  @BeforeProperty
  void files() throws IOException {
    dir = Files.createTempDirectory("collisions");
    data =
        Files.writeString(dir.resolve("data.svm"), "1 1:2 2:0.1\n-1 2:2\n1 1:0.1 3:2\n".repeat(5));
    test = Files.writeString(dir.resolve("test.svm"), "1 1:1.5\n-1 2:1.7 3:0.2\n");
    state = dir.resolve("s.okst");
    model = dir.resolve("m.model");
    CliRun r =
        CliRun.of(
            "train",
            "--data",
            data.toString(),
            "--algorithm",
            "adagrad",
            "--save-state",
            state.toString(),
            "--model",
            model.toString());
    assertEquals(0, r.code(), r.err());
  }

  @AfterProperty
  void remove() throws IOException {
    try (var s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** One call: the command, its output flags, which one names which other file, and how. */
  record Call(
      boolean train,
      boolean initial,
      List<String> outputs,
      int output,
      int target,
      int spelling,
      boolean outputsExist) {}

  @Provide
  Arbitrary<Call> calls() {
    Arbitrary<List<String>> outputs =
        Arbitraries.of(TRAIN_OUTPUTS).set().ofMinSize(1).map(s -> List.copyOf(s));
    return Combinators.combine(
            Arbitraries.frequency(
                net.jqwik.api.Tuple.of(4, true), net.jqwik.api.Tuple.of(1, false)),
            Arbitraries.of(true, false),
            outputs,
            Arbitraries.integers().between(0, 1 << 16),
            Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(1, Arbitraries.just(-1)),
                net.jqwik.api.Tuple.of(6, Arbitraries.integers().between(0, 1 << 16))),
            Arbitraries.integers().between(0, 8),
            Arbitraries.of(true, false))
        .as(Call::new)
        .withoutEdgeCases();
  }

  @Property
  void anOutputNamingAnotherFileIsRefusedBeforeAnyByteChanges(@ForAll("calls") Call c)
      throws IOException {
    Path t = Files.createDirectory(dir.resolve("t" + tryNumber++));
    Files.createDirectory(t.resolve("sub"));
    Files.createDirectory(t.resolve("links"));
    Files.createSymbolicLink(t.resolve("dirlink"), t);
    Map<String, Path> files = new LinkedHashMap<>();
    files.put("--data", Files.copy(data, t.resolve("data.svm")));
    List<String> outputs;
    if (c.train()) {
      files.put("--test", Files.copy(test, t.resolve("test.svm")));
      if (c.initial()) {
        files.put("--initial", Files.copy(state, t.resolve("s.okst")));
      }
      outputs = c.outputs();
    } else {
      files.put("--model", Files.copy(c.initial() ? state : model, t.resolve("read.model")));
      outputs = List.of("--out");
    }
    for (String o : outputs) {
      Path p = t.resolve("out" + o.replace("-", "_"));
      files.put(o, c.outputsExist() ? Files.writeString(p, "old " + o + "\n") : p);
    }
    List<String> flags = List.copyOf(files.keySet());
    String out = outputs.get(c.output() % outputs.size());
    List<String> others = flags.stream().filter(f -> !f.equals(out)).toList();
    String target = c.target() < 0 ? null : others.get(c.target() % others.size());
    String spelling = "none";
    if (target != null) {
      spelling = spellings(c.spelling());
      files.put(out, spelled(files.get(target), c.spelling(), t));
    }
    boolean allowed = target == null || (out.equals("--save-state") && target.equals("--initial"));
    Statistics.label("collision").collect(target == null ? "none" : out + " -> " + target);
    Statistics.label("spelling").collect(spelling);
    Statistics.label("outcome").collect(allowed ? "allowed" : "refused");
    // Shares (Coverage), from the generator's weights: no collision 1/7, each of the nine
    // spellings 6/7 * 1/9; refused at SHARE_REFUSED, measured.
    Statistics.label("spelling")
        .coverage(
            cov -> {
              cov.check("none").count(Coverage.share(1.0 / 7));
              for (int s = 0; s <= 8; s++) {
                cov.check(spellings(s)).count(Coverage.share(6.0 / 7 / 9));
              }
            });
    Statistics.label("outcome")
        .coverage(cov -> cov.check("refused").count(Coverage.share(SHARE_REFUSED)));

    Map<Path, byte[]> before = contents(t);
    List<String> args = new ArrayList<>(List.of(c.train() ? "train" : "predict"));
    if (c.train()) {
      args.addAll(List.of("--algorithm", "adagrad"));
    }
    files.forEach((flag, p) -> args.addAll(List.of(flag, p.toString())));
    CliRun r = CliRun.of(args.toArray(String[]::new));
    String show = args + " (" + out + " -> " + target + ", spelled " + spelling + "):\n" + r;
    if (!allowed) {
      assertTrue(
          r.code() == 2
              && r.out().isEmpty()
              && r.err().startsWith("error: ")
              && r.err().lines().count() == 1
              && r.err().contains(out)
              && r.err().contains(target),
          show);
      Map<Path, byte[]> after = contents(t);
      assertEquals(before.keySet(), after.keySet(), "files made or removed; " + show);
      before.forEach((p, b) -> assertArrayEquals(b, after.get(p), p + " changed; " + show));
      return;
    }
    assertEquals(0, r.code(), show);
    Map<Path, byte[]> after = contents(t);
    for (String in : List.of("--data", "--test", "--model")) {
      Path p = files.get(in);
      if (p != null && !outputs.contains(in)) {
        assertArrayEquals(before.get(p.toRealPath()), after.get(p.toRealPath()), in + "; " + show);
      }
    }
    for (String o : outputs) {
      assertTrue(Files.exists(files.get(o)), o + " not written; " + show);
    }
  }

  private static String spellings(int s) {
    return List.of(
            "same text",
            "./",
            "sub/..",
            "relative to the working directory",
            "absolute link",
            "relative link",
            "link to a link",
            "hard link",
            "link to the directory")
        .get(s);
  }

  /** Another spelling of {@code p}, in the try's directory {@code t}. */
  private static Path spelled(Path p, int how, Path t) throws IOException {
    Path links = t.resolve("links");
    return switch (how) {
      case 0 -> p;
      case 1 -> p.getParent().resolve(".").resolve(p.getFileName());
      case 2 -> t.resolve("sub").resolve("..").resolve(p.getFileName());
      case 3 -> Path.of("").toAbsolutePath().relativize(p);
      case 4 -> Files.createSymbolicLink(links.resolve("abs"), p);
      case 5 -> Files.createSymbolicLink(links.resolve("rel"), Path.of("..", p.getFileName() + ""));
      case 6 ->
          Files.createSymbolicLink(
              links.resolve("chain"), Files.createSymbolicLink(links.resolve("first"), p));
      case 7 ->
          Files.exists(p)
              ? Files.createLink(links.resolve("hard"), p)
              : Files.createSymbolicLink(links.resolve("dangling"), p);
      default -> t.resolve("dirlink").resolve(p.getFileName());
    };
  }

  /** Every regular file under {@code t} (links not followed) and its bytes. */
  private static Map<Path, byte[]> contents(Path t) throws IOException {
    Map<Path, byte[]> m = new TreeMap<>();
    try (var s = Files.walk(t)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        if (!Files.isSymbolicLink(p)) {
          m.put(p.toRealPath(), Files.readAllBytes(p));
        }
      }
    }
    return m;
  }
}
