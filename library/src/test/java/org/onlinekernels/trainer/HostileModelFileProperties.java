package org.onlinekernels.trainer;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

/**
 * Issue 26, generalised: model files whose checksum is valid and whose contents are hostile (every
 * header field and weight drawn from valid values, edge values and garbage). Each one either loads
 * as a model that scores every row of moderate values finitely, or is refused by one line that
 * names the file; no other exception, no hang, no memory beyond the heap check.
 */
class HostileModelFileProperties {
  private Path dir;

  @BeforeProperty
  void createDirectory() throws IOException {
    dir = Files.createTempDirectory("hostile-models");
  }

  @AfterProperty
  void removeDirectory() throws IOException {
    try (var s = Files.walk(dir)) {
      for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private static net.jqwik.api.Tuple.Tuple2<Integer, Arbitrary<? extends String>> f(
      int weight, Arbitrary<String> a) {
    return net.jqwik.api.Tuple.of(weight, a);
  }

  /** Mostly the first value (valid), often another listed one, sometimes garbage. */
  private static Arbitrary<String> field(String... values) {
    return Arbitraries.frequencyOf(
        f(8, Arbitraries.just(values[0])),
        f(3, Arbitraries.of(values)),
        f(1, Arbitraries.strings().ofMaxLength(12)));
  }

  /**
   * Weights: mostly finite numbers of every size (the ends of double's range among them), sometimes
   * garbage.
   */
  private static Arbitrary<String> weight() {
    return Arbitraries.frequencyOf(
        f(
            4,
            Arbitraries.of(
                "1e308",
                "-1e308",
                "1.7976931348623157E308",
                "-1.7976931348623157E308",
                "3.4028235E38",
                "-3.4028235E38",
                "0",
                "-0.0",
                "1",
                "-1.5",
                "4.9E-324")),
        f(3, Arbitraries.doubles().map(x -> Double.toString(x))),
        f(
            1,
            Arbitraries.of(
                "3.5e38",
                "1e-46",
                "NaN",
                "Infinity",
                "-Infinity",
                "0x1p3",
                "1d",
                "",
                "1e",
                "00000000000000000000000000000000000000000000000000000000000000000001",
                "+2")));
  }

  /**
   * A header of d and k (as text), then k lines of d weights each; counts off by one now and then.
   */
  @Provide
  Arbitrary<String> hostileBodies() {
    Arbitrary<int[]> shape =
        Combinators.combine(
                Arbitraries.integers().between(1, 3),
                Arbitraries.integers().between(1, 3),
                Arbitraries.frequency(
                    net.jqwik.api.Tuple.of(8, 0),
                    net.jqwik.api.Tuple.of(1, 1),
                    net.jqwik.api.Tuple.of(1, -1)))
            .as((d, k, off) -> new int[] {d, k, off});
    return shape.flatMap(
        dk -> {
          int d = dk[0];
          int k = dk[1];
          Arbitrary<String> header =
              Combinators.combine(
                      field("ogd", "scinol2", "adagrad", "dfeg"),
                      field("", "eta=1", "eta=1e39", "eps=0", "L=-1", "a=2", "x"),
                      field("double", "float", "int"),
                      field("logistic", "hinge", "squared", "absolute"),
                      field(
                          Integer.toString(d),
                          "0",
                          "-1",
                          "2147483647",
                          "2147483648",
                          "99999999999",
                          "1e3",
                          "1000000000"),
                      field(Integer.toString(k), "0", "-1", "2147483647", "1000000000"),
                      field(k == 1 ? "binary" : Integer.toString(k), "binary", "2", "3", "0", "-3"))
                  .as(
                      (a, p, t, l, dd, kk, c) ->
                          "online-kernels-model 2\nalgorithm "
                              + a
                              + "\nparams"
                              + (p.isEmpty() ? "" : " " + p)
                              + "\ntype "
                              + t
                              + "\nloss "
                              + l
                              + "\nd "
                              + dd
                              + "\noutputs "
                              + kk
                              + "\nclasses "
                              + c
                              + "\n");
          Arbitrary<String> weightLine =
              weight()
                  .list()
                  .ofSize(Math.max(0, d + dk[2]))
                  .map(ws -> "w" + ws.stream().map(w -> " " + w).reduce("", String::concat) + "\n");
          Arbitrary<String> lines = weightLine.list().ofSize(k).map(ls -> String.join("", ls));
          return Combinators.combine(
                  header,
                  lines,
                  Arbitraries.frequencyOf(
                      f(8, Arbitraries.just("")), f(1, Arbitraries.of("extra\n", "w 1\r\n", "\n"))))
              .as((h, w, tail) -> h + w + tail);
        });
  }

  /**
   * The outcomes are counted: a run where under a tenth of the files load fails (loading must be
   * exercised).
   */
  @Property
  void aSealedHostileModelLoadsAndScoresFinitelyOrIsRefusedNamingTheFile(
      @ForAll("hostileBodies") String body) throws IOException {
    Path f = Files.write(dir.resolve("hostile.model"), ModelFileFaultsTest.sealed(body));
    net.jqwik.api.statistics.Statistics.coverage(c -> c.check("loaded").percentage(p -> p >= 10));
    LinearModel m;
    try {
      m = LinearModel.load(f);
      net.jqwik.api.statistics.Statistics.collect("loaded");
    } catch (LinearModel.ModelFormatException e) {
      net.jqwik.api.statistics.Statistics.collect("refused");
      assertTrue(
          e.getMessage().startsWith(f + ":") && e.getMessage().lines().count() == 1,
          e.getMessage());
      return;
    }
    int d = m.dimension();
    int[] idx = new int[d + 1];
    double[] val = new double[d + 1];
    for (int i = 0; i <= d; i++) {
      idx[i] = i; // index d is beyond the model: weight 0
      val[i] = (i % 3 - 1) * 1e3;
    }
    double[] out = new double[m.outputs()];
    m.scores(idx, val, 0, d + 1, out);
    for (double[] w : m.weights()) {
      for (double x : w) {
        assertTrue(Double.isFinite(x), body);
      }
    }
    for (double s : out) {
      assertTrue(Double.isFinite(s), "score " + s + " of " + List.of(body));
    }
  }
}
