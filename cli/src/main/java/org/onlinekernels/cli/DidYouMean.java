package org.onlinekernels.cli;

import java.util.Collection;
import java.util.Locale;

/**
 * The nearest valid name to a misspelt one, for "did you mean" hints: names that differ only in
 * case, {@code _} for {@code -} or leading dashes match at once, as does a name that starts or is
 * the start of the given one (at least two letters: {@code epsilon} finds {@code eps}); otherwise
 * the name at the smallest edit distance wins if that distance is at most a third of its length (at
 * least 1).
 */
final class DidYouMean {
  private DidYouMean() {}

  /** {@code " (did you mean 'NAME'?)"}, or the empty string when no name is near. */
  static String hint(String given, Collection<String> names) {
    String best = nearest(given, names);
    return best == null ? "" : " (did you mean '" + best + "'?)";
  }

  /** The nearest name, or {@code null}. */
  static String nearest(String given, Collection<String> names) {
    if (given == null) {
      return null;
    }
    String g = normal(given);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String n : names) {
      int dist = distance(g, normal(n));
      if (dist < bestDistance) {
        best = n;
        bestDistance = dist;
      }
    }
    if (best == null || bestDistance == 0) {
      return best;
    }
    for (String n : names) {
      String m = normal(n);
      if (Math.min(m.length(), g.length()) >= 2 && (m.startsWith(g) || g.startsWith(m))) {
        return n;
      }
    }
    int allowed = Math.max(1, normal(best).length() / 3);
    return bestDistance <= allowed ? best : null;
  }

  private static String normal(String s) {
    String t = s.toLowerCase(Locale.ROOT).replace('_', '-');
    int i = 0;
    while (i < t.length() && t.charAt(i) == '-') {
      i++;
    }
    return t.substring(i);
  }

  /** Levenshtein distance. */
  private static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
