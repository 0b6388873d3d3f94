package org.onlinekernels.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.onlinekernels.data.SparseDataset;

/** Issue 12, items 10, 11, 14: limits a caller sets on values, indices and line length. */
class ReaderLimitsTest {
  static SparseDataset read(String text, LibSvmReader.Limits limits) throws IOException {
    return LibSvmReader.read(
        new ByteArrayInputStream(text.getBytes(StandardCharsets.US_ASCII)), "t.svm", 0, limits);
  }

  static String error(String text, LibSvmReader.Limits limits) {
    return assertThrows(LibSvmFormatException.class, () -> read(text, limits)).getMessage();
  }

  @Test
  void aValueBeyondTheMagnitudeLimitNamesLineFeatureAndRule() {
    LibSvmReader.Limits l = LibSvmReader.Limits.NONE.withMaxMagnitude(0x1p40, "; rescale it");
    assertEquals(
        "t.svm:3: value -2e12 of feature index 7 exceeds 1.099511627776E12; rescale it",
        error("+1 1:1\n# comment\n-1 2:3 7:-2e12\n", l));
  }

  @Test
  void anIndexBeyondTheDimensionLimitNamesLineAndRule() {
    LibSvmReader.Limits l = LibSvmReader.Limits.NONE.withMaxDimension(1000, "; give --dimension");
    assertEquals(
        "t.svm:2: feature index 500000000 exceeds 1000; give --dimension",
        error("+1 1:1\n-1 500000000:1\n", l));
  }

  @Test
  void aLineLongerThanTheLimitIsAnErrorNotANegativeArraySize() throws IOException {
    LibSvmReader.Limits l = LibSvmReader.Limits.NONE.withMaxLineBytes(1 << 16);
    StringBuilder line = new StringBuilder("+1");
    for (int i = 1; line.length() < (1 << 17); i++) {
      line.append(' ').append(i).append(":1");
    }
    assertEquals(
        "t.svm:2: line longer than 65536 bytes: not a LIBSVM file, or a line break is missing",
        error("-1 1:1\n" + line + "\n", l));
    assertEquals(
        2,
        read("-1 1:1\n" + line.substring(0, line.lastIndexOf(" ", 60_000)) + "\n", l).size(),
        "a long line within the limit");
  }
}
