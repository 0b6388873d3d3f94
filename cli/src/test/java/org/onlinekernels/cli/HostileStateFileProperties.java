package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32C;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import net.jqwik.api.statistics.Statistics;
import org.onlinekernels.testsupport.Coverage;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * Issue 26, generalised: state files ({@code train --save-state}) whose checksums are all valid
 * (the file's and each optimizer image's, resealed) and whose contents are hostile in one place: a
 * state buffer with one or every element huge, NaN, infinite, subnormal or -0 (in the file's
 * element type), a scalar so, the image's dimension changed, an image truncated, an image dropped
 * or repeated, or one setting replaced (numbers at the ends of int, off by one, CR or CRLF endings,
 * empty, other words). States of two rules, float and double, binary and three classes.
 *
 * <p>The property: {@code predict} with the file either exits 0 with one finite prediction line per
 * row, or is refused by one error line naming the file (or the data file, where the data does not
 * fit the state's settings); {@code train --initial} with it either saves a model whose weights and
 * predictions are finite, or is refused so. Never NaN with exit 0, never another exception. Each
 * kind of damage and both outcomes are reached in a stated share.
 */
class HostileStateFileProperties {
  /*
   * The least shares of the outcomes that the coverage checks hold (Coverage): 0.8 of those
   * measured over 5,000 tries (scored 35 %, refused 65 %; one hostile buffer element scored 20 %,
   * refused 13 %), more than ten standard errors of that measurement below it.
   */
  private static final double SHARE_SCORED = 0.28;
  private static final double SHARE_REFUSED = 0.52;
  private static final double SHARE_ONE_SCORED = 0.16;
  private static final double SHARE_ONE_REFUSED = 0.10;

  enum Damage {
    BUFFER_ONE,
    BUFFER_ALL,
    SCALAR,
    DIMENSION,
    IMAGE_CUT,
    IMAGE_COUNT,
    SETTING
  }

  private static final double[] HOSTILE = {
    Double.NaN,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY,
    1e308,
    -1e308,
    3.4028235e38,
    -3.4e38,
    1e30,
    Double.MIN_VALUE,
    Float.MIN_VALUE,
    -0.0,
    0,
    1,
    -1
  };

  private Path dir;
  private final List<Path> states = new ArrayList<>();

  /** The data each state was trained on (binary or three classes). */
  private final List<Path> dataOf = new ArrayList<>();

  private Path data;
  private int tryNumber;

  @BeforeProperty
  void states() throws IOException {
    dir = Files.createTempDirectory("hostile-states");
    data = Files.writeString(dir.resolve("d.svm"), "1 1:2 2:0.5\n-1 2:2 3:1\n1 3:-1\n".repeat(4));
    Path multi =
        Files.writeString(dir.resolve("m.svm"), "0 1:2 2:0.5\n1 2:2 3:1\n2 3:-1\n".repeat(4));
    for (String rule : List.of("adagrad", "scinol2")) {
      for (String type : List.of("float", "double")) {
        for (Path d : List.of(data, multi)) {
          Path s = dir.resolve(rule + "-" + type + "-" + d.getFileName() + ".okst");
          CliRun r =
              CliRun.of(
                  "train",
                  "--data",
                  d.toString(),
                  "--algorithm",
                  rule,
                  "--type",
                  type,
                  "--save-state",
                  s.toString());
          assertTrue(r.code() == 0, r.toString());
          states.add(s);
          dataOf.add(d);
        }
      }
    }
  }

  @AfterProperty
  void remove() throws IOException {
    try (var s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  record Case(int state, Damage damage, long seed) {}

  @Provide
  Arbitrary<Case> cases() {
    return Combinators.combine(
            Arbitraries.integers().between(0, 7),
            // One hostile buffer element three times as often as the other damages: it is the
            // case that must be both scored and refused (below), each in a few of its tries.
            Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.just(Damage.BUFFER_ONE)),
                Tuple.of(
                    6,
                    Arbitraries.of(
                        Damage.BUFFER_ALL,
                        Damage.SCALAR,
                        Damage.DIMENSION,
                        Damage.IMAGE_CUT,
                        Damage.IMAGE_COUNT,
                        Damage.SETTING))),
            Arbitraries.longs())
        .as(Case::new)
        .withoutEdgeCases();
  }

  @Property
  void aSealedHostileStatePredictsAndTrainsFinitelyOrIsRefusedNamingTheFile(@ForAll("cases") Case c)
      throws Exception {
    Random rnd = new Random(c.seed());
    TrainingState s = TrainingState.load(states.get(c.state()));
    Map<String, String> settings = new LinkedHashMap<>(s.settings());
    List<byte[]> images = new ArrayList<>(s.optimizers());
    int which = rnd.nextInt(images.size());
    String what = damage(c.damage(), rnd, settings, images, which);
    Path f = dir.resolve("h" + tryNumber++ + ".okst");
    TrainingState.held(settings, images).save(f);
    Path out = dir.resolve("p" + tryNumber);
    Path data = dataOf.get(c.state());
    CliRun p =
        CliRun.of("predict", "--model", f.toString(), "--data", data.toString(), "--out", "" + out);
    String show = states.get(c.state()).getFileName() + " with " + what + ": ";
    Statistics.label("damage").collect(c.damage());
    Statistics.label("predict").collect(p.code() == 0 ? "scored" : "refused");
    Statistics.label("predict by damage").collect(c.damage(), p.code() == 0 ? "scored" : "refused");
    // Shares (Coverage): one hostile buffer element 3/9, every other damage 1/9 (the generator's
    // weights, no edge cases); the outcomes at SHARE_SCORED etc., measured.
    Statistics.label("damage")
        .coverage(
            cov -> {
              for (Damage d : Damage.values()) {
                cov.check(d).count(Coverage.share(d == Damage.BUFFER_ONE ? 3.0 / 9 : 1.0 / 9));
              }
            });
    Statistics.label("predict")
        .coverage(
            cov -> {
              cov.check("scored").count(Coverage.share(SHARE_SCORED));
              cov.check("refused").count(Coverage.share(SHARE_REFUSED));
            });
    // Hostile values must reach the loader and also get through it: a state buffer with one
    // hostile element is scored in a share of tries (an accepted value) and refused in another.
    Statistics.label("predict by damage")
        .coverage(
            cov -> {
              cov.check(Damage.BUFFER_ONE, "scored").count(Coverage.share(SHARE_ONE_SCORED));
              cov.check(Damage.BUFFER_ONE, "refused").count(Coverage.share(SHARE_ONE_REFUSED));
            });
    if (p.code() == 0) {
      List<String> lines = Files.readAllLines(out);
      assertTrue(lines.size() == 12, show + p);
      for (String line : lines) {
        for (String x : line.split(" ")) {
          assertTrue(Double.isFinite(Double.parseDouble(x)), show + line + "\n" + p);
        }
      }
    } else {
      assertRefused(p, f, data, show);
    }
    Path m = dir.resolve("m" + tryNumber + ".model");
    CliRun t =
        CliRun.of("train", "--initial", f.toString(), "--data", data.toString(), "--model", "" + m);
    if (t.code() != 0) {
      assertRefused(t, f, data, show);
      return;
    }
    LinearModel model = LinearModel.load(m);
    for (double[] w : model.weights()) {
      for (double x : w) {
        assertTrue(Double.isFinite(x), show + "weight " + x + "\n" + t);
      }
    }
    assertTrue(!t.out().contains("NaN"), show + t);
  }

  /** One error line naming the state file or, where the data does not fit it, the data file. */
  private static void assertRefused(CliRun r, Path f, Path data, String show) {
    assertTrue(
        r.out().isEmpty()
            && r.err().startsWith("error: ")
            && r.err().lines().count() == 1
            && (r.err().contains(f.toString()) || r.err().startsWith("error: " + data + ":")),
        show + r);
  }

  /** Damages one place; returns what was done, for the message. */
  private static String damage(
      Damage d, Random rnd, Map<String, String> settings, List<byte[]> images, int which) {
    byte[] img = images.get(which).clone();
    Image layout = Image.of(img);
    double v = HOSTILE[rnd.nextInt(HOSTILE.length)];
    String what;
    switch (d) {
      case BUFFER_ONE, BUFFER_ALL -> {
        int b = rnd.nextInt(layout.bufferStart.size());
        int size = layout.elementSize;
        int n = layout.bufferLength.get(b) / size;
        int from = d == Damage.BUFFER_ONE ? rnd.nextInt(n) : 0;
        int to = d == Damage.BUFFER_ONE ? from + 1 : n;
        ByteBuffer bb = ByteBuffer.wrap(img).order(ByteOrder.nativeOrder());
        for (int k = from; k < to; k++) {
          int at = layout.bufferStart.get(b) + k * size;
          if (size == 4) {
            bb.putFloat(at, (float) v);
          } else {
            bb.putDouble(at, v);
          }
        }
        what = "buffer " + b + " [" + from + ", " + to + ") = " + v;
      }
      case SCALAR -> {
        if (layout.scalarBits.isEmpty()) {
          return "nothing (no scalar)";
        }
        int k = rnd.nextInt(layout.scalarBits.size());
        ByteBuffer.wrap(img).putDouble(layout.scalarBits.get(k), v);
        what = "scalar " + k + " = " + v;
      }
      case DIMENSION -> {
        int old = ByteBuffer.wrap(img).getInt(layout.dimensionAt);
        int nd = List.of(old + 1, old - 1, 0, -1, Integer.MAX_VALUE, 2 * old).get(rnd.nextInt(6));
        ByteBuffer.wrap(img).putInt(layout.dimensionAt, nd);
        what = "image dimension " + nd;
      }
      case IMAGE_CUT -> {
        img = Arrays.copyOf(img, 4 + rnd.nextInt(img.length - 4));
        what = "image cut to " + img.length + " bytes";
      }
      case IMAGE_COUNT -> {
        if (images.size() > 1 && rnd.nextBoolean()) {
          images.remove(which);
          return "image " + which + " dropped";
        }
        images.add(images.get(which));
        return "image " + which + " repeated";
      }
      default -> {
        String key = TrainingState.KEYS.get(rnd.nextInt(TrainingState.KEYS.size()));
        String old = settings.get(key);
        String nv =
            switch (rnd.nextInt(6)) {
              case 0 -> old + (rnd.nextBoolean() ? "\r" : "\r\n");
              case 1 -> "";
              case 2 -> {
                try {
                  yield Long.toString(Long.parseLong(old) + (rnd.nextBoolean() ? 1 : -1));
                } catch (NumberFormatException e) {
                  yield old.toUpperCase(java.util.Locale.ROOT);
                }
              }
              case 3 -> List.of("2147483647", "2147483648", "-1", "0", "1e3").get(rnd.nextInt(5));
              case 4 ->
                  List.of("float", "double", "mixed", "vw", "libsvm", "0,1,2").get(rnd.nextInt(6));
              default -> " " + old;
            };
        settings.put(key, nv);
        return "setting " + key + " = '" + nv + "'";
      }
    }
    reseal(img);
    images.set(which, img);
    return what;
  }

  /** The image's CRC32C (its last four bytes) made valid again. */
  private static void reseal(byte[] img) {
    CRC32C crc = new CRC32C();
    crc.update(img, 0, img.length - 4);
    ByteBuffer.wrap(img).putInt(img.length - 4, (int) crc.getValue());
  }

  /** Where a checkpoint image holds its dimension, buffers and scalars (Checkpoint's format). */
  record Image(
      int dimensionAt,
      int elementSize,
      List<Integer> bufferStart,
      List<Integer> bufferLength,
      List<Integer> scalarBits) {
    static Image of(byte[] img) {
      ByteBuffer b = ByteBuffer.wrap(img);
      b.position(8); // magic, version
      utf(b); // algorithm
      String precision = utf(b);
      utf(b); // byte order
      int dimensionAt = b.position();
      b.getInt();
      utf(b); // parameters
      utf(b); // kernels
      List<Integer> starts = new ArrayList<>();
      List<Integer> lengths = new ArrayList<>();
      for (int n = b.getInt(); n > 0; n--) {
        utf(b);
        int len = (int) b.getLong();
        starts.add(b.position());
        lengths.add(len);
        b.position(b.position() + len);
      }
      List<Integer> scalars = new ArrayList<>();
      for (int n = b.getInt(); n > 0; n--) {
        utf(b);
        scalars.add(b.position());
        b.getLong();
      }
      return new Image(dimensionAt, precision.equals("FLOAT") ? 4 : 8, starts, lengths, scalars);
    }

    private static String utf(ByteBuffer b) {
      byte[] s = new byte[b.getShort() & 0xFFFF];
      b.get(s);
      return new String(s, StandardCharsets.UTF_8);
    }
  }
}
