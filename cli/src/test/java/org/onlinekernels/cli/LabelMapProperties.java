package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
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
import org.onlinekernels.trainer.model.LinearModel;

/**
 * Issue 26, generalised: {@code --labels} lists generated against the classes of the data (+1/-1 or
 * class numbers) and of a test file: the classes exactly, in any order, spelled differently ({@code
 * 1.0}, {@code +2}, {@code 3e0}, spaces), with classes the data does not hold, with one of the
 * data's classes missing, with a label twice, with one that is not a finite number, or of one label
 * only; the test file holds one class outside the list now and then.
 *
 * <p>The property: a list that holds every label of the data and test file, each once, as finite
 * numbers, two or more, trains a model of exactly its size (one output for two labels, K for K)
 * that {@code predict} with the same list scores finitely, one line per row (a class within the
 * list for more than two); any other list is refused by one error line, a label outside the list
 * naming the file and the first example that holds it. Each kind of list is reached in a stated
 * share of tries.
 */
class LabelMapProperties {
  enum Kind {
    EXACT,
    SPELLED,
    MORE,
    MISSING,
    TWICE,
    NOT_A_NUMBER,
    ONE,
    TEST_OUTSIDE
  }

  record Case(Kind kind, boolean binary, List<Integer> classes, long seed) {}

  private Path dir;
  private int tryNumber;

  @BeforeProperty
  void directory() throws IOException {
    dir = Files.createTempDirectory("label-maps");
  }

  @AfterProperty
  void remove() throws IOException {
    try (var s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  @Provide
  Arbitrary<Case> cases() {
    return Combinators.combine(
            Arbitraries.of(Kind.values()),
            Arbitraries.of(true, false),
            Arbitraries.integers().between(0, 5).set().ofMinSize(2).ofMaxSize(4),
            Arbitraries.longs())
        .as((k, b, cs, seed) -> new Case(k, b, b ? List.of(-1, 1) : new ArrayList<>(cs), seed))
        .withoutEdgeCases();
  }

  @Property
  void aLabelListTrainsAModelOfItsSizeOrIsOneErrorLine(@ForAll("cases") Case c) throws IOException {
    Random rnd = new Random(c.seed());
    List<Integer> classes = c.classes();
    List<String> list = new ArrayList<>();
    for (int y : classes) {
      list.add(Integer.toString(y));
    }
    List<Integer> outsideTest = new ArrayList<>();
    boolean valid = true;
    switch (c.kind()) {
      case EXACT -> {}
      case SPELLED -> {
        int i = rnd.nextInt(list.size());
        int y = classes.get(i);
        list.set(
            i,
            List.of(y + ".0", (y < 0 ? "" : "+") + y, y + "e0", " " + y + " ").get(rnd.nextInt(4)));
      }
      case MORE -> {
        for (int y = 0; y <= 7; y++) {
          if (!classes.contains(y) && rnd.nextInt(3) == 0 || y == 7) {
            list.add(Integer.toString(y));
          }
        }
      }
      case MISSING -> {
        list.remove(rnd.nextInt(list.size()));
        if (list.size() < 2) {
          list.add("7");
        }
        valid = false;
      }
      case TWICE -> {
        list.add(list.get(rnd.nextInt(list.size())));
        valid = false;
      }
      case NOT_A_NUMBER -> {
        list.set(
            rnd.nextInt(list.size()),
            List.of("x", "nan", "NaN", "Infinity", "-inf", "", "1e400", "0x1", "1,")
                .get(rnd.nextInt(9)));
        valid = false;
      }
      case ONE -> {
        list = List.of(list.get(rnd.nextInt(list.size())));
        valid = false;
      }
      case TEST_OUTSIDE -> {
        outsideTest.add(c.binary() ? 0 : 6);
        valid = false;
      }
    }
    Collections.shuffle(list, rnd);
    String labels = String.join(",", list);
    Statistics.label("kind").collect(c.kind());
    Statistics.label("kind")
        .coverage(
            cov -> {
              for (Kind k : Kind.values()) {
                cov.check(k).count(Coverage.share(1.0 / Kind.values().length)); // uniform
              }
            });

    Path t = Files.createDirectory(dir.resolve("t" + tryNumber++));
    List<Integer> dataLabels = labels(classes, 12, rnd);
    Path data = write(t.resolve("data.svm"), dataLabels, rnd);
    List<Integer> testLabels = labels(classes, 3, rnd);
    testLabels.addAll(rnd.nextInt(testLabels.size() + 1), outsideTest);
    Path test = write(t.resolve("test.svm"), testLabels, rnd);
    Path model = t.resolve("m.model");
    CliRun r =
        CliRun.of(
            "train",
            "--data",
            data.toString(),
            "--test",
            test.toString(),
            "--labels",
            labels,
            "--model",
            model.toString());
    String show = "--labels '" + labels + "' on data " + dataLabels + ", test " + testLabels;
    if (!valid) {
      assertTrue(
          r.code() != 0 && r.err().startsWith("error: ") && r.err().lines().count() == 1,
          show + ": " + r);
      assertTrue(!Files.exists(model), "a model was written; " + show);
      if (c.kind() == Kind.TEST_OUTSIDE) {
        assertTrue(r.err().startsWith("error: " + test + ":"), show + ": " + r);
      }
      if (c.kind() == Kind.TEST_OUTSIDE && !c.binary()) { // (0 among -1/+1: the reader refuses)
        int first = testLabels.indexOf(outsideTest.get(0));
        assertTrue(
            r.err()
                .startsWith(
                    "error: "
                        + test
                        + ": example "
                        + (first + 1)
                        + " has label "
                        + outsideTest.get(0)
                        + ", which is not one of the labels"),
            show + ": " + r);
      }
      return;
    }
    assertEquals(0, r.code(), show + ": " + r);
    LinearModel m = LinearModel.load(model);
    int k = list.size();
    assertEquals(k == 2 ? 1 : k, m.outputs(), show + ": " + r);
    Path out = t.resolve("predictions");
    CliRun p =
        CliRun.of(
            "predict",
            "--model",
            model.toString(),
            "--data",
            data.toString(),
            "--labels",
            labels,
            "--out",
            out.toString());
    assertEquals(0, p.code(), show + ": " + p);
    List<String> lines = Files.readAllLines(out);
    assertEquals(dataLabels.size(), lines.size(), show);
    for (String line : lines) {
      String[] parts = line.split(" ");
      assertEquals(k == 2 ? 1 : k + 1, parts.length, show + ": " + line);
      for (String s : parts) {
        assertTrue(Double.isFinite(Double.parseDouble(s)), show + ": " + line);
      }
      if (k > 2) {
        int cls = Integer.parseInt(parts[0]);
        assertTrue(cls >= 0 && cls < k, show + ": " + line);
      }
    }
  }

  /** {@code n} labels from {@code classes}, each class at least once if {@code n} allows. */
  private static List<Integer> labels(List<Integer> classes, int n, Random rnd) {
    List<Integer> ys = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ys.add(i < classes.size() ? classes.get(i) : classes.get(rnd.nextInt(classes.size())));
    }
    Collections.shuffle(ys, rnd);
    return ys;
  }

  private static Path write(Path f, List<Integer> ys, Random rnd) throws IOException {
    StringBuilder b = new StringBuilder();
    for (int y : ys) {
      b.append(y).append(' ').append(1 + rnd.nextInt(4)).append(':').append(rnd.nextInt(9) - 4);
      b.append('\n');
    }
    return Files.writeString(f, b.toString());
  }
}
