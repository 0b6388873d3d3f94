package org.onlinekernels.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;
import org.onlinekernels.data.SparseDataset;

/**
 * Gzip input: nothing after or inside the compressed data is ignored (issue 12, items 2 and 13).
 */
class GzipInputTest {
  static byte[] gzip(String text) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream out = new GZIPOutputStream(bytes)) {
      out.write(text.getBytes(StandardCharsets.US_ASCII));
    }
    return bytes.toByteArray();
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  static SparseDataset read(byte[] b) throws IOException {
    return LibSvmReader.read(new ByteArrayInputStream(b), "c.gz", 0);
  }

  static void assertSameData(SparseDataset want, SparseDataset got) {
    assertEquals(want.size(), got.size());
    assertArrayEquals(want.indices(), got.indices());
    assertArrayEquals(want.values(), got.values());
    for (int r = 0; r < want.size(); r++) {
      assertEquals(want.label(r), got.label(r));
    }
  }

  @Test
  void plainTextAfterAGzipMemberIsRefusedWithItsOffset() throws IOException {
    byte[] a = gzip("+1 1:1\n-1 2:1\n");
    byte[] c = concat(a, "+1 3:1\n".getBytes(StandardCharsets.US_ASCII));
    ZipException e = assertThrows(ZipException.class, () -> read(c));
    assertEquals(
        "c.gz: unexpected data at byte "
            + a.length
            + " after the gzip data (not another gzip member);"
            + " the file was probably joined from a gzip file and another file",
        e.getMessage());
    assertThrows(
        ZipException.class, () -> read(concat(a, new byte[] {0})), "even a single zero byte");
  }

  @Test
  void concatenatedMembersAreAllRead() throws IOException {
    SparseDataset both = read(concat(gzip("+1 1:1\n-1 2:1\n"), gzip("+1 3:1\n")));
    assertSameData(read("+1 1:1\n-1 2:1\n+1 3:1\n".getBytes(StandardCharsets.US_ASCII)), both);
  }

  @Test
  void everyTruncationIsRefusedExceptAtAMemberBoundary() throws IOException {
    byte[] a = gzip("+1 1:1 5:2.5\n-1 2:1\n".repeat(20));
    byte[] c = concat(a, gzip("+1 3:1\n"));
    SparseDataset first = read(a);
    for (int len = 1; len < c.length; len++) {
      byte[] cut = Arrays.copyOf(c, len);
      if (len == a.length) {
        assertSameData(first, read(cut));
      } else if (len == 1) {
        assertThrows(LibSvmFormatException.class, () -> read(cut)); // no magic: read as (bad) text
      } else {
        int l = len;
        ZipException e = assertThrows(ZipException.class, () -> read(cut), () -> "length " + l);
        assertTrue(e.getMessage().startsWith("c.gz: "), e.getMessage());
      }
    }
  }

  @Test
  void everyDamagedByteIsReportedAsGzipDamageNotAsABadLine() throws IOException {
    byte[] c = gzip("+1 1:1 5:2.5 7:-3\n-1 2:1 3:0.25\n".repeat(30));
    SparseDataset good = read(c);
    for (int i = 0; i < c.length; i++) {
      byte[] b = c.clone();
      b[i] ^= 0x04;
      if (i >= 4 && i < 10) {
        assertSameData(
            good, read(b)); // modification time, extra flags, OS: no checksum covers them
        continue;
      }
      int at = i;
      if (i < 2) {
        assertThrows(LibSvmFormatException.class, () -> read(b)); // no magic: read as (bad) text
        continue;
      }
      assertThrows(ZipException.class, () -> read(b), () -> "byte " + at);
    }
  }
}
