package org.onlinekernels.optimizer;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateLayout;

/**
 * A rule as the command line, the trainers, the test kit and the benchmarks know it: its name, its
 * parameters (as named on the command line) with one help line each, whether it has a
 * mixed-precision form, and how to make its optimizer from parameters given as text. Each rule's
 * optimizer declares one; {@code org.onlinekernels.rules.Rules} lists them.
 *
 * @param name the rule's name, e.g. {@code scinol2}
 * @param help two lines for {@code train --help}: parameters with defaults, then what the rule is
 * @param parameters the parameter names it takes
 * @param mixed whether it has a {@link Precision#MIXED} form
 * @param factory makes its optimizer
 */
public record RuleInfo(
    String name, List<String> help, Set<String> parameters, boolean mixed, Factory factory) {
  /** Copies the collections. */
  public RuleInfo {
    help = List.copyOf(help);
    parameters = Set.copyOf(parameters);
  }

  /** Makes an optimizer of the rule. */
  @FunctionalInterface
  public interface Factory {
    /**
     * An optimizer of dimension {@code d} with the given parameters (absent ones take the rule's
     * defaults).
     *
     * @param layout the state layout, where the rule offers it (a rule whose state cannot take it
     *     stays planar)
     * @throws IllegalArgumentException when a parameter value is invalid (the message names it)
     */
    AbstractOptimizer create(
        int d,
        Precision precision,
        StateLayout layout,
        Arena arena,
        KernelProvider kernels,
        Params params);
  }

  /** Parameters given as text, by name. */
  public record Params(Map<String, Double> values) {
    /** Copies the map. */
    public Params {
      values = Map.copyOf(values);
    }

    /** Parameter {@code key}, or {@code dflt} when not given. */
    public double get(String key, double dflt) {
      Double v = values.get(key);
      return v == null ? dflt : v;
    }

    /** Whether {@code key} was given. */
    public boolean has(String key) {
      return values.containsKey(key);
    }
  }
}
