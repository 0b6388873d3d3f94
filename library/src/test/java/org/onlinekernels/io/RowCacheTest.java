package org.onlinekernels.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.onlinekernels.data.RowBlock;
import org.onlinekernels.data.RowFeed;

/** The row cache gives back what was written, bit for bit, and refuses stale or damaged files. */
class RowCacheTest {
  @TempDir Path dir;

  static Map<String, String> key(String source) {
    Map<String, String> k = new LinkedHashMap<>();
    k.put("source", source);
    k.put("format", "vw");
    return k;
  }

  /** 3000 rows: empty ones, all-ones, float-exact, doubles, large gaps; labels of every kind. */
  static List<RowBlock> blocks() {
    Random r = new Random(3);
    List<RowBlock> blocks = new ArrayList<>();
    RowBlock b = new RowBlock(700);
    for (int i = 0; i < 3000; i++) {
      int n = i % 11 == 0 ? 0 : 1 + r.nextInt(40);
      int[] idx = new int[n];
      double[] val = new double[n];
      int at = r.nextInt(3);
      for (int j = 0; j < n; j++) {
        idx[j] = at;
        at += 1 + r.nextInt(j % 5 == 0 ? 1 << 28 >> 5 : 100);
        val[j] =
            switch (i % 3) {
              case 0 -> 1.0;
              case 1 -> (float) r.nextGaussian();
              default -> r.nextGaussian() * 1e-300;
            };
      }
      b.add(i % 4 == 0 ? 7 : i % 2 == 0 ? -1 : 1.5e-3, i, idx, val, n);
      if (b.isFull()) {
        blocks.add(b);
        b = new RowBlock(700);
      }
    }
    blocks.add(b);
    return blocks;
  }

  static String describe(RowBlock b, int r) {
    StringBuilder s = new StringBuilder();
    s.append(b.id(r)).append(' ').append(Double.doubleToRawLongBits(b.label(r)));
    for (int j = b.rowStart(r); j < b.rowEnd(r); j++) {
      s.append(' ').append(b.indexArray()[j]).append(':');
      s.append(Double.doubleToRawLongBits(b.valueArray()[j]));
    }
    return s.toString();
  }

  static List<String> all(RowFeed f) throws IOException {
    List<String> rows = new ArrayList<>();
    RowBlock b = new RowBlock();
    while (f.next(b)) {
      for (int r = 0; r < b.size(); r++) {
        rows.add(describe(b, r));
      }
    }
    return rows;
  }

  Path written() throws IOException {
    Path f = dir.resolve("c.okrc");
    try (RowCache.Writer w = RowCache.create(f, key("a.vw"))) {
      for (RowBlock b : blocks()) {
        w.write(b);
      }
      assertEquals(3000, w.rows());
      assertFalse(Files.exists(f), "nothing at the path before commit");
      w.commit();
    }
    return f;
  }

  @Test
  void theRowsComeBackBitForBitInOrder() throws IOException {
    Path f = written();
    List<String> expected = new ArrayList<>();
    for (RowBlock b : blocks()) {
      for (int r = 0; r < b.size(); r++) {
        expected.add(describe(b, r));
      }
    }
    try (RowFeed feed = RowCache.open(f, key("a.vw"))) {
      assertEquals(expected, all(feed));
      assertEquals(1.0, feed.progress());
    }
    assertTrue(Files.size(f) < 3000 * 8 * 40, "compact: " + Files.size(f) + " bytes");
  }

  @Test
  void aCacheOfOtherDataIsStaleNamingTheSetting() throws IOException {
    Path f = written();
    RowCache.StaleException e =
        assertThrows(RowCache.StaleException.class, () -> RowCache.open(f, key("b.vw")));
    assertEquals(
        f
            + ": the cache is stale: it holds source = a.vw, this run reads source = b.vw;"
            + " delete it, or give another cache file",
        e.getMessage());
  }

  @Test
  void damagedAndCutCachesAreRefusedNamingTheByte() throws IOException {
    Path f = written();
    byte[] bytes = Files.readAllBytes(f);
    byte[] flipped = bytes.clone();
    // Inside the first block's rows: after the header (16 bytes and the key) and the block's 8.
    flipped[16 + RowCache.keyText(key("a.vw")).length() + 8 + 50] ^= 4;
    Files.write(f, flipped);
    IOException e;
    try (RowFeed feed = RowCache.open(f, key("a.vw"))) {
      e = assertThrows(IOException.class, () -> all(feed));
    }
    assertTrue(
        e.getMessage().matches(".*damaged row cache at byte \\d+ \\(the checksum.*"),
        e.getMessage());
    Files.write(f, java.util.Arrays.copyOf(bytes, bytes.length - 100));
    try (RowFeed feed = RowCache.open(f, key("a.vw"))) {
      e = assertThrows(IOException.class, () -> all(feed));
    }
    assertTrue(e.getMessage().contains("the file ends inside a block"), e.getMessage());
    Files.write(f, "+1 1:2\n".getBytes());
    e = assertThrows(IOException.class, () -> RowCache.open(f, key("a.vw")));
    assertEquals(f + ": not a row cache of this program (no OKRC header)", e.getMessage());
  }

  @Test
  void anUncommittedCacheLeavesNothing() throws IOException {
    Path f = dir.resolve("u.okrc");
    try (RowCache.Writer w = RowCache.create(f, key("a.vw"))) {
      w.write(blocks().get(0));
    }
    assertFalse(Files.exists(f));
    try (var files = Files.list(dir)) {
      assertEquals(0, files.count(), "the temporary file is removed");
    }
  }
}
