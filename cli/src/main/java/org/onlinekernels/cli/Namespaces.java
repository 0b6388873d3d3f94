package org.onlinekernels.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.onlinekernels.cli.Options.UsageException;
import org.onlinekernels.io.VisibleText;

/**
 * Which Vowpal Wabbit namespaces a row keeps and which pairs of them it crosses: {@code
 * --interactions ab} (alias {@code -q ab}; repeatable; {@code ::} for every pair), {@code --ignore
 * abc} and {@code --keep abc}. As in VW a namespace is named by the first byte of its name ({@code
 * |animal} is {@code a}), the default namespace by a space; see {@link VwRow} for how the crossed
 * features are hashed.
 *
 * <p>Validated once, when the options are read: a pair needs exactly two namespace letters
 * (printable ASCII other than {@code |} and {@code :}), a pair given twice (also as {@code ba}) is
 * refused, {@code ::} stands alone, {@code --ignore} and {@code --keep} exclude each other, and an
 * interaction may not name a namespace that is dropped.
 */
final class Namespaces {
  /** No interactions, every namespace kept. */
  static final Namespaces NONE =
      new Namespaces(new boolean[256], false, new byte[0], new byte[0], "", "", "");

  private final boolean[] dropped;
  private final boolean allPairs;
  private final byte[] first;
  private final byte[] second;
  private final String interactions;
  private final String ignore;
  private final String keep;

  private Namespaces(
      boolean[] dropped,
      boolean allPairs,
      byte[] first,
      byte[] second,
      String interactions,
      String ignore,
      String keep) {
    this.dropped = dropped;
    this.allPairs = allPairs;
    this.first = first;
    this.second = second;
    this.interactions = interactions;
    this.ignore = ignore;
    this.keep = keep;
  }

  /**
   * Parses the options' values.
   *
   * @param pairs the values of {@code --interactions} / {@code -q}
   * @param ignore the value of {@code --ignore}, or null
   * @param keep the value of {@code --keep}, or null
   */
  static Namespaces parse(List<String> pairs, String ignore, String keep) throws UsageException {
    if (ignore != null && keep != null) {
      throw new UsageException(
          "--ignore and --keep exclude each other: give the namespaces to keep, or those to drop");
    }
    boolean[] dropped = new boolean[256];
    if (ignore != null) {
      for (char c : letters("--ignore", ignore)) {
        dropped[c] = true;
      }
    }
    if (keep != null) {
      java.util.Arrays.fill(dropped, true);
      for (char c : letters("--keep", keep)) {
        dropped[c] = false;
      }
    }
    boolean all = false;
    List<Byte> a = new ArrayList<>();
    List<Byte> b = new ArrayList<>();
    for (String p : pairs) {
      if (p.equals("::")) {
        if (pairs.size() > 1) {
          throw new UsageException(
              "--interactions :: crosses every pair of namespaces already; give it alone");
        }
        all = true;
        continue;
      }
      char[] ab = letters("--interactions", p);
      if (ab.length != 2) {
        throw new UsageException(
            "--interactions takes two namespace letters (e.g. ab) or ::, got '"
                + p
                + "'"
                + (ab.length > 2 ? ": only pairs are crossed" : ""));
      }
      for (int k = 0; k < a.size(); k++) {
        if ((a.get(k) == ab[0] && b.get(k) == ab[1]) || (a.get(k) == ab[1] && b.get(k) == ab[0])) {
          throw new UsageException(
              "--interactions " + p + " given twice (ab and ba are the same pair)");
        }
      }
      for (char c : ab) {
        if (dropped[c]) {
          throw new UsageException(
              "--interactions "
                  + p
                  + " names namespace '"
                  + c
                  + "', which "
                  + (keep != null ? "--keep leaves out" : "--ignore drops"));
        }
      }
      a.add((byte) ab[0]);
      b.add((byte) ab[1]);
    }
    byte[] fa = new byte[a.size()];
    byte[] fb = new byte[b.size()];
    for (int k = 0; k < fa.length; k++) {
      fa[k] = a.get(k);
      fb[k] = b.get(k);
    }
    return new Namespaces(
        dropped,
        all,
        fa,
        fb,
        String.join("|", pairs),
        ignore == null ? "" : ignore,
        keep == null ? "" : keep);
  }

  /** The letters of one option value, each printable ASCII other than '|' and ':'. */
  private static char[] letters(String flag, String value) throws UsageException {
    char[] cs = value.toCharArray();
    for (char c : cs) {
      if (c < ' ' || c > '~' || c == '|' || c == ':') {
        throw new UsageException(
            flag
                + " '"
                + VisibleText.of(value)
                + "': '"
                + (c < ' ' || c > '~' ? String.format(Locale.ROOT, "\\u%04x", (int) c) : c)
                + "' is not a namespace letter (printable ASCII other than '|' and ':'; a space is the default namespace)");
      }
    }
    return cs;
  }

  /** Whether the namespace of first byte {@code letter} is dropped. */
  boolean dropped(int letter) {
    return dropped[letter];
  }

  /** Whether every pair of the namespaces present in a row is crossed ({@code ::}). */
  boolean allPairs() {
    return allPairs;
  }

  /** Number of explicit pairs. */
  int pairs() {
    return first.length;
  }

  /** The first namespace letter of pair {@code k}. */
  int first(int k) {
    return first[k];
  }

  /** The second namespace letter of pair {@code k}. */
  int second(int k) {
    return second[k];
  }

  /** Whether rows are crossed at all. */
  boolean crosses() {
    return allPairs || first.length > 0;
  }

  /** Whether anything differs from {@link #NONE}. */
  boolean any() {
    return crosses() || !ignore.isEmpty() || !keep.isEmpty();
  }

  /**
   * The {@code --interactions} values separated by '|' (no namespace letter), "" for none: how a
   * state file records them.
   */
  String interactions() {
    return interactions;
  }

  /** The {@code --ignore} value, or "". */
  String ignore() {
    return ignore;
  }

  /** The {@code --keep} value, or "". */
  String keep() {
    return keep;
  }

  /**
   * The same settings from their recorded form ({@link #interactions()}, {@link #ignore()}, {@link
   * #keep()}).
   */
  static Namespaces of(String interactions, String ignore, String keep) throws UsageException {
    return parse(
        interactions.isEmpty() ? List.of() : List.of(interactions.split("\\|")),
        ignore.isEmpty() ? null : ignore,
        keep.isEmpty() ? null : keep);
  }

  /** One line for reports: {@code interactions ab,cd; ignore x}, or "" for none. */
  String describe() {
    List<String> parts = new ArrayList<>();
    if (!interactions.isEmpty()) {
      parts.add("interactions " + interactions.replace('|', ','));
    }
    if (!ignore.isEmpty()) {
      parts.add("ignore '" + ignore + "'");
    }
    if (!keep.isEmpty()) {
      parts.add("keep '" + keep + "'");
    }
    return String.join("; ", parts);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Namespaces n
        && n.interactions.equals(interactions)
        && n.ignore.equals(ignore)
        && n.keep.equals(keep);
  }

  @Override
  public int hashCode() {
    return interactions.hashCode() * 31 + ignore.hashCode() * 7 + keep.hashCode();
  }
}
