package org.onlinekernels.trainer;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.optimizer.ParameterRangeException;
import org.onlinekernels.optimizer.RuleInfo;
import org.onlinekernels.optimizer.checkpoint.Checkpoint;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.rules.Rules;
import org.onlinekernels.rules.ogd.OgdOptimizer;

/**
 * An algorithm chosen by name with its parameters as text, e.g. {@code adagrad} with {@code
 * eta=0.1, delta=1e-8}: what the command line and the model file carry, turned into an optimizer by
 * {@link #create}. The names and parameters are the rules' own ({@link Rules}), plus the {@code
 * ogd} baseline; parameters not given take the defaults listed in {@link #HELP}; unknown names and
 * bad values are refused with a message naming the parameter.
 *
 * @param name one of {@link #NAMES}
 * @param params parameter name to value, in the order given (unmodifiable)
 */
public record AlgorithmSpec(String name, Map<String, Double> params) {
  /** Every algorithm name, in display order: the rules, then the baseline. */
  public static final List<String> NAMES =
      Stream.concat(Rules.names().stream(), Stream.of("ogd")).toList();

  /**
   * One or two lines per algorithm: name, parameters with defaults, meaning. Shown by {@code train
   * --help}.
   */
  public static final String HELP =
      Stream.concat(
              Rules.ALL.stream().flatMap(r -> r.help().stream()),
              Stream.of(
                  "  ogd             eta=1, R=inf                       baseline: OGD/SGD with rate eta/sqrt(t), L2 ball R"))
          .collect(Collectors.joining("\n"));

  private static final Set<String> OGD_KEYS = Set.of("eta", "R");

  private static Set<String> keys(String name) {
    if ("ogd".equals(name)) {
      return OGD_KEYS;
    }
    RuleInfo r = Rules.find(name);
    return r == null ? null : r.parameters();
  }

  /** The parameter names of algorithm {@code name} (sorted), e.g. for a "did you mean" hint. */
  public static List<String> parameterNames(String name) {
    Set<String> keys = keys(name);
    if (keys == null) {
      throw new IllegalArgumentException(
          "unknown algorithm '" + name + "'; valid names: " + String.join(", ", NAMES));
    }
    return keys.stream().sorted().toList();
  }

  /** Validates the name and parameter names (values are checked by {@link #create}). */
  public AlgorithmSpec {
    if (name == null || !NAMES.contains(name)) {
      throw new IllegalArgumentException(
          "unknown algorithm '" + name + "'; valid names: " + String.join(", ", NAMES));
    }
    Map<String, Double> copy = new LinkedHashMap<>();
    for (Map.Entry<String, Double> e : params.entrySet()) {
      if (!keys(name).contains(e.getKey())) {
        List<String> valid = new ArrayList<>(keys(name));
        Collections.sort(valid);
        throw new IllegalArgumentException(
            "algorithm "
                + name
                + " has no parameter '"
                + e.getKey()
                + "'; its parameters: "
                + String.join(", ", valid));
      }
      if (e.getValue() == null || Double.isNaN(e.getValue())) {
        throw new IllegalArgumentException("parameter " + e.getKey() + " must be a number");
      }
      copy.put(e.getKey(), e.getValue());
    }
    params = Collections.unmodifiableMap(copy);
  }

  /** The algorithm with all-default parameters. */
  public static AlgorithmSpec of(String name) {
    return new AlgorithmSpec(name, Map.of());
  }

