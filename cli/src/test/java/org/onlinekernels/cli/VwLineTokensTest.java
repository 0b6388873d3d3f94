package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.codec.digest.MurmurHash3;
import org.junit.jupiter.api.Test;
import org.onlinekernels.io.TextFeed;
import org.onlinekernels.kernel.ElementType;

/**
 * VwLine's feature scan, which looks at eight bytes at a time: every feature ends where the format
 * says (a space, '|' or the line's end) and splits at its last ':' wherever it sits in a word,
 * whatever bytes follow the line in the array.
 */
class VwLineTokensTest {
  private static final int BITS = 18;

  /** Features as written and the name and value each stands for (null: value 1). */
  private static final List<String[]> FEATURES =
      List.of(
          new String[] {"a", "a", null},
          new String[] {"abcdefg", "abcdefg", null},
          new String[] {"abcdefgh", "abcdefgh", null},
          new String[] {"abcdefghijklmnopq", "abcdefghijklmnopq", null},
          new String[] {"x:2", "x", "2"},
          new String[] {"a:b:3", "a:b", "3"},
          new String[] {"abcdefghi:0.5", "abcdefghi", "0.5"},
          new String[] {"\u0001c\u001fd", "\u0001c\u001fd", null}, // control bytes are name bytes
          new String[] {"\u00e9\u00fa\u00bc", "\u00e9\u00fa\u00bc", null}, // bytes 0x80 and up
          new String[] {"~{}", "~{}", null});

  private static int hash(String s, int seed) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    return MurmurHash3.hash32x86(b, 0, b.length, seed);
  }

  private static void check(String feature, String name, String value, int pad, String after)
      throws TextFeed.LineProblem {
    String line = "1 |n" + " ".repeat(pad) + " " + feature + "\t" + feature + "|m " + feature;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(line.getBytes(StandardCharsets.UTF_8));
    int e = out.size();
    out.writeBytes(after.getBytes(StandardCharsets.UTF_8));
    byte[] b = out.toByteArray();
    VwRow row = new VwRow(BITS, false, Namespaces.NONE, null);
    VwLine p = new VwLine(BITS, row, TrainCommand.inputLimits(ElementType.FLOAT, false, 0));
    String where = "'" + feature + "' after " + pad + " spaces, then '" + after + "'";
    assertTrue(p.read(b, 0, e), where);
    double v = value == null ? 1 : Double.parseDouble(value);
    int mask = (1 << BITS) - 1;
    int n = hash(name, hash("n", 0)) & mask;
    int m = hash(name, hash("m", 0)) & mask;
    int[] idx = n == m ? new int[] {n} : new int[] {Math.min(n, m), Math.max(n, m)};
    double[] val = new double[idx.length];
    for (int k = 0; k < idx.length; k++) {
      val[k] = (idx[k] == n ? 2 * v : 0) + (idx[k] == m ? v : 0);
    }
    assertEquals(idx.length, p.count(), where);
    assertArrayEquals(idx, Arrays.copyOf(row.indices(), p.count()), where);
    assertArrayEquals(val, Arrays.copyOf(row.values(), p.count()), where);
  }

  @Test
  void everyFeatureEndsAndSplitsWhereTheFormatSaysAtEveryPlaceInAWord()
      throws TextFeed.LineProblem {
    for (String[] f : FEATURES) {
      for (int pad = 0; pad < 9; pad++) {
        for (String after : List.of("", "\n", "\nzz:|\u0001 more text beyond the line")) {
          check(f[0], f[1], f[2], pad, after);
        }
      }
    }
  }
}
