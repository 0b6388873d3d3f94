package org.onlinekernels.cli;

import java.util.Arrays;

/**
 * Builds one Vowpal Wabbit example's row from its features as the reader meets them: drops the
 * namespaces {@link Namespaces} drops, adds the crossed features of its interactions, signs and
 * masks the hashes, sorts by index and sums the values of equal indices. Its arrays are reused from
 * row to row and grow only when a row is larger than every row before, so a row costs no allocation
 * (except the names of {@link NameSink}, when one is set).
 *
 * <p>Hashing: a plain feature of hash {@code h} (32 bits) has index {@code h & (2^B - 1)}; the
 * crossed feature of {@code x} in namespace {@code a} (hash {@code ha}, value {@code va}) and
 * {@code y} in namespace {@code b} ({@code hb}, {@code vb}) has the 32-bit hash {@code hab =
 * (16777619 * ha) ^ hb} (VW's FNV prime and order, {@code interactions_predict.h}), index {@code
 * hab & (2^B - 1)} and value {@code va * vb}; with signed hashing bit 31 of the hash signs the
 * value, for crossed features as for plain ones. For a pair {@code ab} every feature of {@code a}
 * meets every feature of {@code b}; for {@code aa} each feature meets itself and those after it
 * (VW's combinations); {@code ::} crosses every pair {@code (a, b)} with {@code a <= b} of the
 * namespaces present in the row, in byte order.
 */
final class VwRow {
  /**
   * The most entries, plain and crossed, of one row: 2^24. The row's arrays (indices, values and
   * the sort's copies, 24 bytes an entry) then take 400 MB; a row of 10^5 x 10^5 crossed features
   * used to run out of memory after 42 s, advising -Xmx8g.
   */
  static final long MAX_ROW_ENTRIES = 1L << 24;

  /** VW's multiplier of the first namespace's hash when two are crossed. */
  static final int FNV_PRIME = 16777619;

  /** Receives every entry of a row, plain and crossed, before equal indices are summed. */
  interface NameSink {
    /**
     * Feature {@code name} ({@code ns^feature}, crossed {@code a^x*b^y}) went to {@code index} with
     * {@code value}, negated by its hash if {@code negated} (signed hashing).
     */
    void entry(String name, int index, boolean negated, double value);

    /** The row's entries are complete. */
    default void endRow() {}
  }

  private final int mask;
  private final boolean signed;
  private final Namespaces namespaces;
  private final NameSink names;
  // The current example's features, in reading order.
  private int n;
  private int[] hash = new int[64];
  private double[] value = new double[64];
  private int[] letter = new int[64];
  private String[] name;
  // The features grouped by namespace letter (stable): group L is byLetter[start[L] .. start[L +
  // 1]).
  private final int[] start = new int[257];
  // The letters with features in the row, in byte order (after group()).
  private final int[] present = new int[256];
  private int presentCount;
  private int[] byLetter = new int[64];
  // The row: index and value, and the sort's packed keys, second buffers and digit counts.
  private int nnz;
  private int[] idx = new int[64];
  private double[] val = new double[64];
  private int[] idx2 = new int[64];
  private double[] val2 = new double[64];
  private final long[] keys = new long[PACKED_SORT_BELOW];
  private final int[] count = new int[257];

  /**
   * @param names receives every entry with its name, or {@code null} (then no name is kept)
   */
  VwRow(int bits, boolean signed, Namespaces namespaces, NameSink names) {
    this.mask = (1 << bits) - 1;
    this.signed = signed;
    this.namespaces = namespaces;
    this.names = names;
    this.name = names == null ? null : new String[64];
  }

  /** Starts a new example. */
  void clear() {
    n = 0;
    nnz = 0;
  }

  /**
   * Whether namespace {@code ns} (its name; "" for the default) is dropped: its features need not
   * be hashed.
   */
  boolean dropped(String ns) {
    return namespaces.dropped(letterOf(ns));
  }

  /**
   * A feature of namespace {@code ns} ({@code ""} for the default) with the 32-bit hash {@code h}
   * and value {@code v} (the namespace's scale applied).
   */
  void add(String ns, String feature, int h, double v) {
    add(letterOf(ns), ns, feature, h, v);
  }

  /**
   * Whether the names given to {@link #add(int, String, String, int, double)} are used (a {@link
   * NameSink} is set).
   */
  boolean keepsNames() {
    return names != null;
  }

