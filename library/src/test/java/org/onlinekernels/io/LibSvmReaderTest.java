package org.onlinekernels.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.onlinekernels.data.SparseDataset;

class LibSvmReaderTest {

  private static SparseDataset parse(String text) throws IOException {
    return parse(text, 0);
  }

  private static SparseDataset parse(String text, int minDim) throws IOException {
    return LibSvmReader.read(
        new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "t.svm", minDim);
  }

  private static String errorOf(String text) {
    LibSvmFormatException e = assertThrows(LibSvmFormatException.class, () -> parse(text));
    return e.getMessage();
  }

  @Test
  void readsBasicBinaryFile() throws IOException {
    SparseDataset ds = parse("+1 1:0.5 3:2\n-1 2:-1.25\n1 1:1e-05 4:0\n");
    assertEquals(3, ds.size());
    assertEquals(4, ds.dimension());
    assertTrue(ds.isBinary());
    assertEquals(2, ds.numClasses());
    assertEquals(1.0, ds.label(0));
    assertEquals(-1.0, ds.label(1));
    assertEquals(1.0, ds.label(2));
    assertArrayEquals(new int[] {0, 2, 1, 0, 3}, ds.indices());
    assertArrayEquals(new double[] {0.5, 2, -1.25, 1e-05, 0.0}, ds.values());
    assertEquals(5, ds.totalNonZeros());
    assertEquals(2, ds.nnz(2), "explicit zero is kept");
    assertArrayEquals(new double[] {1e-05, 0, 0, 0}, ds.denseRow(2, null));
  }

  @Test
  void valuesMatchParseDoubleExactly() throws IOException {
    String[] vals = {
      "0.2776",
      "-0.320755",
      "123456789012345",
      "1234567890123456789",
      "7.0",
      ".5",
      "5.",
      "1E3",
      "-2.5e-300",
      "0.1",
      "+3",
      "-0"
    };
    StringBuilder sb = new StringBuilder("1");
    for (int i = 0; i < vals.length; i++) {
      sb.append(' ').append(i + 1).append(':').append(vals[i]);
    }
    double[] got = parse(sb.toString()).values();
    for (int i = 0; i < vals.length; i++) {
      assertEquals(
          Double.doubleToLongBits(Double.parseDouble(vals[i])),
          Double.doubleToLongBits(got[i]),
          vals[i]);
    }
  }

  @Test
  void labelSpellings() throws IOException {
    SparseDataset ds = parse("+1\n1\n-1\n+1.0\n-1.0\n1e0\n");
    assertTrue(ds.isBinary());
    assertArrayEquals(
        new double[] {1, 1, -1, 1, -1, 1},
        new double[] {
          ds.label(0), ds.label(1), ds.label(2), ds.label(3), ds.label(4), ds.label(5)
        });
  }

  @Test
  void multiclassLabels() throws IOException {
    SparseDataset ds = parse("0 1:1\n3 2:1\n1\n");
    assertFalse(ds.isBinary());
    assertEquals(4, ds.numClasses());
    assertEquals(3.0, ds.label(1));
  }

  @Test
  void zeroOneLabelsAreMulticlassWithTwoClasses() throws IOException {
    SparseDataset ds = parse("0\n1\n");
    assertFalse(ds.isBinary());
    assertEquals(2, ds.numClasses());
  }

  @Test
  void labelOnlyLinesAreEmptyRows() throws IOException {
    SparseDataset ds = parse("1\n-1 2:3\n-1   \n");
    assertEquals(3, ds.size());
    assertEquals(0, ds.nnz(0));
    assertEquals(1, ds.nnz(1));
    assertEquals(0, ds.nnz(2));
    assertEquals(2, ds.dimension());
  }

  @Test
  void commentsAndBlankLinesAreSkipped() throws IOException {
    SparseDataset ds =
        parse(
            "# header comment\n\n   \n+1 1:1 # trailing comment 5:5\n\t# indented\n-1 2:2#glued\n");
    assertEquals(2, ds.size());
    assertEquals(2, ds.dimension());
    assertArrayEquals(new int[] {0, 1}, ds.indices());
  }

  @Test
  void whitespaceVariantsAndCrlf() throws IOException {
    SparseDataset ds = parse("+1\t1:1   3:3 \r\n-1  2:2\t\r\n+1 4:4");
    assertEquals(3, ds.size());
    assertArrayEquals(new int[] {0, 2, 1, 3}, ds.indices());
    assertArrayEquals(new double[] {1, 3, 2, 4}, ds.values());
  }

