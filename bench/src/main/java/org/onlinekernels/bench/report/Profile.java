package org.onlinekernels.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.onlinekernels.bench.RuleBench;
import org.openjdk.jmh.annotations.Param;

/**
 * Warm-up: Vector API code runs ~100x slower until C2 has compiled it (the interpreter and C1 box
 * every vector; measured: 1 ms, 21 us, 8 us per call in the first three 1-s warm-up iterations of
 * the sparse AdaGrad kernel, 270 ms for the first dense AdaGrad call at d = 256K). The dense states
 * therefore compile their kernels at a small size in their trial setup (DenseParams.WARM_D), and
 * JMH's warm-up iterations only settle what remains.
 *
 * <p>What one report run measures: groups of benchmarks, each with the JMH parameter values to run,
 * and the JMH iteration settings. {@code quick} keeps the in-cache and DRAM sizes that the targets
 * need and fits in under 5 minutes on the 2-core box; {@code full} is the whole grid of issue #4.
 */
public record Profile(
    String name,
    int warmups,
    int warmupMillis,
    int measurements,
    int iterationMillis,
    int forks,
    List<Group> groups) {

  /**
   * Benchmarks matched by {@code regex} (against the full method name), run with {@code params}.
   */
  public record Group(String label, String regex, Map<String, String[]> params) {}

  static final String[] DENSE = {"1024", "16384", "262144", "4194304", "16777216"};
  static final String[] SMALL = {"1024", "16384", "262144"};
  static final String[] BOTH = {"float", "double"};
  static final String[] IMPLS = {"vector", "scalar"};
  static final String[] NNZ = {"16", "128", "1024"};

  /** RuleBench's rules with targets of issue #4: every dense size, both types. */
  static final String[] TARGET_RULES = {"scinol1", "dfeg"};

  /** RuleBench's other rules (a new rule among them): the two target sizes only. */
  static String[] otherRules() {
    try {
      List<String> all =
          List.of(RuleBench.Round.class.getField("rule").getAnnotation(Param.class).value());
      return all.stream().filter(r -> !List.of(TARGET_RULES).contains(r)).toArray(String[]::new);
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The named profile. */
  public static Profile named(String name) {
    return switch (name) {
      case "quick" -> quick();
      case "full" -> full();
      default ->
          throw new IllegalArgumentException("profile must be quick, full or render, got " + name);
    };
  }

  static Profile quick() {
    String[] sizes = {"16384", "16777216"};
    String[] f = {"float"};
    List<Group> g = new ArrayList<>();
    g.add(
        new Group(
            "roof",
            "RoofBench\\.inPlace",
            Map.of("n", new String[] {"16384", "16777216", "67108864"})));
    g.add(
        new Group("roof", "RoofBench\\.(copy|triad|read)", Map.of("n", new String[] {"67108864"})));
    g.add(
        new Group(
            "dense",
            "(AdaGradBench\\.dense|ScInOL2Bench\\.round.*|RuleBench\\.round)",
            Map.of("d", sizes, "type", BOTH, "impl", IMPLS, "rule", TARGET_RULES)));
    g.add(new Group("steps", "RuleBench\\.step", Map.of("d", sizes, "type", f, "impl", IMPLS)));
    g.add(new Group("handwritten", ".*Bench\\.handwritten", Map.of("d", sizes, "type", BOTH)));
    g.add(new Group("reference", ".*Bench\\.reference", Map.of("d", new String[] {"16384"})));
    g.add(
        new Group(
            "sparse",
            "(AdaGradBench|ScInOL2Bench)\\.sparse",
            Map.of("nnz", new String[] {"128"}, "type", f, "impl", IMPLS)));
    g.add(new Group("tribuo", "TribuoBench\\.dense", Map.of("d", sizes)));
    g.add(new Group("tribuo", "TribuoBench\\.sparse", Map.of("nnz", new String[] {"128"})));
    return new Profile("quick", 2, 300, 3, 300, 1, g);
  }

  static Profile full() {
    List<Group> g = new ArrayList<>();
    g.add(
        new Group(
            "roof",
            "RoofBench\\.inPlace",
            Map.of(
                "n", new String[] {"1024", "16384", "262144", "4194304", "16777216", "67108864"})));
    g.add(
        new Group("roof", "RoofBench\\.(copy|triad|read)", Map.of("n", new String[] {"67108864"})));
    g.add(
        new Group(
            "dense",
            "(AdaGradBench\\.dense|ScInOL2Bench\\.round|RuleBench\\.round)",
            Map.of("d", DENSE, "type", BOTH, "impl", IMPLS, "rule", TARGET_RULES)));
    // The secondary kernels at the two sizes the targets are about, to fit the 35-minute budget.
    g.add(
        new Group(
            "dense2",
            "(ScInOL2Bench\\.roundStored|RuleBench\\.step|RuleBench\\.round)",
            Map.of(
                "d",
                new String[] {"16384", "16777216"},
                "type",
                BOTH,
                "impl",
                IMPLS,
                "rule",
                otherRules())));
    g.add(new Group("handwritten", ".*Bench\\.handwritten", Map.of("d", DENSE, "type", BOTH)));
    g.add(new Group("reference", ".*Bench\\.reference", Map.of("d", SMALL)));
    g.add(
        new Group(
            "sparse",
            "(AdaGradBench|ScInOL2Bench|RuleBench)\\.sparse|RuleBench\\.sparseStep",
            Map.of("nnz", NNZ, "type", new String[] {"float"}, "impl", IMPLS)));
    g.add(
        new Group(
            "sparse",
            "(AdaGradBench|ScInOL2Bench)\\.sparse",
            Map.of("nnz", new String[] {"128"}, "type", new String[] {"double"}, "impl", IMPLS)));
    g.add(new Group("tribuo", "TribuoBench\\.dense", Map.of("d", DENSE)));
    g.add(new Group("tribuo", "TribuoBench\\.sparse", Map.of("nnz", NNZ)));
    // The roof once more at the end: the box is shared, so a second measurement shows drift.
    g.add(new Group("roof-again", "RoofBench\\.inPlace", Map.of("n", new String[] {"67108864"})));
    return new Profile("full", 3, 400, 4, 400, 1, g);
  }
}
