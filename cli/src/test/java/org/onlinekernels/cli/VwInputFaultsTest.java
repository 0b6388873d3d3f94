package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.codec.digest.MurmurHash3;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.LibSvmReader;

/**
 * Issue 26, the Vowpal Wabbit reader's findings: a gzip member followed by plain bytes trained on
 * the first member; a truncated gzip said "null"; names that are not UTF-8 became one feature; a
 * value beyond float's range was reported by the optimizer without file or line (0-based row), one
 * beyond the input limit with the optimizer's message; {@code /dev/zero} ran into "out of memory";
 * a label that is no class named a 0-based row; CR-only line ends.
 */
class VwInputFaultsTest {
  @TempDir Path dir;

  static byte[] gzip(String text) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (OutputStream o = new GZIPOutputStream(b)) {
      o.write(text.getBytes(StandardCharsets.UTF_8));
    }
    return b.toByteArray();
  }

  private Path write(String name, byte[] bytes) throws IOException {
    return Files.write(dir.resolve(name), bytes);
  }

  private String readError(Path f) {
    return assertThrows(IOException.class, () -> VwReader.read(f, 18, true)).getMessage();
  }

  @Test
  void plainBytesAfterAGzipMemberAreRefusedNotDropped() throws IOException {
    byte[] member = gzip("1 |w a\n");
    byte[] plain = "-1 |w b\n".getBytes(StandardCharsets.US_ASCII);
    byte[] both = Arrays.copyOf(member, member.length + plain.length);
    System.arraycopy(plain, 0, both, member.length, plain.length);
    Path f = write("joined.vw.gz", both);
    assertEquals(
        f
            + ": unexpected data at byte "
            + member.length
            + " after the gzip data (not another gzip member);"
            + " the file was probably joined from a gzip file and another file",
        readError(f));
    CliRun.line("train --data " + f)
        .assertError(1, f + ": unexpected data at byte " + member.length);
  }

  @Test
  void aTruncatedGzipSaysSo() throws IOException {
    byte[] member = gzip("1 |w a b c\n-1 |w d e f\n".repeat(50));
    Path f = write("trunc.vw.gz", Arrays.copyOf(member, member.length / 2));
    assertEquals(
        f + ": truncated gzip data: the file ends inside the member starting at byte 0",
        readError(f));
  }

  @Test
  void namesThatAreNotUtf8AreHashedAsTheirBytes() throws IOException {
    byte[] text = "1 |w caf\u00e9 caf\u00e8 \u00e9t\u00e9\n".getBytes(StandardCharsets.ISO_8859_1);
    SparseDataset d = VwReader.read(write("latin1.vw", text), 18, false);
    assertEquals(3, d.nnz(0), "three names, three features");
    int ns = MurmurHash3.hash32x86("w".getBytes(StandardCharsets.US_ASCII), 0, 1, 0);
    for (String name : new String[] {"caf\u00e9", "caf\u00e8", "\u00e9t\u00e9"}) {
      byte[] b = name.getBytes(StandardCharsets.ISO_8859_1);
      int index = MurmurHash3.hash32x86(b, 0, b.length, ns) & ((1 << 18) - 1);
      assertTrue(
          Arrays.stream(d.indices()).anyMatch(i -> i == index), name + " is not at its own index");
    }
    // UTF-8 names keep the index of their UTF-8 bytes, as before.
    SparseDataset u =
        VwReader.read(
            write("utf8.vw", "1 |w caf\u00e9\n".getBytes(StandardCharsets.UTF_8)), 18, false);
    byte[] b = "caf\u00e9".getBytes(StandardCharsets.UTF_8);
    assertEquals(MurmurHash3.hash32x86(b, 0, b.length, ns) & ((1 << 18) - 1), u.indices()[0]);
    byte[] latin = "caf\u00e9".getBytes(StandardCharsets.ISO_8859_1);
    assertNotEquals(
        u.indices()[0],
        MurmurHash3.hash32x86(latin, 0, latin.length, ns) & ((1 << 18) - 1),
        "a Latin-1 'caf\u00e9' is other bytes than a UTF-8 one");
  }

  @Test
  void aValueBeyondTheInputLimitNamesFileLineAndFeature() throws IOException {
    for (String v : new String[] {"1e39", "1e13", "-2e12"}) {
      Path f =
          write("big.vw", ("1 |w a:1\n-1 |w x:" + v + " y\n").getBytes(StandardCharsets.US_ASCII));
      CliRun.line("train --data " + f)
          .assertError(1, f + ":2: value " + v + " of feature 'x' (index ");
      CliRun ok = CliRun.line("train --data " + f + " --type double");
      assertEquals(0, ok.code(), "within double's limit (2^480): " + ok.err());
    }
  }

  @Test
  void aNamespaceScaleCountsInTheLimit() throws IOException {
    Path f = write("scaled.vw", "1 |w:1e10 x:1e3\n".getBytes(StandardCharsets.US_ASCII));
    CliRun.line("train --data " + f).assertError(1, f + ":1: value 1e3 of feature 'x' (index ");
  }

  @Test
  void collidingValuesCountInTheLimitAsTheirSum() throws IOException {
    Path f = write("sum.vw", "1 |w a:1e12 b:1e12 c:1e12\n".getBytes(StandardCharsets.US_ASCII));
    String e =
        assertThrows(
                IOException.class,
                () ->
                    VwReader.read(
                        f,
                        1,
                        false,
                        LibSvmReader.Limits.NONE.withMaxMagnitude(0x1p40, ", the limit")))
            .getMessage();
    assertTrue(e.startsWith(f + ":1: values of features hashed to index "), e);
    assertTrue(e.endsWith("exceeds 1.099511627776E12, the limit"), e);
  }

  @Test
  void devZeroIsNoTextFile() {
    CliRun.line("train --format vw --data /dev/zero").assertError(1, "/dev/zero:1: a NUL byte");
  }

  @Test
  void aLineBeyondTheLimitIsAnError() throws IOException {
    Path f =
        write(
            "long.vw", ("1 |w" + " abc".repeat(30_000) + "\n").getBytes(StandardCharsets.US_ASCII));
    String e =
        assertThrows(
                IOException.class,
                () ->
                    VwReader.read(f, 18, true, LibSvmReader.Limits.NONE.withMaxLineBytes(1 << 16)))
            .getMessage();
    assertEquals(
        f
            + ":1: line longer than 65536 bytes: not a Vowpal Wabbit text file, or a line break is missing",
        e);
  }

  @Test
  void crOnlyLineEndsAreNamed() throws IOException {
    Path f = write("mac.vw", "1 |w a\r-1 |w b\r".getBytes(StandardCharsets.US_ASCII));
    assertTrue(
        readError(f)
            .startsWith(
                f + ":1: a carriage return (CR) inside the line: the file has CR-only line ends"),
        readError(f));
    Path crlf = write("dos.vw", "1 |w a\r\n-1 |w b\r\n".getBytes(StandardCharsets.US_ASCII));
    assertEquals(2, VwReader.read(crlf, 18, true).size(), "CRLF line ends are fine");
  }

  @Test
  void aLabelThatIsNoClassNamesItsLine() throws IOException {
    Path f = write("half.vw", "1 |w a\n\n0.5 |w b\n".getBytes(StandardCharsets.US_ASCII));
    assertEquals(f + ":3: bad label '0.5': must be +1/-1 or a class number 0..K-1", readError(f));
    Path g = write("mixed.vw", "1 |w a\n-1 |w b\n2 |w c\n".getBytes(StandardCharsets.US_ASCII));
    assertEquals(
        g
            + ":3: class number 2 but line 2 has label -1: labels must be all +1/-1 (binary) or all class"
            + " numbers 0..K-1",
        readError(g));
  }
}