  /** Issue 26: CR-only line ends made one line of the file ("'-1' has no ':'"). */
  @Test
  void crOnlyLineEndsAreNamedNotReadAsOneLine() {
    assertEquals(
        "t.svm:1: a carriage return (CR) inside the line: the file has CR-only line ends (classic Mac OS);"
            + " convert them to LF, e.g. tr '\\r' '\\n'",
        errorOf("+1 1:1\r-1 2:1\r"));
    assertEquals(
        "t.svm:2: a carriage return (CR) inside the line: the file has CR-only line ends (classic Mac OS);"
            + " convert them to LF, e.g. tr '\\r' '\\n'",
        errorOf("+1 1:1\n-1 2:1\r+1 3:1\n"));
  }

  @Test
  void aNulByteIsNoText() {
    assertEquals(
        "t.svm:2: a NUL byte at byte 4 of the line: not a LIBSVM file (binary data?)",
        errorOf("+1 1:1\n-1 \0:1\n"));
  }

  @Test
  void utf8ByteOrderMarkIsTolerated() throws IOException {
    SparseDataset ds = parse("\uFEFF+1 1:1\n");
    assertEquals(1, ds.size());
  }

  @Test
  void emptyInput() throws IOException {
    SparseDataset ds = parse("", 7);
    assertEquals(0, ds.size());
    assertEquals(7, ds.dimension());
  }

  @Test
  void minimumDimension() throws IOException {
    assertEquals(10, parse("1 2:1\n", 10).dimension());
    assertEquals(5, parse("1 5:1\n", 3).dimension());
  }

