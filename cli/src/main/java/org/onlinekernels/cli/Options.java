package org.onlinekernels.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The options of one subcommand: {@code --name value}, {@code --name=value} or a bare {@code
 * --flag}; a value option may be repeatable. Anything else is a {@link UsageException} whose
 * message is the one line the user sees.
 */
final class Options {
  private final Map<String, List<String>> values = new LinkedHashMap<>();

  /** A usage problem; its message is the one line shown to the user. */
  static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  private Options() {}

  /**
   * Parses {@code args[from..]}.
   *
   * @param flags options without a value ({@code --help} is always one)
   * @param valued options with a value
   * @param repeatable the valued options that may be given more than once
   */
  static Options parse(
      String[] args, int from, Set<String> flags, Set<String> valued, Set<String> repeatable)
      throws UsageException {
    Options o = new Options();
    int i = from;
    while (i < args.length) {
      String a = args[i++];
      String name = a;
      String value = null;
      int eq = a.indexOf('=');
      if (a.startsWith("--") && eq > 0) {
        name = a.substring(0, eq);
        value = a.substring(eq + 1);
      }
      if (name.equals("-h")) {
        name = "--help";
      }
      if (name.equals("--help") || flags.contains(name)) {
        if (value != null) {
          throw new UsageException(name + " takes no value");
        }
        if (o.values.containsKey(name) && !name.equals("--help")) {
          throw new UsageException(name + " given twice");
        }
        o.values.put(name, List.of());
      } else if (valued.contains(name)) {
        if (value == null) {
          if (i == args.length) {
            throw new UsageException(name + " needs a value");
          }
          value = args[i++];
        }
        if (value.isEmpty()) {
          throw new UsageException(name + " needs a non-empty value");
        }
        if (o.values.containsKey(name) && !repeatable.contains(name)) {
          throw new UsageException(name + " given twice");
        }
        o.values.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
      } else {
        if (!a.startsWith("-")) {
          throw new UsageException("unexpected argument '" + a + "'");
        }
        List<String> known = new ArrayList<>(flags);
        known.addAll(valued);
        known.add("--help");
        throw new UsageException("unknown option '" + name + "'" + DidYouMean.hint(name, known));
      }
    }
    return o;
  }

  boolean has(String name) {
    return values.containsKey(name);
  }

  String get(String name) {
    List<String> v = values.get(name);
    return v == null || v.isEmpty() ? null : v.get(0);
  }

  List<String> all(String name) {
    return values.getOrDefault(name, List.of());
  }

  String require(String name) throws UsageException {
    String v = get(name);
    if (v == null) {
      throw new UsageException(name + " is required");
    }
    return v;
  }

  int positiveInt(String name, int dflt) throws UsageException {
    int x = wholeNumber(name, dflt);
    if (has(name) && x < 1) {
      throw new UsageException(name + " must be at least 1, got " + get(name));
    }
    return x;
  }

  /**
   * The value of {@code name} as an int of any sign ({@code dflt} when absent), for a flag whose
   * caller states its own least value.
   */
  int wholeNumber(String name, int dflt) throws UsageException {
    String v = get(name);
    if (v == null) {
      return dflt;
    }
    try {
      return Integer.parseInt(v.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new UsageException(name + " must be a whole number, got '" + v + "'");
    }
  }

  long longValue(String name, long dflt) throws UsageException {
    String v = get(name);
    if (v == null) {
      return dflt;
    }
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new UsageException(name + " must be a whole number (64-bit), got '" + v + "'");
    }
  }
}
