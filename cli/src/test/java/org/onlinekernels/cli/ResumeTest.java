package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.onlinekernels.optimizer.RuleInfo;
import org.onlinekernels.rules.Rules;

/**
 * {@code train --save-state} then {@code train --initial}: training on A, saving, then continuing
 * on B gives, bit for bit, the whole state (every buffer and scalar of every output, and the
 * settings), the model and the progressive predictions of one run on A followed by B, for every
 * rule of the registry, both element types, LIBSVM and VW input. (The state used to be compared
 * through the model only: a lost scalar that does not move today's weights, ScInOL2's {@code t} or
 * AOGD's {@code Hsum}, passed.)
 */
class ResumeTest {
  @TempDir Path dir;

  static Stream<Arguments> everyRuleTypeAndFormat() {
    List<Arguments> cases = new ArrayList<>();
    for (RuleInfo rule : Rules.ALL) {
      for (String type : List.of("float", "double")) {
        for (String format : List.of("libsvm", "vw")) {
          cases.add(Arguments.of(rule.name(), type, format));
        }
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @MethodSource("everyRuleTypeAndFormat")
  void continuingFromAStateEqualsOneUninterruptedRun(String rule, String type, String format)
      throws IOException {
    StreamFiles.Parts p =
        format.equals("vw")
            ? StreamFiles.vw(dir, "s", 150, 100, 0, 7)
            : StreamFiles.libsvm(dir, "s", 150, 100, 40, 0, 7);
    String opts =
        " --algorithm "
            + rule
            + " --type "
            + type
            + " --no-shuffle"
            + (format.equals("vw") ? " --bits 10 -q ab" : "");
    assertContinuationEqualsOneRun(p, opts, "");
  }

  @Test
  void multiclassAndLabelMapsCarryOver() throws IOException {
    StreamFiles.Parts p = StreamFiles.libsvm(dir, "m", 120, 90, 25, 4, 11);
    assertContinuationEqualsOneRun(p, " --algorithm adagrad --no-shuffle", "");
    StreamFiles.Parts v = StreamFiles.vw(dir, "v", 120, 90, 0, 12);
    // A label map decided on A (1/2 -> -1/+1) is the state's; B, all of label 1, is read with it
    // (1 -> -1), where deciding on B alone would keep 1 as +1.
    relabel(v.a(), "-1", "1", "1", "2");
    relabel(v.b(), "-1", "1", "1", "1");
    Files.writeString(v.ab(), Files.readString(v.a()) + Files.readString(v.b()));
    assertContinuationEqualsOneRun(v, " --no-shuffle --bits 9 --ignore b", "");
  }

  /**
   * Rewrites the labels of a +1/-1 VW file: {@code neg} becomes {@code negTo}, {@code pos} {@code
   * posTo}.
   */
  private static void relabel(Path file, String neg, String negTo, String pos, String posTo)
      throws IOException {
    List<String> out = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      int sp = line.indexOf(' ');
      String label = line.substring(0, sp);
      out.add((label.equals(neg) ? negTo : label.equals(pos) ? posTo : label) + line.substring(sp));
    }
    Files.write(file, out);
  }

  private void assertContinuationEqualsOneRun(StreamFiles.Parts p, String opts, String resumeOpts)
      throws IOException {
    Path state = dir.resolve("state.okst");
    Path resumed = dir.resolve("resumed.model");
    Path whole = dir.resolve("whole.model");
    Path progResumed = dir.resolve("resumed.prog");
    Path progWhole = dir.resolve("whole.prog");
    Path wholeState = dir.resolve("whole.okst");
    CliRun first = CliRun.line("train --data " + p.a() + opts + " --save-state " + state);
    assertEquals(0, first.code(), first.err());
    CliRun second =
        CliRun.line(
            "train --initial "
                + state
                + " --data "
                + p.b()
                + " --no-shuffle --model "
                + resumed
                + " --progressive-out "
                + progResumed
                + resumeOpts
                + " --save-state "
                + state);
    assertEquals(0, second.code(), second.err());
    CliRun one =
        CliRun.line(
            "train --data "
                + p.ab()
                + opts
                + " --model "
                + whole
                + " --progressive-out "
                + progWhole
                + " --save-state "
                + wholeState);
    assertEquals(0, one.code(), one.err());
    List<byte[]> images = TrainingStateTestAccess.images(state);
    List<byte[]> wholeImages = TrainingStateTestAccess.images(wholeState);
    assertEquals(wholeImages.size(), images.size(), "outputs");
    for (int c = 0; c < images.size(); c++) {
      assertArrayEquals(
          wholeImages.get(c), images.get(c), "the state of output " + (c + 1) + " differs");
    }
    assertArrayEquals(
        Files.readAllBytes(wholeState), Files.readAllBytes(state), "the state files differ");
    assertArrayEquals(
        Files.readAllBytes(whole), Files.readAllBytes(resumed), "models differ:\n" + second.out());
    List<String> a = scores(progResumed, 0);
    List<String> b = scores(progWhole, Files.readAllLines(p.a()).size());
    assertEquals(b, a, "progressive predictions on B differ");
    assertTrue(second.out().contains("examples trained in all"), second.out());
    assertEquals(
        Files.readAllLines(p.ab()).size(),
        Long.parseLong(TrainingStateTestAccess.setting(state, "examples")));
  }

  /** The score columns of a progressive-out file, from row {@code skip + 1} on. */
  private static List<String> scores(Path file, int skip) throws IOException {
    List<String> l = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      String[] f = line.split(" ");
      if (Integer.parseInt(f[1]) > skip) {
        l.add(String.join(" ", List.of(f).subList(2, f.length)));
      }
    }
    return l;
  }
}
