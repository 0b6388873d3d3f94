package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.codec.digest.MurmurHash3;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.onlinekernels.data.SparseDataset;

/**
 * The Vowpal Wabbit text reader with feature hashing, and the command line's
 * --format/--bits/--hash.
 */
class VwReaderTest {
  @TempDir Path dir;

  private Path write(String name, String text) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  private static int h(String s, int seed) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    return MurmurHash3.hash32x86(b, 0, b.length, seed);
  }

  /**
   * The index and signed value VW-style hashing gives feature {@code f} of namespace {@code ns}.
   */
  private static double[] entry(String ns, String f, double v, int bits) {
    int hash = h(f, ns.isEmpty() ? 0 : h(ns, 0));
    return new double[] {hash & ((1 << bits) - 1), hash < 0 ? -v : v};
  }

  @Test
  void indicesAreTheMurmurHashOfNameSeededByNamespaceAndSignedByBit31() throws IOException {
    Path f = write("a.vw", "1 |w the quick:2 fox |m:0.5 len:4\n-1 'tag| fox\n\n1 1 'x|w fox\n");
    SparseDataset d = VwReader.read(f, 18, true);
    assertEquals(3, d.size(), "the empty line is skipped");
    assertEquals(1 << 18, d.dimension());
    assertEquals(1.0, d.label(0));
    assertEquals(-1.0, d.label(1));
    List<double[]> expected =
        new ArrayList<>(
            List.of(
                entry("w", "the", 1, 18),
                entry("w", "quick", 2, 18),
                entry("w", "fox", 1, 18),
                entry("m", "len", 4 * 0.5, 18)));
    expected.sort((a, b) -> Double.compare(a[0], b[0]));
    int[] idx = d.indices();
    double[] val = d.values();
    assertEquals(4, d.nnz(0));
    for (int j = 0; j < 4; j++) {
      assertEquals((int) expected.get(j)[0], idx[d.rowStart(0) + j]);
      assertEquals(expected.get(j)[1], val[d.rowStart(0) + j]);
    }
    // Default namespace: seed 0. A different namespace gives (almost surely) another index.
    double[] fox = entry("", "fox", 1, 18);
    assertEquals((int) fox[0], idx[d.rowStart(1)]);
    assertEquals(fox[1], val[d.rowStart(1)]);
    assertTrue(entry("w", "fox", 1, 18)[0] != fox[0]);
  }

  @Test
  void unsignedHashingKeepsValuesAndCollisionsAreSummed() throws IOException {
    Path f = write("c.vw", "1 |a x y z u v w:3\n");
    SparseDataset d = VwReader.read(f, 1, false);
    assertEquals(2, d.dimension());
    double sum = 0;
    for (double v : d.values()) {
      sum += v;
    }
    assertEquals(8.0, sum, "six features folded into two indices, values summed");
    assertTrue(d.nnz(0) <= 2);
  }

  @Test
  void sortAndMergeIsStableAndSums() {
    int[] idx = {5, 1, 5, 3, 1};
    double[] val = {1, 2, 3, 4, 5};
    int n = VwRow.sortAndMerge(idx, val, 5, new long[5], new int[5], new double[5], new int[257]);
    assertEquals(3, n);
    assertArrayEquals(new int[] {1, 3, 5}, java.util.Arrays.copyOf(idx, 3));
    assertArrayEquals(new double[] {7, 4, 4}, java.util.Arrays.copyOf(val, 3));
  }

  @Test
  void gzipIsReadByItsMagicBytes() throws IOException {
    Path f = dir.resolve("g.vw.gz");
    try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(f))) {
      o.write("1 |w a b\n-1 |w c\n".getBytes(StandardCharsets.UTF_8));
    }
    assertEquals(2, VwReader.read(f, 10, true).size());
  }

  @ParameterizedTest
  @CsvSource(
      delimiterString = "=>",
      quoteCharacter = '"',
      value = {
        "1 a b c                  => 1: no '|': a line is LABEL |NAMESPACE FEATURE ...",
        "|w a                     => 1: no label before '|' (unlabelled examples cannot be trained or scored)",
        "'tag|w a                 => 1: no label before '|'",
        "x |w a                   => 1: label 'x' is not a finite number",
        "1 2 |w a                 => 1: importance weight 2 is not supported (every example counts once)",
        "1 1 3 |w a               => 1: '1 1 3' is not LABEL [IMPORTANCE] ['TAG]",
        "1 |w a:x                 => 1: value of feature 'a' 'x' is not a finite number",
        "1 |w a:NaN               => 1: value of feature 'a' 'NaN' is not a finite number",
        "1 |w :3                  => 1: a feature value without a feature name",
        "1 |w:y a                 => 1: namespace scale 'y' is not a finite number",
        "0.5 |w a                 => 1: bad label '0.5': must be +1/-1 or a class number 0..K-1",
      })
  void badLinesNameFileAndLine(String line, String message) throws IOException {
    Path f = write("bad.vw", line + "\n");
    IOException e = assertThrows(IOException.class, () -> VwReader.read(f, 18, true));
    String expected = f + ":" + message;
    assertTrue(e.getMessage().startsWith(expected), e.getMessage());
    CliRun.line("train --data " + f).assertError(1, f.toString());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "--bits 0            | --bits must be at least 1, got 0",
        "--bits 31           | --bits must be 1..30, got 31",
        "--bits x            | --bits must be a whole number, got 'x'",
        "--hash signd        | --hash must be signed or unsigned, got 'signd' (did you mean 'signed'?)",
        "--format vv         | --format must be libsvm or vw, got 'vv' (did you mean 'vw'?)",
        "--format libsvm --bits 4 | --bits applies to --format vw only",
      })
  void badHashingOptionsAreUsageErrors(String options, String message) throws IOException {
    Path f = write("ok.vw", "1 |w a\n-1 |w b\n");
    CliRun.line("train --data " + f + " " + options).assertError(2, message + " (see --help)");
  }

  @Test
  void bitsOnALibsvmFileIsAUsageError() throws IOException {
    Path f = write("d.svm", "+1 1:1\n");
    CliRun.line("train --data " + f + " --bits 4")
        .assertError(2, "--bits and --hash apply to Vowpal Wabbit files");
  }

  @Test
  void predictUsesTheModelsBitsAndRefusesOthers() throws IOException {
    Path f = write("t.vw", "1 |w good fine\n-1 |w bad poor\n".repeat(30));
    Path model = dir.resolve("m");
    CliRun t = CliRun.line("train --data " + f + " --bits 12 --model " + model + " --json");
    assertEquals(0, t.code(), t.err());
    assertTrue(t.out().contains("\"d\": 4096"), t.out());
    CliRun p = CliRun.line("predict --model " + model + " --data " + f + " --json");
    assertEquals(0, p.code(), p.err());
    assertEquals(0.0, p.json("test", "error"));
    CliRun.line("predict --model " + model + " --data " + f + " --bits 10")
        .assertError(1, model + " has d = 4096 weights, but --bits 10 hashes into 2^10");
  }

  /**
   * Jane Austen lines rebuilt as text from the data folder's vocabulary (the first 4,000 training
   * and 2,000 test lines, VW text with one namespace) learn as well hashed into 2^18 weights as
   * with the exact vocabulary indices of the LIBSVM files.
   */
  @Test
  void austenTextHashedLearnsLikeTheVocabulary() throws IOException {
    Path data = Path.of(System.getProperty("onlinekernels.data", "../data"));
    Path vocabFile = data.resolve("austen_lines.vocab.txt");
    List<String> vocab = Files.readAllLines(vocabFile, StandardCharsets.UTF_8);
    Path[] svm = {dir.resolve("train.svm"), dir.resolve("test.svm")};
    Path[] vw = {dir.resolve("train.vw"), dir.resolve("test.vw")};
    String[] src = {"austen_lines.train.svm", "austen_lines.test.svm"};
    int[] rows = {4000, 2000};
    for (int s = 0; s < 2; s++) {
      StringBuilder a = new StringBuilder();
      StringBuilder b = new StringBuilder();
      try (var lines = Files.lines(data.resolve(src[s]))) {
        for (String line : (Iterable<String>) lines.limit(rows[s])::iterator) {
          a.append(line).append('\n');
          String[] f = line.split(" ");
          b.append(f[0]).append(" |w");
          for (int j = 1; j < f.length; j++) {
            int colon = f[j].indexOf(':');
            // LIBSVM indices are 1-based: index k is line k of the vocabulary.
            b.append(" ")
                .append(vocab.get(Integer.parseInt(f[j].substring(0, colon)) - 1))
                .append(':')
                .append(f[j].substring(colon + 1));
          }
          b.append('\n');
        }
      }
      Files.writeString(svm[s], a);
      Files.writeString(vw[s], b);
    }
    CliRun exact =
        CliRun.line("train --data " + svm[0] + " --test " + svm[1] + " --epochs 2 --json");
    CliRun hashed =
        CliRun.line("train --data " + vw[0] + " --test " + vw[1] + " --epochs 2 --json");
    assertEquals(0, hashed.code(), hashed.err());
    assertTrue(
        hashed.out().contains("\"d\": 262144") && hashed.out().contains("\"outputs\": 6"),
        hashed.out());
    double e = exact.json("\"test\"", "error");
    double h = hashed.json("\"test\"", "error");
    assertTrue(e < 0.75, "six books, chance 0.78: " + exact.out());
    assertEquals(e, h, 0.03, "hashed " + h + " vs exact " + e);
  }
}