  /**
   * As {@link #add(String, String, int, double)}, for a namespace whose letter {@code l} (its
   * name's first byte, {@code ' '} for the default) is known; {@code ns} and {@code feature} are
   * read only when {@link #keepsNames()}.
   */
  void add(int l, String ns, String feature, int h, double v) {
    if (namespaces.dropped(l)) {
      return;
    }
    if (n == hash.length) {
      int cap = 2 * n;
      hash = Arrays.copyOf(hash, cap);
      value = Arrays.copyOf(value, cap);
      letter = Arrays.copyOf(letter, cap);
      byLetter = new int[cap];
      if (name != null) {
        name = Arrays.copyOf(name, cap);
      }
    }
    hash[n] = h;
    value[n] = v;
    letter[n] = l;
    if (name != null) {
      name[n] = ns + "^" + feature;
    }
    n++;
  }

  /**
   * Ends the example: the plain and the crossed entries, sorted by index, equal indices summed.
   *
   * @return the number of entries, in {@link #indices()} and {@link #values()}
   */
  int finish() {
    for (int j = 0; j < n; j++) {
      put(hash[j], value[j], j, -1);
    }
    if (namespaces.crosses() && n > 0) {
      group();
      long entries = n + crossedCount();
      if (entries > MAX_ROW_ENTRIES) {
        throw new IllegalArgumentException(
            "the row's "
                + n
                + " features and their interactions make "
                + entries
                + " entries; a row holds at most "
                + MAX_ROW_ENTRIES
                + " (fewer features, or fewer -q pairs)");
      }
      if (namespaces.allPairs()) {
        // Every letter present, whatever its byte (a namespace "éa" has the letter 0xC3).
        for (int i = 0; i < presentCount; i++) {
          for (int j = i; j < presentCount; j++) {
            cross(present[i], present[j]);
          }
        }
      } else {
        for (int k = 0; k < namespaces.pairs(); k++) {
          cross(namespaces.first(k), namespaces.second(k));
        }
      }
    }
    if (names != null) {
      names.endRow();
    }
    nnz = sortAndMerge(idx, val, nnz, keys, idx2, val2, count);
    return nnz;
  }

  /** The row's indices (the first {@link #finish()} entries). */
  int[] indices() {
    return idx;
  }

  /** The row's values (the first {@link #finish()} entries). */
  double[] values() {
    return val;
  }

  /** Counting sort of the features by namespace letter, stable: each group keeps reading order. */
  private void group() {
    Arrays.fill(start, 0);
    for (int j = 0; j < n; j++) {
      start[letter[j] + 1]++;
    }
    for (int l = 0; l < 256; l++) {
      start[l + 1] += start[l];
    }
    for (int j = 0; j < n; j++) {
      byLetter[start[letter[j]]++] = j;
    }
    // The fill moved every start to its group's end: shift back.
    for (int l = 256; l > 0; l--) {
      start[l] = start[l - 1];
    }
    start[0] = 0;
    presentCount = 0;
    for (int l = 0; l < 256; l++) {
      if (start[l + 1] > start[l]) {
        present[presentCount++] = l;
      }
    }
  }

  /** The crossed entries {@link #finish} would add, counted before any is made. */
  private long crossedCount() {
    long c = 0;
    if (namespaces.allPairs()) {
      for (int i = 0; i < presentCount; i++) {
        for (int j = i; j < presentCount; j++) {
          c += pairCount(present[i], present[j]);
        }
      }
    } else {
      for (int k = 0; k < namespaces.pairs(); k++) {
        c += pairCount(namespaces.first(k), namespaces.second(k));
      }
    }
    return c;
  }

  /** The entries {@link #cross}{@code (a, b)} makes. */
  private long pairCount(int a, int b) {
    long na = start[a + 1] - start[a];
    return a == b ? na * (na + 1) / 2 : na * (start[b + 1] - start[b]);
  }

  /**
   * Crosses namespace {@code a} with namespace {@code b} (each feature with those after it when a
   * == b).
   */
  private void cross(int a, int b) {
    for (int p = start[a]; p < start[a + 1]; p++) {
      int i = byLetter[p];
      int half = FNV_PRIME * hash[i];
      double vi = value[i];
      for (int q = a == b ? p : start[b]; q < start[b + 1]; q++) {
        int j = byLetter[q];
        put(half ^ hash[j], vi * value[j], i, j);
      }
    }
  }

  /**
   * Appends the entry of 32-bit hash {@code h}: masked index, value signed by bit 31 if signed
   * hashing.
   */
  private void put(int h, double v, int i, int j) {
    if (nnz == idx.length) {
      int cap = 2 * nnz;
      idx = Arrays.copyOf(idx, cap);
      val = Arrays.copyOf(val, cap);
      idx2 = new int[cap];
      val2 = new double[cap];
    }
    boolean negated = signed && h < 0;
    idx[nnz] = h & mask;
    val[nnz] = negated ? -v : v;
    if (names != null) {
      names.entry(j < 0 ? name[i] : name[i] + "*" + name[j], idx[nnz], negated, val[nnz]);
    }
    nnz++;
  }

