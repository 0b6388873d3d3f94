package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import net.jqwik.api.statistics.Statistics;
import org.apache.commons.codec.digest.MurmurHash3;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.testsupport.Coverage;
import org.onlinekernels.testsupport.FuzzTries;

/**
 * Issue 26, generalised: generated Vowpal Wabbit files, each valid but for at most one hostile
 * element (a feature name with bytes that are not UTF-8, a name with a byte the format gives a
 * meaning to, a value or a namespace scale at the edge of the magnitude limit or of double's range,
 * one feature given twice with large values so that the sum overflows), read under no limit or
 * under {@code train}'s float or double limit, as plain text, gzip in one member, gzip cut into two
 * members, gzip followed by junk or gzip truncated.
 *
 * <p>The property: a file whose every value, scaled and summed, is finite and within the limit
 * reads into exactly the rows an independent model of the format computes (MurmurHash3 of the
 * name's bytes seeded by its namespace's, low bits, values summed per index), the same on a second
 * read; any other file is refused with one message {@code FILE:LINE: ...} naming the hostile line.
 * A hostile name whose parse the model does not predict (a format byte) may read or be refused:
 * either way every other line reads as the model says and every value is finite and within the
 * limit. Gzip with junk after it or truncated is refused naming the file. The outcomes are counted
 * and each kind of hostile element must be reached, read and refused, in a stated share of tries
 * (so a generator whose files are all refused early cannot pass).
 */
class VwReaderFuzzProperties {
  /** A kind of hostile element and what became of its file. */
  record Outcome(Hostile hostile, String outcome) {}

  /**
   * The least share of tries of each outcome the coverage check holds (Coverage): 0.8 of the share
   * measured over 5,000 tries (each more than ten standard errors below it). Each is reached at all
   * in a run of the default suite's tries (four times the configured number).
   */
  private static final Map<Outcome, Double> OUTCOME_SHARES =
      Map.of(
          new Outcome(Hostile.NONE, "read"), 0.10, // measured 12.7 %
          new Outcome(Hostile.EDGE_VALUE, "read"), 0.059, // 7.4 %
          new Outcome(Hostile.EDGE_VALUE, "refused"), 0.036, // 4.6 %
          new Outcome(Hostile.EDGE_SCALE, "read"), 0.041, // 5.2 %
          new Outcome(Hostile.EDGE_SCALE, "refused"), 0.057, // 7.2 %
          new Outcome(Hostile.SUM_OF_TWO, "read"), 0.058, // 7.3 %
          new Outcome(Hostile.SUM_OF_TWO, "refused"), 0.045, // 5.7 %
          new Outcome(Hostile.NOT_UTF8_NAME, "read"), 0.10, // 12.8 %
          new Outcome(Hostile.FORMAT_BYTE_NAME, "refused"), 0.042); // 5.3 %

  private static final int BITS = 18;

  /** What, if anything, is hostile in a generated file. */
  enum Hostile {
    NONE,
    NOT_UTF8_NAME,
    FORMAT_BYTE_NAME,
    EDGE_VALUE,
    EDGE_SCALE,
    SUM_OF_TWO
  }

  /** How the file's bytes are stored. */
  enum Wrapper {
    PLAIN,
    GZIP,
    GZIP_TWO_MEMBERS,
    GZIP_THEN_JUNK,
    GZIP_TRUNCATED
  }

  /** The limit the file is read under. */
  enum Limit {
    NONE(LibSvmReader.Limits.NONE),
    FLOAT(TrainCommand.inputLimits(ElementType.FLOAT, false, 0)),
    DOUBLE(TrainCommand.inputLimits(ElementType.DOUBLE, false, 0));

    final LibSvmReader.Limits limits;

    Limit(LibSvmReader.Limits limits) {
      this.limits = limits;
    }
  }

  record Feature(byte[] name, String value) {}

  record Namespace(byte[] name, String scale, List<Feature> features) {}

  record Line(String label, String tag, List<Namespace> namespaces) {}

  /** A file: its lines, its one hostile element (on line {@code at}, 0-based) and its reading. */
  record Vw(
      List<Line> lines,
      Hostile hostile,
      int at,
      Limit limit,
      Wrapper wrapper,
      int cut,
      byte[] junk) {}

