package org.onlinekernels.cli;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.onlinekernels.cli.Options.UsageException;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.ParameterRangeException;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.trainer.AlgorithmSpec;

/**
 * The values of {@code --type}, {@code --loss}, {@code --algorithm} and {@code --param}, checked
 * before any data is read; errors name the flag or parameter as the user wrote it and suggest the
 * nearest valid name.
 */
final class Choices {
  static final List<String> TYPES = List.of("float", "double", "mixed");

  private Choices() {}

  /** {@code --type}: float (default), double or mixed. */
  static Precision precision(String t) throws UsageException {
    if (t == null) {
      return Precision.FLOAT;
    }
    if (!TYPES.contains(t)) {
      throw new UsageException(
          "--type must be float, double or mixed, got '" + t + "'" + DidYouMean.hint(t, TYPES));
    }
    return Precision.valueOf(t.toUpperCase(Locale.ROOT));
  }

  /** {@code --loss}: logistic (default), hinge, absolute or squared. */
  static Loss loss(String name) throws UsageException {
    if (name == null) {
      return Loss.LOGISTIC;
    }
    try {
      return Loss.parse(name);
    } catch (IllegalArgumentException e) {
      List<String> names =
          Arrays.stream(Loss.values()).map(l -> l.name().toLowerCase(Locale.ROOT)).toList();
      throw new UsageException("--loss: " + e.getMessage() + DidYouMean.hint(name, names));
    }
  }

  /**
   * {@code --algorithm} with its {@code --param} items, validated by building a one-coordinate
   * optimizer of the given precision.
   */
  static AlgorithmSpec algorithm(String name, List<String> params, Precision precision)
      throws UsageException {
    String n = name.trim().toLowerCase(Locale.ROOT);
    if (!AlgorithmSpec.NAMES.contains(n)) {
      throw new UsageException(
          "unknown algorithm '"
              + name
              + "'; valid names: "
              + String.join(", ", AlgorithmSpec.NAMES)
              + DidYouMean.hint(name, AlgorithmSpec.NAMES));
    }
    AlgorithmSpec spec;
    try {
      spec = AlgorithmSpec.parse(n, params);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage() + paramHint(n, e.getMessage()));
    }
    if (precision == Precision.MIXED && !AlgorithmSpec.MIXED.contains(n)) {
      throw new UsageException(
          "--type mixed: mixed precision exists for adagrad and scinol2, not for " + n);
    }
    try {
      spec.create(1, precision, StateLayout.PLANAR, null, null)
          .close(); // validates the values before any data is read
    } catch (ParameterRangeException e) {
      throw new UsageException(
          "--param "
              + e.parameter()
              + " with --type "
              + precision.name().toLowerCase(Locale.ROOT)
              + ": "
              + e.getMessage());
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    return spec;
  }

  /** A hint for "has no parameter 'x'" messages. */
  private static String paramHint(String algorithm, String message) {
    String marker = "has no parameter '";
    int i = message == null ? -1 : message.indexOf(marker);
    if (i < 0) {
      return "";
    }
    int start = i + marker.length();
    int end = message.indexOf('\'', start);
    return end < 0
        ? ""
        : DidYouMean.hint(message.substring(start, end), AlgorithmSpec.parameterNames(algorithm));
  }
}
