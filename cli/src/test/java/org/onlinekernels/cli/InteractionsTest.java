package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.codec.digest.MurmurHash3;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.onlinekernels.cli.Options.UsageException;
import org.onlinekernels.data.SparseDataset;

/**
 * VW namespaces: {@code --interactions} / {@code -q}, {@code ::}, {@code --ignore}, {@code --keep}.
 */
class InteractionsTest {
  private static final int BITS = 18;
  private static final int MASK = (1 << BITS) - 1;

  @TempDir Path dir;

  private static int h(String s, int seed) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    return MurmurHash3.hash32x86(b, 0, b.length, seed);
  }

  /** The 32-bit hash of feature {@code f} of namespace {@code ns} ("" for the default). */
  private static int feature(String ns, String f) {
    return h(f, ns.isEmpty() ? 0 : h(ns, 0));
  }

  /** index -> signed value, summed, of the given (hash, value) entries. */
  private static Map<Integer, Double> row(long... hashAndValueBits) {
    Map<Integer, Double> m = new TreeMap<>();
    for (int k = 0; k < hashAndValueBits.length; k += 2) {
      int hash = (int) hashAndValueBits[k];
      double v = Double.longBitsToDouble(hashAndValueBits[k + 1]);
      m.merge(hash & MASK, hash < 0 ? -v : v, Double::sum);
    }
    return m;
  }

  private static long v(double x) {
    return Double.doubleToLongBits(x);
  }

  private Map<Integer, Double> read(String line, String... interactions) throws Exception {
    Path f = dir.resolve("x.vw");
    Files.writeString(f, line + "\n");
    Namespaces ns = Namespaces.parse(List.of(interactions), null, null);
    SparseDataset d = VwReader.read(f, BITS, new VwRow(BITS, true, ns, null));
    Map<Integer, Double> m = new TreeMap<>();
    int[] idx = d.indices();
    double[] val = d.values();
    for (int j = 0; j < d.nnz(0); j++) {
      m.put(idx[j], val[j]);
    }
    return m;
  }

  @Test
  void aCrossedFeatureIsVwsFnvCombinationOfTheTwoHashesWithTheProductOfTheValues()
      throws Exception {
    int x = feature("animal", "cat");
    int y = feature("b", "red");
    int z = feature("b", "big");
    assertEquals(
        row(
            x,
            v(1),
            y,
            v(0.5),
            z,
            v(2),
            (VwRow.FNV_PRIME * x) ^ y,
            v(0.5),
            (VwRow.FNV_PRIME * x) ^ z,
            v(2)),
        read("1 |animal cat |b red:0.5 big:2", "ab"));
    // Order matters as in VW: ba hashes b's feature first.
    assertEquals(
        row(x, v(1), y, v(0.5), (VwRow.FNV_PRIME * y) ^ x, v(0.5)),
        read("1 |animal cat |b red:0.5", "ba"));
  }

  @Test
  void aNamespaceWithItselfCrossesEachFeatureWithItselfAndThoseAfterIt() throws Exception {
    int p = feature("a", "p");
    int q = feature("a", "q");
    assertEquals(
        row(
            p,
            v(2),
            q,
            v(3),
            (VwRow.FNV_PRIME * p) ^ p,
            v(4),
            (VwRow.FNV_PRIME * p) ^ q,
            v(6),
            (VwRow.FNV_PRIME * q) ^ q,
            v(9)),
        read("1 |a p:2 q:3", "aa"));
  }

  @Test
  void allPairsCrossesEveryPairOfPresentNamespacesInByteOrderTheDefaultOneIncluded()
      throws Exception {
    String line = "1 |b u |a s | t";
    Map<Integer, Double> all = read(line, "::");
    assertEquals(read(line, " a", " b", "  ", "aa", "ab", "bb"), all);
    assertEquals(3 + 6, all.size());
  }

  /**
   * {@code ::} crosses namespaces whatever their first byte: a namespace {@code éa} (letter 0xC3)
   * used to get no crossed features while {@code Xa} in the same line did (finding B2 of issue
   * #41).
   */
  @Test
  void allPairsCrossesNamespacesWhoseFirstByteIsNotPrintableAscii() throws Exception {
    int s = feature("éa", "s");
    int t = feature("Xa", "t");
    int u = feature("b", "u");
    // Letters in byte order: X (0x58), b (0x62), é (0xC3).
    assertEquals(
        row(
            s,
            v(1),
            t,
            v(1),
            u,
            v(1),
            (VwRow.FNV_PRIME * t) ^ t,
            v(1),
            (VwRow.FNV_PRIME * t) ^ u,
            v(1),
            (VwRow.FNV_PRIME * t) ^ s,
            v(1),
            (VwRow.FNV_PRIME * u) ^ u,
            v(1),
            (VwRow.FNV_PRIME * u) ^ s,
            v(1),
            (VwRow.FNV_PRIME * s) ^ s,
            v(1)),
        read("1 |éa s |Xa t |b u", "::"));
  }

  @Test
  void ignoreAndKeepDropNamespacesByTheirFirstLetter() throws Exception {
    Path f = dir.resolve("k.vw");
    Files.writeString(f, "1 |apple x |avocado y |b z | w\n");
    SparseDataset ignored =
        VwReader.read(f, BITS, new VwRow(BITS, true, Namespaces.parse(List.of(), "a", null), null));
    assertEquals(2, ignored.nnz(0));
    SparseDataset kept =
        VwReader.read(
            f, BITS, new VwRow(BITS, true, Namespaces.parse(List.of(), null, "a "), null));
    assertEquals(3, kept.nnz(0));
    SparseDataset keptB =
        VwReader.read(
            f, BITS, new VwRow(BITS, true, Namespaces.parse(List.of("bb"), null, "b"), null));
    assertEquals(2, keptB.nnz(0), "b's feature and its square");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "-q a|--interactions takes two namespace letters (e.g. ab) or ::, got 'a'",
        "-q abc|--interactions takes two namespace letters (e.g. ab) or ::, got 'abc': only pairs are crossed",
        "-q ab -q ba|--interactions ba given twice (ab and ba are the same pair)",
        "-q :: -q ab|--interactions :: crosses every pair of namespaces already; give it alone",
        "-q a:|--interactions 'a:': ':' is not a namespace letter",
        "--ignore a --keep b|--ignore and --keep exclude each other",
        "-q ab --ignore b|--interactions ab names namespace 'b', which --ignore drops",
        "-q ab --keep a|--interactions ab names namespace 'b', which --keep leaves out",
        "--ignore aé|--ignore 'aé': '\\u00e9' is not a namespace letter"
      })
  void aWrongNamespaceIsAUsageErrorNamingTheFlag(String flags, String message) throws IOException {
    Path f = dir.resolve("d.vw");
    Files.writeString(f, "1 |a x |b y\n");
    CliRun.line("train --data " + f + " " + flags).assertError(2, message);
  }

  @Test
  void namespaceFlagsApplyToVwInputOnly() throws IOException {
    Path f = dir.resolve("d.svm");
    Files.writeString(f, "1 1:1\n");
    CliRun.line("train --data " + f + " --format libsvm -q ab")
        .assertError(2, "--interactions applies to --format vw only");
    CliRun.line("train --data " + f + " --keep a")
        .assertError(2, "--interactions, --ignore and --keep" + " apply to Vowpal Wabbit files");
  }

  @Test
  void predictAppliesTheInteractionsOfTraining() throws IOException {
    StreamFiles.Parts p = StreamFiles.vw(dir, "p", 200, 50, 0, 3);
    Path model = dir.resolve("q.model");
    CliRun t =
        CliRun.line(
            "train --data "
                + p.a()
                + " --bits 12 -q ab --test "
                + p.b()
                + " --json --model "
                + model);
    assertEquals(0, t.code(), t.err());
    CliRun with = CliRun.line("predict --model " + model + " --data " + p.b() + " -q ab --json");
    CliRun without = CliRun.line("predict --model " + model + " --data " + p.b() + " --json");
    assertEquals(t.json("\"test\"", "loss"), with.json("\"test\"", "loss"));
    assertTrue(t.json("\"test\"", "loss") != without.json("\"test\"", "loss"), without.out());
  }

  /**
   * Rows of every size, on both sides of {@link VwRow#JDK_SORT_BELOW} and {@link
   * VwRow#PACKED_SORT_BELOW} (the JDK's sort of packed keys, an insertion sort of them, the radix
   * sort): the same stable order and sums as a plain stable sort; half the entries share a few
   * indices, so equal indices come in threes and more and a sum taken out of reading order shows in
   * its bits.
   */
  @Test
  void rowsAreSortedStablyAndSummedInReadingOrder() {
    java.util.Random r = new java.util.Random(9);
    int jdk = VwRow.JDK_SORT_BELOW;
    int packed = VwRow.PACKED_SORT_BELOW;
    for (int n : new int[] {2, 7, 41, jdk - 1, jdk, packed - 1, packed, packed + 1, 300, 5000}) {
      int[] idx = new int[n];
      double[] val = new double[n];
      Map<Integer, Double> want = new TreeMap<>();
      for (int i = 0; i < n; i++) {
        idx[i] = r.nextInt(i % 2 == 0 ? Math.clamp(n / 8, 2, 50) : 1 << 30);
        val[i] = r.nextGaussian();
        want.merge(idx[i], val[i], Double::sum); // in reading order, as the merge must sum
      }
      int m = VwRow.sortAndMerge(idx, val, n, new long[n], new int[n], new double[n], new int[257]);
      Map<Integer, Double> got = new TreeMap<>();
      for (int j = 0; j < m; j++) {
        assertTrue(j == 0 || idx[j] > idx[j - 1], "strictly increasing");
        got.put(idx[j], val[j]);
      }
      assertEquals(want, got);
    }
  }

  /**
   * A row whose interactions would make more than 2^24 entries is refused before any is made,
   * naming its line (a 10^5 x 10^5 {@code -q ab} row ran out of memory after 42 s).
   */
  @Test
  void aRowWithTooManyCrossedEntriesIsRefusedNamingItsLine() throws Exception {
    StringBuilder big = new StringBuilder("1 |a");
    for (int k = 0; k < 5000; k++) {
      big.append(" x").append(k);
    }
    big.append(" |b");
    for (int k = 0; k < 5000; k++) {
      big.append(" y").append(k);
    }
    Path f = dir.resolve("big.vw");
    Files.writeString(f, "1 |a x |b y\n" + big + "\n");
    Namespaces ns = Namespaces.parse(List.of("ab"), null, null);
    VwReader.FormatException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            VwReader.FormatException.class,
            () -> VwReader.read(f, BITS, new VwRow(BITS, true, ns, null)));
    assertEquals(
        f
            + ":2: the row's 10000 features and their interactions make 25010000 entries; a row"
            + " holds at most 16777216 (fewer features, or fewer -q pairs)",
        e.getMessage());
  }

  /**
   * The crossing and the sort run in the row builder's own arrays: no allocation per row once they
   * are large enough, whichever sort the row's size takes.
   */
  @ParameterizedTest
  @ValueSource(ints = {12, 41, 50})
  void buildingARowAllocatesNothing(int features) throws UsageException {
    // 12 features make 69 entries with the interactions (the radix sort); 41 and 50 none (the
    // JDK's sort of packed keys and the insertion sort).
    List<String> pairs = features == 12 ? List.of("ab", "aa") : List.of();
    VwRow row = new VwRow(BITS, true, Namespaces.parse(pairs, null, null), null);
    List<String> names = new ArrayList<>();
    for (int k = 0; k < features; k++) {
      names.add("f" + k);
    }
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long sum = 0;
    long before = 0;
    for (int round = 0; round < 2; round++) {
      if (round == 1) {
        before = mx.getCurrentThreadAllocatedBytes();
      }
      for (int r = 0; r < 2000; r++) {
        row.clear();
        for (int k = 0; k < features; k++) {
          row.add(k < 6 ? "a" : "b", names.get(k), r * 31 + k * 977 + (k % 7) * 104729 * r, 1 + k);
        }
        sum += row.finish();
      }
    }
    long allocated = mx.getCurrentThreadAllocatedBytes() - before;
    assertTrue(sum > 0);
    assertTrue(allocated < 2000, "2000 rows allocated " + allocated + " bytes");
  }
}