  private static final List<String> NAMES =
      List.of("a", "b", "word", "x_1", "7", "-", "w.2", "caf\u00e9", "\u4e2d", "\uD83D\uDE00");

  private static final List<String> VALUES =
      List.of("1", "-1", "0.5", "2", "-3.25", "1e2", "0", "17", "1.5E-3", "-0.125");

  private static final List<String> SCALES = List.of("1", "0.5", "2", "-1", "3");

  /** Byte sequences that are not UTF-8: lone Latin-1 letters, a lone lead, an overlong '/'... */
  private static final List<byte[]> NOT_UTF8 =
      List.of(
          new byte[] {(byte) 0xe9},
          new byte[] {(byte) 0xe8},
          new byte[] {(byte) 0xc3},
          new byte[] {(byte) 0xff},
          new byte[] {(byte) 0x80},
          new byte[] {(byte) 0xc0, (byte) 0xaf},
          new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80});

  /** Bytes the format gives a meaning to, and control bytes. */
  private static final List<Byte> FORMAT_BYTES =
      List.of((byte) ':', (byte) '|', (byte) '\t', (byte) 0x0b, (byte) '\f', (byte) 0, (byte) '\r');

  /** Numbers at the edges: of the limits, of float's and double's range, subnormal, signed 0. */
  private static final List<String> EDGES =
      List.of(
          "1099511627776",
          "1099511627777",
          "-1.0995116277760001E12",
          "3.4028235e38",
          "3.4028236e38",
          "1e39",
          "-1e39",
          "3.1217485503159922E144",
          "3.121748550315993E144",
          "1e300",
          "1.7976931348623157e308",
          "-1.7976931348623157E308",
          "1e309",
          "-1e309",
          "4.9e-324",
          "1e-320",
          "1e-400",
          "-0",
          "9007199254740993",
          "999999999999999");

  private static Arbitrary<byte[]> name() {
    return Arbitraries.of(NAMES).map(s -> s.getBytes(StandardCharsets.UTF_8));
  }

  private static Arbitrary<Feature> feature() {
    return Combinators.combine(
            name(), Arbitraries.frequencyOf(of(1, Arbitraries.just(null)), of(3, vals())))
        .as(Feature::new);
  }

  private static Arbitrary<String> vals() {
    return Arbitraries.of(VALUES);
  }

  private static <T> net.jqwik.api.Tuple.Tuple2<Integer, Arbitrary<? extends T>> of(
      int weight, Arbitrary<? extends T> a) {
    return net.jqwik.api.Tuple.of(weight, a);
  }

  private static Arbitrary<Namespace> namespace() {
    Arbitrary<byte[]> ns =
        Arbitraries.frequencyOf(of(1, Arbitraries.just(new byte[0])), of(3, name()));
    Arbitrary<String> scale =
        Arbitraries.frequencyOf(of(3, Arbitraries.just(null)), of(1, Arbitraries.of(SCALES)));
    return Combinators.combine(ns, scale, feature().list().ofMinSize(1).ofMaxSize(4))
        .as((n, s, fs) -> new Namespace(n, n.length == 0 ? null : s, fs));
  }

  private static Arbitrary<Line> line() {
    return Combinators.combine(
            Arbitraries.of("1", "-1"),
            Arbitraries.frequencyOf(
                of(3, Arbitraries.just(null)), of(1, Arbitraries.of("t", "x9"))),
            namespace().list().ofMinSize(1).ofMaxSize(3))
        .as(Line::new);
  }

  @Provide
  Arbitrary<Vw> files() {
    return Combinators.combine(
            line().list().ofMinSize(1).ofMaxSize(5),
            Arbitraries.of(Hostile.values()),
            Arbitraries.integers().between(0, 1 << 20),
            Arbitraries.of(Limit.values()),
            Arbitraries.frequency(
                net.jqwik.api.Tuple.of(8, Wrapper.PLAIN),
                net.jqwik.api.Tuple.of(2, Wrapper.GZIP),
                net.jqwik.api.Tuple.of(2, Wrapper.GZIP_TWO_MEMBERS),
                net.jqwik.api.Tuple.of(2, Wrapper.GZIP_THEN_JUNK),
                net.jqwik.api.Tuple.of(2, Wrapper.GZIP_TRUNCATED)),
            Arbitraries.integers().between(0, 1 << 20),
            Arbitraries.frequencyOf(
                of(1, Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(12)),
                of(1, Arbitraries.just("1 |a b\n".getBytes(StandardCharsets.US_ASCII)))))
        .flatAs(
            (lines, hostile, pick, limit, wrapper, cut, junk) ->
                hostile(lines, hostile, pick)
                    .map(ls -> new Vw(ls, hostile, pick % lines.size(), limit, wrapper, cut, junk)))
        // Edge cases would mostly pick the first of each choice: no hostile element, plain text.
        .withoutEdgeCases();
  }

  /** The lines with the hostile element put on line {@code pick % size}. */
  private static Arbitrary<List<Line>> hostile(List<Line> lines, Hostile h, int pick) {
    int at = pick % lines.size();
    Line l = lines.get(at);
    int n = (pick / lines.size()) % l.namespaces().size();
    Namespace ns = l.namespaces().get(n);
    int f = (pick / 7) % ns.features().size();
    Feature ft = ns.features().get(f);
    Arbitrary<Namespace> changed =
        switch (h) {
          case NONE -> Arbitraries.just(ns);
          case NOT_UTF8_NAME ->
              Arbitraries.of(NOT_UTF8)
                  .map(bad -> withFeature(ns, f, new Feature(concat(ft.name(), bad), ft.value())));
          case FORMAT_BYTE_NAME ->
              Arbitraries.of(FORMAT_BYTES)
                  .map(
                      bad -> {
                        byte[] name = Arrays.copyOf(ft.name(), ft.name().length + 1);
                        int p = (pick / 3) % name.length;
                        System.arraycopy(ft.name(), p, name, p + 1, ft.name().length - p);
                        name[p] = bad;
                        return withFeature(ns, f, new Feature(name, ft.value()));
                      });
          case EDGE_VALUE ->
              Arbitraries.of(EDGES).map(v -> withFeature(ns, f, new Feature(ft.name(), v)));
          case EDGE_SCALE ->
              Combinators.combine(Arbitraries.of(EDGES), Arbitraries.of(EDGES))
                  .as(
                      (s, v) -> {
                        Namespace named =
                            new Namespace(
                                ns.name().length == 0 ? new byte[] {'s'} : ns.name(),
                                s,
                                ns.features());
                        return withFeature(named, f, new Feature(ft.name(), v));
                      });
          case SUM_OF_TWO ->
              Arbitraries.of(EDGES)
                  .map(
                      v -> {
                        List<Feature> fs = new ArrayList<>(ns.features());
                        fs.set(f, new Feature(ft.name(), v));
                        fs.add((pick / 11) % (fs.size() + 1), new Feature(ft.name(), v));
                        return new Namespace(ns.name(), ns.scale(), fs);
                      });
        };
    return changed.map(
        c -> {
          List<Namespace> nss = new ArrayList<>(l.namespaces());
          nss.set(n, c);
          List<Line> out = new ArrayList<>(lines);
          out.set(at, new Line(l.label(), l.tag(), nss));
          return out;
        });
  }

  private static Namespace withFeature(Namespace ns, int f, Feature ft) {
    List<Feature> fs = new ArrayList<>(ns.features());
    fs.set(f, ft);
    return new Namespace(ns.name(), ns.scale(), fs);
  }

  private Path dir;

  @BeforeProperty
  void createDirectory() throws IOException {
    dir = Files.createTempDirectory("vw-fuzz");
  }

  @AfterProperty
  void removeDirectory() throws IOException {
    try (var s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  @Property
  @FuzzTries(multiplier = 4) // cheap tries; enough of them that every outcome's count is held
  void everyFileReadsAsTheFormatSaysOrIsRefusedNamingItsHostileLine(@ForAll("files") Vw vw)
      throws IOException {
    Statistics.label("hostile").collect(vw.hostile());
    Statistics.label("wrapper").collect(vw.wrapper());
    Statistics.label("limit").collect(vw.limit());
    byte[] text = render(vw.lines());
    Path f = dir.resolve("f" + vw.wrapper().ordinal() + ".vw");
    Files.write(f, wrap(text, vw));
    Result first = read(f, vw.limit());
    Result second = read(f, vw.limit());
    boolean damaged =
        vw.wrapper() == Wrapper.GZIP_THEN_JUNK || vw.wrapper() == Wrapper.GZIP_TRUNCATED;
    String outcome = damaged ? "damaged gzip" : first.data != null ? "read" : "refused";
    Statistics.label("outcome").collect(vw.hostile(), outcome);
    checkCoverage();
    String show = "file " + new String(text, StandardCharsets.ISO_8859_1) + " as " + vw;
    assertSameResult(first, second, "a second read of " + show);
    if (damaged) {
      assertTrue(first.data == null, "damaged gzip read: " + show);
      assertTrue(first.error.getMessage().startsWith(f.toString()), first.error + "; " + show);
      return;
    }
    double max = vw.limit().limits.maxMagnitude();
    List<Map<Integer, Double>> want = new ArrayList<>();
    List<Boolean> ok = new ArrayList<>();
    for (Line l : vw.lines()) {
      Map<Integer, Double> row = expectedRow(l, max);
      ok.add(row != null);
      want.add(row);
    }
    boolean predicted = vw.hostile() != Hostile.FORMAT_BYTE_NAME;
    int firstBad = ok.indexOf(false);
    if (first.data == null) {
      String m = first.error.getMessage();
      int line = vw.at() + 1;
      assertTrue(m.startsWith(f + ":" + line + ": ") && m.lines().count() == 1, m + "; " + show);
      if (predicted) {
        assertEquals(vw.at(), firstBad, "refused, but the model reads every line: " + m + show);
      }
      return;
    }
    assertTrue(!predicted || firstBad < 0, "read, but line " + (firstBad + 1) + " is bad: " + show);
    SparseDataset d = first.data;
    assertEquals(vw.lines().size(), d.size(), show);
    for (int r = 0; r < d.size(); r++) {
      Map<Integer, Double> got = new TreeMap<>();
      for (int k = d.rowStart(r); k < d.rowEnd(r); k++) {
        int i = d.indices()[k];
        double v = d.values()[k];
        assertTrue(i >= 0 && i < 1 << BITS, "index " + i + " of row " + r + "; " + show);
        assertTrue(within(v, max), "value " + v + " of row " + r + "; " + show);
        if (v != 0) {
          got.put(i, v);
        }
      }
      assertEquals(Double.parseDouble(vw.lines().get(r).label()), d.label(r), show);
      if (predicted || r != vw.at()) {
        assertEquals(want.get(r), got, "row " + (r + 1) + " of " + show);
      }
    }
  }

  /** Each kind of hostile element and each wrapper in a share of tries, read and refused. */
  private static void checkCoverage() {
    Statistics.label("hostile")
        .coverage(
            c -> {
              for (Hostile h : Hostile.values()) {
                c.check(h).count(Coverage.share(1.0 / Hostile.values().length)); // uniform
              }
            });
    Statistics.label("wrapper")
        .coverage(
            c -> {
              for (Wrapper w : Wrapper.values()) {
                c.check(w).count(Coverage.share(w == Wrapper.PLAIN ? 8.0 / 16 : 2.0 / 16));
              }
            });
    Statistics.label("outcome")
        .coverage(
            c -> {
              // Each outcome at its measured share (OUTCOME_SHARES).
              OUTCOME_SHARES.forEach(
                  (o, p) -> c.check(o.hostile(), o.outcome()).count(Coverage.share(p)));
            });
  }

  /**
   * The row of {@code l} as the format defines it (index to summed value, zeros left out), or
   * {@code null} if a value, scaled or summed, is not finite or beyond {@code max}.
   */
  static Map<Integer, Double> expectedRow(Line l, double max) {
    record Entry(int letter, int index, double value) {}
    List<Entry> entries = new ArrayList<>();
    for (Namespace ns : l.namespaces()) {
      int seed =
          ns.name().length == 0 ? 0 : MurmurHash3.hash32x86(ns.name(), 0, ns.name().length, 0);
      int letter = ns.name().length == 0 ? ' ' : ns.name()[0] & 0xFF;
      double scale = ns.scale() == null ? 1 : Double.parseDouble(ns.scale());
      if (!Double.isFinite(scale)) {
        return null;
      }
      for (Feature f : ns.features()) {
        double v = f.value() == null ? 1 : Double.parseDouble(f.value());
        if (!Double.isFinite(v) || !within(v * scale, max)) {
          return null;
        }
        int h = MurmurHash3.hash32x86(f.name(), 0, f.name().length, seed);
        entries.add(new Entry(letter, h & ((1 << BITS) - 1), v * scale));
      }
    }
    // Summed in the reader's order: by namespace letter, then as read.
    entries.sort(Comparator.comparingInt(Entry::letter));
    Map<Integer, Double> row = new TreeMap<>();
    for (Entry e : entries) {
      row.merge(e.index(), e.value(), Double::sum);
    }
    for (double v : row.values()) {
      if (!within(v, max)) {
        return null;
      }
    }
    row.values().removeIf(v -> v == 0);
    return row;
  }

  private static boolean within(double v, double max) {
    return Double.isFinite(v) && Math.abs(v) <= max;
  }

  static byte[] render(List<Line> lines) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    for (Line l : lines) {
      o.writeBytes(l.label().getBytes(StandardCharsets.US_ASCII));
      if (l.tag() != null) {
        o.writeBytes((" '" + l.tag()).getBytes(StandardCharsets.US_ASCII));
      }
      for (Namespace ns : l.namespaces()) {
        o.writeBytes(" |".getBytes(StandardCharsets.US_ASCII));
        o.writeBytes(ns.name());
        if (ns.scale() != null) {
          o.writeBytes((":" + ns.scale()).getBytes(StandardCharsets.US_ASCII));
        }
        for (Feature f : ns.features()) {
          o.write(' ');
          o.writeBytes(f.name());
          if (f.value() != null) {
            o.writeBytes((":" + f.value()).getBytes(StandardCharsets.US_ASCII));
          }
        }
      }
      o.write('\n');
    }
    return o.toByteArray();
  }

  private static byte[] wrap(byte[] text, Vw vw) throws IOException {
    return switch (vw.wrapper()) {
      case PLAIN -> text;
      case GZIP -> gzip(text);
      case GZIP_TWO_MEMBERS -> {
        int at = vw.cut() % (text.length + 1);
        yield concat(
            gzip(Arrays.copyOfRange(text, 0, at)), gzip(Arrays.copyOfRange(text, at, text.length)));
      }
      case GZIP_THEN_JUNK -> concat(gzip(text), vw.junk());
      case GZIP_TRUNCATED -> {
        byte[] z = gzip(text);
        yield Arrays.copyOf(z, 2 + vw.cut() % (z.length - 2));
      }
    };
  }

  /** A data set, or the IOException that refused the file. */
  private record Result(SparseDataset data, IOException error) {}

  private static Result read(Path f, Limit limit) {
    try {
      return new Result(VwReader.read(f, BITS, false, limit.limits), null);
    } catch (IOException e) {
      return new Result(null, e);
    }
  }

  /** Both read into the same rows, bit for bit, or both were refused by the same message. */
  private static void assertSameResult(Result want, Result got, String what) {
    if (want.data == null || got.data == null) {
      assertEquals(String.valueOf(want.error), String.valueOf(got.error), what);
      return;
    }
    assertEquals(want.data.size(), got.data.size(), what);
    assertArrayEquals(want.data.indices(), got.data.indices(), what);
    assertArrayEquals(
        Arrays.stream(want.data.values()).mapToLong(Double::doubleToRawLongBits).toArray(),
        Arrays.stream(got.data.values()).mapToLong(Double::doubleToRawLongBits).toArray(),
        what);
  }

  private static byte[] gzip(byte[] b) throws IOException {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(o)) {
      z.write(b);
    }
    return o.toByteArray();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }
}
