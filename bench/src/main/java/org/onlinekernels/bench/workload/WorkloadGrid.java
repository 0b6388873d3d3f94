package org.onlinekernels.bench.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.onlinekernels.bench.workload.hand.HandLoop;

/**
 * What runs on one workload: JMH batches (each every contender x rule x type of its lists, one fork
 * each) and the rules and types of the C loop, all within the profile's {@code rules} and {@code
 * types}. Every workload gets the hand loops and the trainer (both input policies) for the rules
 * with a hand loop in every type, and the other library contenders in float; a workload of the
 * profile's {@code everyRule} list gets every library contender for every rule in every type (issue
 * #19's comparison). The C loop runs every rule it has in every type. A rule that costs O(d) per
 * row ({@link RowCost}) runs only where that is affordable.
 *
 * @param batches JMH batches, in run order
 * @param cRules the rules the C loop runs here
 * @param cTypes the element types the C loop runs them in
 */
public record WorkloadGrid(List<Batch> batches, List<String> cRules, List<String> cTypes) {
  /** Both element types. */
  public static final List<String> TYPES = List.of("float", "double");

  /** Every contender x rule x type of the lists, one JMH fork each. */
  public record Batch(List<String> contenders, List<String> rules, List<String> types) {
    /** Forks this batch costs. */
    public int size() {
      return contenders.size() * rules.size() * types.size();
    }
  }

  /**
   * The grid of {@code workload} (of shape {@code s}) in profile {@code p}, with the rules that
   * cost O(d) per row and the rules the C program has ({@code cHas}; empty without a C compiler).
   */
  public static WorkloadGrid of(
      WorkloadProfile p,
      String workload,
      WorkloadReport.Shape s,
      Set<String> dense,
      List<String> cHas) {
    List<String> fits =
        p.rules().stream()
            .filter(r -> RowCost.affordable(dense.contains(r), s.rows(), s.d(), s.outputs()))
            .toList();
    List<String> core = HandLoop.RULES.stream().filter(fits::contains).toList();
    boolean every = p.everyRule().contains(workload);
    List<String> floatOnly = p.types().stream().filter(t -> t.equals("float")).toList();
    List<Batch> b = new ArrayList<>();
    b.add(new Batch(List.of("hand", "trainer-checked", "trainer-trusted"), core, p.types()));
    b.add(
        new Batch(
            List.of("per-call", "rounds", "rounds-buffers"), core, every ? p.types() : floatOnly));
    List<String> others = fits.stream().filter(r -> !core.contains(r)).toList();
    if (every && !others.isEmpty()) {
      b.add(new Batch(WorkloadBench.LIBRARY, others, p.types()));
    }
    List<String> c = fits.stream().filter(cHas::contains).toList();
    return new WorkloadGrid(b.stream().filter(x -> x.size() > 0).toList(), c, p.types());
  }

  /** JMH forks of the grid. */
  public int forks() {
    return batches.stream().mapToInt(Batch::size).sum();
  }
}
