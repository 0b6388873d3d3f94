package org.onlinekernels.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Seeded example streams for the command line's tests, written as a first part A, a second part B
 * and their concatenation AB (A's lines, then B's): LIBSVM and Vowpal Wabbit text.
 */
final class StreamFiles {
  private StreamFiles() {}

  /** The files of one stream. */
  record Parts(Path a, Path b, Path ab) {}

  /**
   * LIBSVM rows over features 1..{@code d}; A's first row holds feature {@code d}, so A alone has
   * the stream's dimension.
   *
   * @param classes 0 for labels +1/-1, else classes 0..classes-1
   */
  static Parts libsvm(Path dir, String name, int na, int nb, int d, int classes, long seed)
      throws IOException {
    Random r = new Random(seed);
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < na + nb; i++) {
      StringBuilder sb = new StringBuilder(label(r, classes));
      int f = i == 0 ? d : 1 + r.nextInt(3);
      for (; f <= d; f += 1 + r.nextInt(4)) {
        sb.append(' ')
            .append(f)
            .append(':')
            .append(String.format(Locale.ROOT, "%.4f", 4 * r.nextGaussian()));
      }
      if (i == 0 && !sb.toString().contains(" " + d + ":")) {
        sb.append(' ').append(d).append(":1");
      }
      rows.add(sb.toString());
    }
    return write(dir, name, ".svm", rows, na);
  }

  /**
   * VW rows: namespaces {@code a}, {@code b} (values) and the default one, words from a small
   * vocabulary.
   */
  static Parts vw(Path dir, String name, int na, int nb, int classes, long seed)
      throws IOException {
    Random r = new Random(seed);
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < na + nb; i++) {
      StringBuilder sb = new StringBuilder(label(r, classes)).append(" |animal");
      for (int k = 0; k < 3; k++) {
        sb.append(" w").append(r.nextInt(40));
      }
      sb.append(" |b");
      for (int k = 0; k < 2; k++) {
        sb.append(" v")
            .append(r.nextInt(40))
            .append(':')
            .append(String.format(Locale.ROOT, "%.3f", r.nextGaussian()));
      }
      sb.append(" | x").append(r.nextInt(10));
      rows.add(sb.toString());
    }
    return write(dir, name, ".vw", rows, na);
  }

  private static String label(Random r, int classes) {
    return classes == 0 ? (r.nextBoolean() ? "1" : "-1") : Integer.toString(r.nextInt(classes));
  }

  private static Parts write(Path dir, String name, String ext, List<String> rows, int na)
      throws IOException {
    Path a = dir.resolve(name + "-a" + ext);
    Path b = dir.resolve(name + "-b" + ext);
    Path ab = dir.resolve(name + "-ab" + ext);
    Files.write(a, rows.subList(0, na));
    Files.write(b, rows.subList(na, rows.size()));
    Files.write(ab, rows);
    return new Parts(a, b, ab);
  }
}