  /**
   * Parses {@code name} and {@code key=value} items (each item may itself hold several
   * comma-separated pairs), e.g. {@code parse("adagrad", List.of("eta=0.1,delta=0"))}.
   */
  public static AlgorithmSpec parse(String name, List<String> items) {
    Map<String, Double> p = new LinkedHashMap<>();
    for (String item : items) {
      for (String pair : item.split(",")) {
        String s = pair.trim();
        if (s.isEmpty()) {
          continue;
        }
        int eq = s.indexOf('=');
        if (eq <= 0 || eq == s.length() - 1) {
          throw new IllegalArgumentException("parameter '" + s + "' is not of the form name=value");
        }
        String key = s.substring(0, eq).trim();
        String value = s.substring(eq + 1).trim();
        double v;
        try {
          v = Double.parseDouble(value);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              "parameter " + key + " must be a number, got '" + value + "'");
        }
        if (p.put(key, v) != null) {
          throw new IllegalArgumentException("parameter " + key + " given twice");
        }
      }
    }
    return new AlgorithmSpec(name == null ? null : name.trim().toLowerCase(Locale.ROOT), p);
  }

  /** Same algorithm with one parameter set (replacing a given value). */
  public AlgorithmSpec with(String key, double value) {
    Map<String, Double> p = new LinkedHashMap<>(params);
    p.put(key, value);
    return new AlgorithmSpec(name, p);
  }

  /**
   * The parameters as given, {@code k=v,k=v} (empty string for all defaults); parsed back by {@link
   * #parse}.
   */
  public String paramString() {
    StringBuilder sb = new StringBuilder();
    params.forEach(
        (k, v) -> {
          if (!sb.isEmpty()) {
            sb.append(',');
          }
          sb.append(k).append('=').append(num(v));
        });
    return sb.toString();
  }

  /**
   * Whether {@code other} is this algorithm with the same value of every parameter, given or
   * default ({@code eps=1} is scinol2 with its defaults), as optimizers of {@code precision}.
   */
  public boolean sameParameters(AlgorithmSpec other, Precision precision) {
    if (!name.equals(other.name)) {
      return false;
    }
    if (params.equals(other.params)) {
      return true;
    }
    try (LinearModelOptimizer a = create(1, precision, StateLayout.PLANAR, null, null);
        LinearModelOptimizer b = other.create(1, precision, StateLayout.PLANAR, null, null)) {
      String pa = Checkpoint.parameters(a);
      return !pa.isEmpty() && pa.equals(Checkpoint.parameters(b));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** {@code name} or {@code name(k=v,...)}: a short label for tables. */
  public String label() {
    return params.isEmpty() ? name : name + "(" + paramString() + ")";
  }

  private static String num(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }

  private double get(String key, double dflt) {
    Double v = params.get(key);
    return v == null ? dflt : v;
  }

  /**
   * A fresh optimizer for {@code d} coordinates of {@code type}; state in {@code arena}, or in an
   * arena of its own when {@code arena} is null.
   *
   * @throws IllegalArgumentException when a parameter value is invalid (the message names it)
   */
  public LinearModelOptimizer create(int d, ElementType type, Arena arena) {
    return create(d, type, arena, null);
  }

  /**
   * Same with a kernel implementation ({@code null}: {@link KernelProvider#get()}); the {@code ogd}
   * baseline has no kernels and ignores it.
   */
  public LinearModelOptimizer create(int d, ElementType type, Arena arena, KernelProvider kernels) {
    return create(d, Precision.of(type), StateLayout.PLANAR, arena, kernels);
  }

  /**
   * Same with the state in {@code layout} where the rule offers it (a rule with one field, and
   * AdaGrad or Adaptive OGD with per-coordinate parameters, stay planar).
   */
  public LinearModelOptimizer create(
      int d, ElementType type, StateLayout layout, Arena arena, KernelProvider kernels) {
    return create(d, Precision.of(type), layout, arena, kernels);
  }

  /**
   * The algorithms with a {@link Precision#MIXED} form (float weights and inputs, double
   * accumulators).
   */
  public static final Set<String> MIXED =
      Rules.ALL.stream()
          .filter(RuleInfo::mixed)
          .map(RuleInfo::name)
          .collect(Collectors.toUnmodifiableSet());

  /**
   * Same with a precision; {@link Precision#MIXED} exists for the algorithms in {@link #MIXED},
   * with planar state whatever {@code layout} asks.
   *
   * @throws IllegalArgumentException when a parameter value is invalid (the message names it as
   *     given here, e.g. {@code eps}), or MIXED is asked of another algorithm
   */
  public LinearModelOptimizer create(
      int d, Precision precision, StateLayout layout, Arena arena, KernelProvider kernels) {
    if (precision == Precision.MIXED && !MIXED.contains(name)) {
      throw new IllegalArgumentException(
          "mixed precision exists for "
              + String.join(" and ", MIXED.stream().sorted().toList())
              + ", not for "
              + name);
    }
    try {
      return createChecked(d, precision, layout, arena, kernels);
    } catch (ParameterRangeException e) {
      // Keeps its type, so that callers can name the flag and the element type.
      ParameterRangeException renamed =
          new ParameterRangeException(ownName(e.parameter()), ownNames(e.getMessage()));
      renamed.initCause(e);
      throw renamed;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(ownNames(e.getMessage()), e);
    }
  }

  /**
   * The parameter records' names that this class's keys (the command line's {@code --param} names)
   * spell otherwise.
   */
  private static final Map<String, String> OWN_NAMES =
      Map.of("epsilon", "eps", "Q0", "q0", "lambda1", "l1", "lambda2", "l2");

  /**
   * A parameter the library names {@code name}, as this class names it: AdaGrad's {@code rate} is
   * {@code eta}, or {@code alpha} with a box; global AdaGrad's rate numerator {@code alpha * D} is
   * refused through {@code alpha}.
   */
  private String ownName(String parameter) {
    return switch (parameter) {
      case "rate" -> params.containsKey("alpha") ? "alpha" : "eta";
      case "alpha * D" -> "alpha";
      default -> OWN_NAMES.getOrDefault(parameter, parameter);
    };
  }

  /** A library message with every parameter named as this class names it ({@link #ownName}). */
  private String ownNames(String message) {
    if (message == null) {
      return null;
    }
    String m = message;
    for (Map.Entry<String, String> e : OWN_NAMES.entrySet()) {
      m = m.replaceAll("\\b" + e.getKey() + "\\b", e.getValue());
    }
    // AdaGrad's "rate = v ... |rate| must be", not the prose's "the rate would overflow".
    return name.equals("adagrad") ? m.replaceAll("\\brate( =|\\|)", ownName("rate") + "$1") : m;
  }

  private LinearModelOptimizer createChecked(
      int d, Precision precision, StateLayout layout, Arena arena, KernelProvider kernels) {
    if (name.equals("ogd")) {
      return new OgdOptimizer(
          d, precision.inputType(), get("eta", 1), get("R", Double.POSITIVE_INFINITY), arena);
    }
    return Rules.find(name)
        .factory()
        .create(d, precision, layout, arena, kernels, new RuleInfo.Params(params));
  }
}
