package org.onlinekernels.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.onlinekernels.data.RowBlock;
import org.onlinekernels.data.SparseDataset;

/**
 * The pipelined text reader gives the rows the sequential LIBSVM reader gives, in order, with any
 * number of parser threads, across chunk boundaries; refusals name the right line.
 */
class TextFeedTest {
  /** About 1.2 MB of LIBSVM text (several chunks), with blank and comment lines. */
  static byte[] text(long seed) {
    Random r = new Random(seed);
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 12_000; i++) {
      if (i % 97 == 5) {
        b.append(i % 2 == 0 ? "\n" : "# a comment\n");
        continue;
      }
      b.append(r.nextBoolean() ? "+1" : "-1");
      int at = 0;
      int n = 1 + r.nextInt(12);
      for (int k = 0; k < n; k++) {
        at += 1 + r.nextInt(500);
        b.append(' ').append(at).append(':').append(r.nextInt(9) == 0 ? "2.5e-3" : "1");
      }
      b.append(i % 13 == 0 ? "\r\n" : "\n");
    }
    return b.toString().getBytes(StandardCharsets.US_ASCII);
  }

  static TextFeed feed(byte[] bytes, int threads) throws IOException {
    return new TextFeed(
        GzipInput.open(new ByteArrayInputStream(bytes), "t.svm"),
        "t.svm",
        LibSvmLine.FORMAT,
        LibSvmReader.Limits.DEFAULT_MAX_LINE_BYTES,
        threads,
        () -> new LibSvmLine(LibSvmReader.Limits.NONE),
        null);
  }

  /** Every row of the feed: label, id, line, entries. */
  static List<String> rows(TextFeed f) throws IOException {
    List<String> out = new ArrayList<>();
    RowBlock b = new RowBlock();
    while (f.next(b)) {
      for (int r = 0; r < b.size(); r++) {
        StringBuilder s = new StringBuilder();
        s.append(b.label(r)).append(' ').append(b.id(r)).append(" @").append(f.line(r));
        for (int j = b.rowStart(r); j < b.rowEnd(r); j++) {
          s.append(' ').append(b.indexArray()[j]).append(':');
          s.append(Double.doubleToRawLongBits(b.valueArray()[j]));
        }
        out.add(s.toString());
      }
    }
    return out;
  }

  /** A parser thread that dies of an Error fails the consumer with it instead of hanging it. */
  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  @Timeout(60)
  void aParserThatDiesOfAnErrorFailsTheConsumerInsteadOfHangingIt(int threads) throws IOException {
    int[] calls = new int[1];
    try (TextFeed f =
        new TextFeed(
            new ByteArrayInputStream(text(7)),
            "t.svm",
            LibSvmLine.FORMAT,
            LibSvmReader.Limits.DEFAULT_MAX_LINE_BYTES,
            threads,
            () -> {
              LibSvmLine line = new LibSvmLine(LibSvmReader.Limits.NONE);
              return (b, s, e, block) -> {
                synchronized (calls) {
                  if (++calls[0] == 5000) {
                    throw new NoClassDefFoundError("planted");
                  }
                }
                line.parse(b, s, e, block);
              };
            },
            null)) {
      NoClassDefFoundError e = assertThrows(NoClassDefFoundError.class, () -> rows(f));
      assertEquals("planted", e.getMessage());
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void theRowsAreTheSequentialReadersInOrder(int threads) throws IOException {
    byte[] bytes = text(1);
    SparseDataset d = LibSvmReader.read(new ByteArrayInputStream(bytes), "t.svm", 0);
    List<String> rows;
    try (TextFeed f = feed(bytes, threads)) {
      rows = rows(f);
      assertEquals(12_000, f.lines());
    }
    assertEquals(d.size(), rows.size());
    int[] idx = d.indices();
    double[] val = d.values();
    // The lines: 12,000 minus the blank and comment ones, numbered by the text's own count.
    List<Long> lines = new ArrayList<>();
    for (int i = 0; i < 12_000; i++) {
      if (i % 97 != 5) {
        lines.add(i + 1L);
      }
    }
    for (int r = 0; r < d.size(); r++) {
      StringBuilder s = new StringBuilder();
      s.append(d.label(r)).append(' ').append(r).append(" @").append(lines.get(r));
      for (int j = d.rowStart(r); j < d.rowEnd(r); j++) {
        s.append(' ').append(idx[j]).append(':').append(Double.doubleToRawLongBits(val[j]));
      }
      assertEquals(s.toString(), rows.get(r), "row " + r);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 3})
  void aBadLineLateInTheInputIsNamedByItsLine(int threads) throws IOException {
    byte[] good = text(2);
    String bad = new String(good, StandardCharsets.US_ASCII) + "+1 4:1 2:1\n+1 1:1\n";
    try (TextFeed f = feed(bad.getBytes(StandardCharsets.US_ASCII), threads)) {
      TextFormatException e = assertThrows(TextFormatException.class, () -> rows(f));
      assertEquals(
          "t.svm:12001: index 2 after 4: indices must be strictly increasing", e.getMessage());
    }
    byte[] nul = (new String(good, StandardCharsets.US_ASCII) + "+1 1:\0\n").getBytes();
    try (TextFeed f = feed(nul, threads)) {
      TextFormatException e = assertThrows(TextFormatException.class, () -> rows(f));
      assertTrue(e.getMessage().startsWith("t.svm:12001: a NUL byte at byte 6 of the line"));
    }
    byte[] cr = (new String(good, StandardCharsets.US_ASCII) + "+1 1:1\r+1 2:1\n").getBytes();
    try (TextFeed f = feed(cr, threads)) {
      TextFormatException e = assertThrows(TextFormatException.class, () -> rows(f));
      assertTrue(e.getMessage().startsWith("t.svm:12001: a carriage return (CR) inside"));
    }
  }

  /**
   * The eight-bytes-at-a-time scan sees a control byte (below 14) at every place of the word, among
   * neighbours of every other kind (printable, tab-free high bytes of UTF-8), and nothing else.
   */
  @org.junit.jupiter.api.Test
  void theWordScanSeesEveryControlByteAtEveryPlace() {
    Random r = new Random(14);
    for (int v = 0; v < 256; v++) {
      for (int at = 0; at < 8; at++) {
        for (int t = 0; t < 20; t++) {
          long w = 0;
          for (int k = 0; k < 8; k++) {
            long b = k == at ? v : 14 + r.nextInt(256 - 14);
            w |= b << (8 * k);
          }
          assertEquals(v < 14, TextFeed.anyControl(w), "byte " + v + " at " + at);
        }
      }
    }
  }

  /**
   * Line ends, NUL and CR bytes at every offset from the word boundaries: the rows and the refused
   * byte's column are the byte scanner's (a tab, which stops the word scan, and UTF-8 bytes mixed
   * in).
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void lineEndsAndRefusedBytesAreFoundAtEveryOffset(int threads) throws IOException {
    for (int lead = 0; lead < 20; lead++) {
      String pad = "\u00e9\t#".repeat(lead).substring(0, lead);
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < 30; i++) {
        b.append("+1 ")
            .append(1 + i)
            .append(':')
            .append(i)
            .append(' ')
            .append("#x")
            .append(pad.substring(0, (lead + i) % (lead + 1)))
            .append('\n');
      }
      byte[] good = b.toString().getBytes(StandardCharsets.UTF_8);
      SparseDataset d = LibSvmReader.read(new ByteArrayInputStream(good), "t.svm", 0);
      try (TextFeed f = feed(good, threads)) {
        assertEquals(d.size(), rows(f).size(), "lead " + lead);
        assertEquals(30, f.lines());
      }
      String line = "+1 1:1 " + "x".repeat(lead);
      for (String bad : new String[] {"\0", "\r"}) {
        byte[] text = (b + line + bad + "y\n").getBytes(StandardCharsets.UTF_8);
        try (TextFeed f = feed(text, threads)) {
          TextFormatException e = assertThrows(TextFormatException.class, () -> rows(f));
          String want =
              bad.equals("\0")
                  ? "t.svm:31: a NUL byte at byte " + (line.length() + 1) + " of the line"
                  : "t.svm:31: a carriage return (CR) inside";
          assertTrue(e.getMessage().startsWith(want), lead + ": " + e.getMessage());
        }
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void aByteOrderMarkALastLineWithoutBreakAndGzipAreRead(int threads) throws IOException {
    byte[] body = "+1 1:1\n-1 2:1\n+1 3:1".getBytes(StandardCharsets.US_ASCII);
    byte[] bom = new byte[body.length + 3];
    bom[0] = (byte) 0xef;
    bom[1] = (byte) 0xbb;
    bom[2] = (byte) 0xbf;
    System.arraycopy(body, 0, bom, 3, body.length);
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(gz)) {
      z.write(bom);
    }
    for (byte[] in : List.of(bom, gz.toByteArray())) {
      try (TextFeed f = feed(in, threads)) {
        assertEquals(
            List.of("1.0 0 @1 0:" + one(), "-1.0 1 @2 1:" + one(), "1.0 2 @3 2:" + one()), rows(f));
      }
    }
  }

  private static long one() {
    return Double.doubleToRawLongBits(1.0);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void aLineOverTheLimitIsRefusedWithItsNumber(int threads) throws IOException {
    byte[] good = text(3);
    StringBuilder b = new StringBuilder(new String(good, StandardCharsets.US_ASCII));
    b.append("+1");
    for (int i = 1; i < 200_000; i++) {
      b.append(' ').append(i).append(":1");
    }
    b.append('\n');
    try (TextFeed f =
        new TextFeed(
            new ByteArrayInputStream(b.toString().getBytes(StandardCharsets.US_ASCII)),
            "t.svm",
            LibSvmLine.FORMAT,
            1 << 20,
            threads,
            () -> new LibSvmLine(LibSvmReader.Limits.NONE),
            null)) {
      TextFormatException e = assertThrows(TextFormatException.class, () -> rows(f));
      assertEquals(
          "t.svm:12001: line longer than 1048576 bytes: not a LIBSVM file, or a line break is"
              + " missing",
          e.getMessage());
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void damagedGzipIsReportedAsDamageNotAsItsSymptom(int threads) throws IOException {
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(gz)) {
      z.write(text(4));
    }
    byte[] damaged = gz.toByteArray();
    damaged[damaged.length - 5] ^= 0x40; // the CRC's length field
    try (TextFeed f = feed(damaged, threads)) {
      IOException e = assertThrows(IOException.class, () -> rows(f));
      IOException reported = f.damageOr(e);
      assertTrue(reported instanceof java.util.zip.ZipException, reported.toString());
    }
  }
}