  /**
   * Rows of fewer entries than this are sorted as packed {@code long} keys; longer rows by {@link
   * #radixSort}.
   */
  static final int PACKED_SORT_BELOW = 64;

  /**
   * Packed keys of rows shorter than this are sorted by {@link Arrays#sort(long[], int, int)} (the
   * JDK's vectorised sort where the CPU has one): the JDK's own bound for that path, under which it
   * allocates nothing (above it, its partitioning allocates); the others by an insertion sort.
   */
  static final int JDK_SORT_BELOW = 44;

  /**
   * Sorts the first {@code n} entries by index, stably (equal indices keep their order, so their
   * sum is taken in reading order), and sums the values of equal indices; returns the new count.
   * {@code idx2} and {@code val2} must hold {@code n} elements, {@code keys} {@code n} when {@code
   * n < PACKED_SORT_BELOW}, {@code count} 257. Allocates nothing.
   */
  static int sortAndMerge(
      int[] idx, double[] val, int n, long[] keys, int[] idx2, double[] val2, int[] count) {
    if (n < PACKED_SORT_BELOW) {
      // Index in the high half, reading position in the low half: the keys are distinct, and
      // sorting them sorts by index with equal indices in reading order (a stable sort).
      for (int i = 0; i < n; i++) {
        keys[i] = ((long) idx[i] << 32) | i;
      }
      if (n < JDK_SORT_BELOW) {
        Arrays.sort(keys, 0, n);
      } else {
        insertionSort(keys, n);
      }
      for (int k = 0; k < n; k++) {
        long key = keys[k];
        idx2[k] = (int) (key >>> 32);
        val2[k] = val[(int) key];
      }
      return merge(idx2, val2, n, idx, val);
    }
    radixSort(idx, val, n, idx2, val2, count);
    return merge(idx, val, n, idx, val);
  }

  /**
   * Copies the sorted entries {@code fromI/fromV[0..n)} to {@code toI/toV} (the same arrays, or
   * others), equal indices summed in order; returns the new count.
   */
  private static int merge(int[] fromI, double[] fromV, int n, int[] toI, double[] toV) {
    int m = 0;
    for (int i = 0; i < n; i++) {
      if (m > 0 && toI[m - 1] == fromI[i]) {
        toV[m - 1] += fromV[i];
      } else {
        toI[m] = fromI[i];
        toV[m] = fromV[i];
        m++;
      }
    }
    return m;
  }

  private static void insertionSort(long[] keys, int n) {
    for (int i = 1; i < n; i++) {
      long key = keys[i];
      int j = i - 1;
      while (j >= 0 && keys[j] > key) {
        keys[j + 1] = keys[j];
        j--;
      }
      keys[j + 1] = key;
    }
  }

  /**
   * Least significant digit first, 8 bits a pass (indices are non-negative), stable; a pass whose
   * digit is constant is skipped.
   */
  private static void radixSort(
      int[] idx, double[] val, int n, int[] idx2, double[] val2, int[] count) {
    int[] fromI = idx;
    double[] fromV = val;
    int[] toI = idx2;
    double[] toV = val2;
    for (int shift = 0; shift < 32; shift += 8) {
      Arrays.fill(count, 0);
      for (int i = 0; i < n; i++) {
        count[((fromI[i] >>> shift) & 0xFF) + 1]++;
      }
      if (count[((fromI[0] >>> shift) & 0xFF) + 1] == n) {
        continue;
      }
      for (int b = 0; b < 256; b++) {
        count[b + 1] += count[b];
      }
      for (int i = 0; i < n; i++) {
        int at = count[(fromI[i] >>> shift) & 0xFF]++;
        toI[at] = fromI[i];
        toV[at] = fromV[i];
      }
      int[] ti = fromI;
      fromI = toI;
      toI = ti;
      double[] tv = fromV;
      fromV = toV;
      toV = tv;
    }
    if (fromI != idx) {
      System.arraycopy(fromI, 0, idx, 0, n);
      System.arraycopy(fromV, 0, val, 0, n);
    }
  }

  /**
   * VW's namespace letter: the first byte of the name's UTF-8 form; a space for the default
   * namespace.
   */
  static int letterOf(String ns) {
    if (ns.isEmpty()) {
      return ' ';
    }
    char c = ns.charAt(0);
    if (c < 0x80) {
      return c;
    }
    if (c < 0x800) {
      return 0xC0 | (c >> 6);
    }
    return Character.isSurrogate(c)
        ? 0xF0 | (Character.codePointAt(ns, 0) >> 18)
        : 0xE0 | (c >> 12);
  }
}