  @Test
  void longLinesCrossBufferBoundaries() throws IOException {
    StringBuilder sb = new StringBuilder();
    int rows = 40;
    int perRow = 5000;
    for (int r = 0; r < rows; r++) {
      sb.append(r % 2 == 0 ? "+1" : "-1");
      for (int j = 1; j <= perRow; j++) {
        sb.append(' ').append(j).append(':').append(r + j);
      }
      sb.append('\n');
    }
    SparseDataset ds = parse(sb.toString());
    assertEquals(rows, ds.size());
    assertEquals((long) rows * perRow, ds.totalNonZeros());
    assertEquals(perRow, ds.dimension());
    double[] v = ds.values();
    assertEquals(39 + 5000, v[v.length - 1]);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "bad label           | 1 1:1\\nabc 1:1              | t.svm:2: bad label 'abc': not a number",
        "fractional label    | 0.5 1:1                      | t.svm:1: bad label '0.5': must be +1/-1 or a class number 0..K-1",
        "negative label      | -2 1:1                       | t.svm:1: bad label '-2': must be +1/-1 or a class number 0..K-1",
        "NaN label           | NaN 1:1                      | t.svm:1: bad label 'NaN': not a number",
        "missing colon       | 1 1:1 abc                    | t.svm:1: 'abc' has no ':' (features are index:value)",
        "missing index       | 1 :3                         | t.svm:1: missing index before ':' in ':3'",
        "index not integer   | 1 x:3                        | t.svm:1: index 'x' is not an integer",
        "index fractional    | 1 1.5:3                      | t.svm:1: index '1.5' is not an integer",
        "index zero          | 1 0:3                        | t.svm:1: index 0 < 1: indices are 1-based",
        "index negative      | 1 -2:3                       | t.svm:1: index -2 < 1: indices are 1-based",
        "index too large     | 1 2147483648:3               | t.svm:1: index 2147483648 is too large (at most 2147483647)",
        "decreasing index    | +1 1:1\\n-1 5:1 3:2           | t.svm:2: index 3 after 5: indices must be strictly increasing",
        "duplicate index     | +1 2:1 2:1                   | t.svm:1: index 2 after 2: indices must be strictly increasing",
        "missing value       | 1 3:                         | t.svm:1: index 3 has no value after ':'",
        "value not number    | 1 3:abc                      | t.svm:1: value 'abc' of index 3 is not a number",
        "value java suffix   | 1 3:1d                       | t.svm:1: value '1d' of index 3 is not a number",
        "value NaN           | 1 3:NaN                      | t.svm:1: value 'NaN' of index 3 is not a number",
        "value Infinity      | 1 3:Infinity                 | t.svm:1: value 'Infinity' of index 3 is not a number",
        "value overflow      | 1 3:1e999                    | t.svm:1: value '1e999' of index 3 is not a finite number",
        "value bad exponent  | 1 3:1e                       | t.svm:1: value '1e' of index 3 is not a number",
        "two colons          | 1 3:1:2                      | t.svm:1: value '1:2' of index 3 is not a number",
        "class after -1      | -1 1:1\\n\\n2 1:1              | t.svm:3: class number 2 but line 1 has label -1: labels must be all +1/-1 (binary) or all class numbers 0..K-1",
        "-1 after class      | 0 1:1\\n1\\n-1 1:1             | t.svm:3: label -1 but line 1 has class number 0: labels must be all +1/-1 (binary) or all class numbers 0..K-1",
      })
  void malformedLinesNameFileLineAndProblem(String what, String text, String message) {
    assertEquals(message, errorOf(text.replace("\\n", "\n")), what);
  }

  @Test
  void lineNumbersCountCommentsAndBlankLines() {
    LibSvmFormatException e =
        assertThrows(LibSvmFormatException.class, () -> parse("# c\n\n+1 1:1\r\n-1 2:x\n"));
    assertEquals(4, e.line());
    assertEquals("t.svm", e.source());
    assertEquals("value 'x' of index 2 is not a number", e.problem());
  }

  @Test
  void longTokensAreShortenedInMessages() {
    String junk = "z".repeat(200);
    String msg = errorOf("1 " + junk);
    assertTrue(msg.length() < 120, msg);
    assertTrue(msg.contains("..."), msg);
  }

  @Test
  void fileErrorsNameTheFile(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("breast_cancer.svm");
    Files.writeString(f, "+1 1:1\n".repeat(16) + "+1 5:1 3:2\n");
    LibSvmFormatException e = assertThrows(LibSvmFormatException.class, () -> LibSvmReader.read(f));
    assertEquals(f + ":17: index 3 after 5: indices must be strictly increasing", e.getMessage());
  }

  @Test
  void gzipRoundTripByMagicNotName(@TempDir Path dir) throws IOException {
    String text = "+1 1:0.5 3:2\n-1\n+1 2:7 # c\n";
    SparseDataset plain = parse(text);
    for (String name : new String[] {"data.svm.gz", "data.svm"}) {
      Path f = dir.resolve(name);
      try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(f))) {
        out.write(text.getBytes(StandardCharsets.US_ASCII));
      }
      SparseDataset gz = LibSvmReader.read(f);
      assertEquals(plain.size(), gz.size(), name);
      assertEquals(plain.dimension(), gz.dimension(), name);
      assertArrayEquals(plain.indices(), gz.indices(), name);
      assertArrayEquals(plain.values(), gz.values(), name);
      assertEquals(plain.label(0), gz.label(0), name);
      assertEquals(plain.label(1), gz.label(1), name);
    }
  }

  @Test
  void gzipRoundTripOfLargeDataWrittenFromADataset(@TempDir Path dir) throws IOException {
    SparseDataset.Builder b = new SparseDataset.Builder();
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(5);
    StringBuilder sb = new StringBuilder();
    for (int r = 0; r < 3000; r++) {
      int[] idx = rnd.ints(rnd.nextInt(30), 0, 500).distinct().sorted().toArray();
      double[] val = new double[idx.length];
      double y = rnd.nextInt(5);
      sb.append((int) y);
      for (int k = 0; k < idx.length; k++) {
        val[k] = rnd.nextGaussian() * Math.pow(10, rnd.nextInt(-3, 4));
        sb.append(' ').append(idx[k] + 1).append(':').append(val[k]);
      }
      sb.append('\n');
      b.addRow(y, idx, val);
    }
    SparseDataset expected = b.build();
    Path f = dir.resolve("big.svm.gz");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream out = new GZIPOutputStream(bytes)) {
      out.write(sb.toString().getBytes(StandardCharsets.US_ASCII));
    }
    Files.write(f, bytes.toByteArray());
    SparseDataset got = LibSvmReader.read(f, expected.dimension());
    assertEquals(expected.size(), got.size());
    assertEquals(expected.dimension(), got.dimension());
    assertEquals(expected.numClasses(), got.numClasses());
    assertArrayEquals(expected.indices(), got.indices());
    assertArrayEquals(expected.values(), got.values());
    for (int r = 0; r < expected.size(); r++) {
      assertEquals(expected.label(r), got.label(r));
      assertEquals(expected.rowStart(r), got.rowStart(r));
    }
  }

  @Test
  void truncatedGzipIsAnIoErrorNamingTheSource(@TempDir Path dir) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream out = new GZIPOutputStream(bytes)) {
      out.write("+1 1:1\n".repeat(1000).getBytes(StandardCharsets.US_ASCII));
    }
    byte[] all = bytes.toByteArray();
    Path f = dir.resolve("cut.svm.gz");
    Files.write(f, java.util.Arrays.copyOf(all, all.length / 2));
    IOException e = assertThrows(IOException.class, () -> LibSvmReader.read(f));
    assertTrue(
        e.getMessage()
            .startsWith(
                f + ": truncated gzip data: the file ends inside the member starting at byte 0"),
        e.getMessage());
  }
}
