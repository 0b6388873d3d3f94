package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import org.onlinekernels.testsupport.FuzzTries;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * Issue 26, options of {@code train}: an output path that names an input or the other output (the
 * data file was overwritten by {@code --progressive-out}, exit 0), {@code --labels} naming more
 * classes than the data holds (5 classes reported, a 3-output model saved that predict then
 * refused), {@code --threads} without a bound (2147483647 ran to 7.4 GB), and a rate beyond float's
 * range ({@code "g must be finite, got NaN"}).
 */
class TrainOptionFaultsTest {
  private Path dir;
  private Path train;
  private Path test;
  private Path model;

  @BeforeProperty
  void files() throws IOException {
    dir = Files.createTempDirectory("train-options");
    train =
        Files.writeString(dir.resolve("train.svm"), "0 1:2 2:0.1\n1 2:2\n2 1:0.1 3:2\n".repeat(10));
    test = Files.writeString(dir.resolve("test.svm"), "0 1:1.5\n1 2:1.7 3:0.2\n2 3:3\n");
    model = dir.resolve("old.model");
    ok(CliRun.of("train", "--data", train.toString(), "--model", model.toString()));
  }

  private static void ok(CliRun r) {
    assertEquals(0, r.code(), () -> "stderr: " + r.err() + ", stdout: " + r.out());
  }

  @AfterProperty
  void remove() throws IOException {
    try (var s = Files.walk(dir)) {
      s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /**
   * One spelling of {@code p}: itself, via "./", via "sub/..", absolute from a relative start, or a
   * link.
   */
  private Path spelled(Path p, int how) {
    try {
      return switch (how) {
        case 0 -> p;
        case 1 -> p.getParent().resolve(".").resolve(p.getFileName());
        case 2 ->
            Files.createDirectories(dir.resolve("sub")).resolve("..").resolve(p.getFileName());
        default ->
            Files.createSymbolicLink(dir.resolve("link-" + how + "-" + System.nanoTime()), p);
      };
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  record Collision(String output, String target, int spelling) {}

  @Provide
  Arbitrary<Collision> collisions() {
    return Combinators.combine(
            Arbitraries.of("--progressive-out", "--model"),
            Arbitraries.of("--data", "--test", "--model", "--progressive-out"),
            Arbitraries.integers().between(0, 3))
        .filter((out, target, how) -> !out.equals(target))
        .as(Collision::new);
  }

  /**
   * Every output that names an input, or the other output, by any spelling, is one usage error and
   * leaves every file as it was.
   */
  @Property
  @FuzzTries(divisor = 5) // the tries: jqwik.tries.default / 5 (a literal would be overridden)
  void anOutputNamingAnInputOrTheOtherOutputIsRefusedAndNothingIsWritten(
      @ForAll("collisions") Collision c) throws IOException {
    Map<String, Path> paths = new LinkedHashMap<>();
    paths.put("--data", train);
    paths.put("--test", test);
    paths.put("--model", dir.resolve("new.model"));
    paths.put("--progressive-out", model); // an existing file: the old model
    Path target = paths.get(c.target());
    paths.put(c.output(), spelled(target, c.spelling()));
    Map<Path, byte[]> before = new LinkedHashMap<>();
    for (Path p : List.of(train, test, model)) {
      before.put(p, Files.readAllBytes(p));
    }
    List<String> args = new ArrayList<>(List.of("train"));
    paths.forEach((flag, p) -> args.addAll(List.of(flag, p.toString())));
    CliRun r = CliRun.of(args.toArray(String[]::new));
    String expected =
        c.target().equals("--data") || c.target().equals("--test")
            ? c.output()
                + " "
                + paths.get(c.output())
                + " is the "
                + c.target()
                + " file: refusing to overwrite an input"
            : "--progressive-out and --model are the same file";
    r.assertError(2, expected);
    for (Map.Entry<Path, byte[]> e : before.entrySet()) {
      assertArrayEquals(e.getValue(), Files.readAllBytes(e.getKey()), e.getKey() + " changed");
    }
    assertEquals(
        false,
        Files.exists(dir.resolve("new.model")) && !c.target().equals("--model"),
        "a model was written");
  }

  /**
   * {@code --labels} with five classes on data of classes 0..2 (or of class 1 only) saves a
   * five-output model.
   */
  @Property(tries = 1)
  void labelsNamingMoreClassesThanTheDataHoldsMakeAModelOfThatMany() throws IOException {
    Path m = dir.resolve("five.model");
    CliRun r =
        CliRun.of(
            "train", "--data", train.toString(), "--labels", "0,1,2,3,4", "--model", m.toString());
    ok(r);
    assertEquals(5, LinearModel.load(m).outputs(), r.out());
    Path four = Files.writeString(dir.resolve("four.svm"), "4 1:1\n3 2:1\n");
    ok(
        CliRun.of(
            "predict",
            "--model",
            m.toString(),
            "--data",
            four.toString(),
            "--labels",
            "0,1,2,3,4"));
    Path ones = Files.writeString(dir.resolve("ones.svm"), "1 1:1\n1 2:1\n");
    Path m3 = dir.resolve("three.model");
    ok(
        CliRun.of(
            "train", "--data", ones.toString(), "--labels", "0,1,2", "--model", m3.toString()));
    LinearModel three = LinearModel.load(m3);
    assertEquals(
        List.of(true, 3),
        List.of(three.multiclass(), three.outputs()),
        "class 1 alone is not binary +1");
  }

  /** Above the stated bound {@code --threads} is a usage error at once, whatever the number. */
  @Property
  @FuzzTries(divisor = 10)
  void threadsAboveTheBoundAreAUsageError(@ForAll("aboveTheBound") int threads) {
    CliRun.of("train", "--data", train.toString(), "--threads", Integer.toString(threads))
        .assertError(2, "--threads must be at most " + TrainCommand.MAX_THREADS + " (");
  }

  @Provide
  Arbitrary<Integer> aboveTheBound() {
    return Arbitraries.oneOf(
        Arbitraries.of(TrainCommand.MAX_THREADS + 1, 5000, Integer.MAX_VALUE),
        Arbitraries.integers().between(TrainCommand.MAX_THREADS + 1, Integer.MAX_VALUE));
  }

  /** A rate beyond float's range is refused naming it, not reported as a NaN gradient. */
  @Property(tries = 1)
  void aRateBeyondFloatsRangeIsNamed() {
    CliRun.of("train", "--data", train.toString(), "--algorithm", "ogd", "--param", "eta=1e39")
        .assertError(
            2,
            "--param eta with --type float: ogd: eta = 1.0E39 is too large for float elements (the first"
                + " step would overflow)");
  }
}
