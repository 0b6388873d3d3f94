package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bad input of {@code --save-state}, {@code --initial} and state files given to {@code predict}:
 * each refusal is one line naming the file or flag, nothing is trained or written.
 */
class StateFaultsTest {
  @TempDir Path dir;
  private StreamFiles.Parts svm;
  private Path state;

  @BeforeEach
  void aState() throws IOException {
    svm = StreamFiles.libsvm(dir, "s", 60, 40, 20, 0, 5);
    state = dir.resolve("s.okst");
    CliRun r =
        CliRun.line(
            "train --data " + svm.a() + " --algorithm adagrad --type double --save-state " + state);
    assertEquals(0, r.code(), r.err());
  }

  private CliRun resume(String more) {
    return CliRun.line("train --initial " + state + " --data " + svm.b() + more);
  }

  @Test
  void aMissingOrForeignStateFileIsOneLine() throws IOException {
    CliRun.line("train --initial " + dir.resolve("none.okst") + " --data " + svm.b())
        .assertError(1, "cannot read " + dir.resolve("none.okst") + ": no such file");
    Path model = dir.resolve("m.model");
    assertEquals(0, CliRun.line("train --data " + svm.a() + " --model " + model).code());
    CliRun.line("train --initial " + model + " --data " + svm.b())
        .assertError(1, model + ": not an online-kernels state file");
    CliRun.line("train --initial " + dir + " --data " + svm.b())
        .assertError(1, "cannot read " + dir + ": it is a directory");
    // A device that never ends: refused at its header (it was read whole: out of memory).
    Path zero = Path.of("/dev/zero");
    if (Files.isReadable(zero)) {
      CliRun.line("train --initial " + zero + " --data " + svm.b())
          .assertError(1, zero + ": not an online-kernels state file");
      CliRun.line("serve --initial " + zero + " --port 0")
          .assertError(1, zero + ": not an online-kernels state file");
    }
  }

  @Test
  void aDamagedOrTruncatedStateIsRefused() throws IOException {
    byte[] b = Files.readAllBytes(state);
    for (int at : new int[] {20, b.length / 2, b.length - 5}) {
      byte[] c = b.clone();
      c[at] ^= 0x10;
      Path bad = dir.resolve("bad" + at + ".okst");
      Files.write(bad, c);
      CliRun.line("train --initial " + bad + " --data " + svm.b())
          .assertError(1, bad + ": checksum mismatch");
      CliRun.line("predict --model " + bad + " --data " + svm.b())
          .assertError(1, bad + ": checksum mismatch");
    }
    Path cut = dir.resolve("cut.okst");
    Files.write(cut, java.util.Arrays.copyOf(b, b.length - 40));
    CliRun.line("train --initial " + cut + " --data " + svm.b())
        .assertError(1, cut + ": checksum mismatch");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "--algorithm scinol2|--algorithm scinol2: the state in STATE was trained with adagrad",
        "--algorithm adagrad --param eta=2|--param eta=2: the state in STATE was trained with adagrad",
        "--type float|--type float: the state in STATE was trained with double",
        "--loss hinge|--loss hinge: the state in STATE was trained with logistic",
        "--labels 1,-1|--labels 1,-1: the state in STATE was trained with the labels as they are",
        "--dense|--dense: the state in STATE was trained with sparse rows",
        "--dimension 50|--dimension 50: the state in STATE was trained with d = 20",
        "--normalize|--normalize: the state in STATE was trained with rows as they are",
        "--format vw|--format vw: the state in STATE was trained with libsvm input",
        // A LIBSVM state has no hashing: it was said to be "trained with --bits 0".
        "--bits 16|--bits 16: the state in STATE was trained with libsvm input (not hashed)",
        // --param without --algorithm is the state's rule's (it was checked against scinol2).
        "--param eta=2|--param eta=2: the state in STATE was trained with adagrad"
      })
  void aStateOfAnotherRuleTypeOrLabelMapIsRefusedNamingTheFlag(String flags, String message) {
    resume(" " + flags).assertError(2, message.replace("STATE", state.toString()));
  }

  @Test
  void theSameSettingsAreAccepted() {
    CliRun r = resume(" --algorithm adagrad --type double --loss logistic --dimension 20");
    assertEquals(0, r.code(), r.err());
    // The state's own parameter values, given: its defaults (eta = 1), with or without the rule.
    for (String same :
        new String[] {" --algorithm adagrad --param eta=1", " --param eta=1,delta=0"}) {
      r = resume(same);
      assertEquals(0, r.code(), same + ": " + r.err());
    }
  }

  @Test
  void libsvmFeaturesBeyondTheSavedDimensionAreRefusedWithLineAndIndex() throws IOException {
    Path wide = dir.resolve("wide.svm");
    Files.writeString(wide, "1 1:1\n-1 3:1 21:0.5\n");
    CliRun r = CliRun.line("train --initial " + state + " --data " + wide);
    r.assertError(
        1, wide + ":2: feature index 21 exceeds 20, the dimension of the state in " + state);
  }

  @Test
  void saveStateIsCheckedBeforeTraining() throws IOException {
    Path nowhere = dir.resolve("no/such/dir/s.okst");
    CliRun.line("train --data " + svm.a() + " --save-state " + nowhere)
        .assertError(1, "cannot write " + nowhere);
    CliRun.line("train --data " + svm.a() + " --save-state " + svm.a())
        .assertError(2, "--save-state " + svm.a() + " is the --data file");
    CliRun.line(
            "train --data " + svm.a() + " --algorithm ogd --save-state " + dir.resolve("o.okst"))
        .assertError(2, "ogd (the baseline) keeps no resumable state");
    CliRun.line("train --data " + svm.a() + " --threads 2 --save-state " + dir.resolve("t.okst"))
        .assertError(2, "--save-state, --initial and --holdout-period train on one thread");
    assertFalse(Files.exists(dir.resolve("o.okst")));
  }

  @Test
  void continuingOverwritesTheStateItStartedFrom() {
    CliRun r = resume(" --save-state " + state);
    assertEquals(0, r.code(), r.err());
    assertEquals("100", TrainingStateTestAccess.setting(state, "examples"));
  }

  /** A state with a valid checksum but a value no run writes: refused naming the setting. */
  @ParameterizedTest
  @CsvSource({
    "d,-5",
    "d,2147483647",
    "labels,'0,1,2'",
    "outputs,0",
    "classes,3",
    "algorithm,sgd",
    "precision,half",
    "bits,7",
    "labels,'1,x'",
    "examples,-1",
    "interactions,abc"
  })
  void hostileSettingsWithAValidChecksumAreRefused(String key, String value) throws Exception {
    TrainingState s = TrainingState.load(state);
    Map<String, String> m = new LinkedHashMap<>(s.settings());
    m.put(key, value);
    Path hostile = dir.resolve("hostile.okst");
    TrainingState.held(m, s.optimizers()).save(hostile);
    CliRun r = CliRun.line("train --initial " + hostile + " --data " + svm.b());
    r.assertError(1, hostile + ": setting " + key + " = '" + value + "' is invalid");
    assertTrue(r.err().contains("was not written by train --save-state"), r.err());
  }

  /**
   * Found by HostileStateFileProperties: a damaged keep or ignore setting was reported as the
   * interactions setting, and its CR or LF split the error into two lines.
   */
  @ParameterizedTest
  @CsvSource({"keep,'\\r\\n'", "ignore,'a\\r'", "keep,'x\\n'"})
  void aSettingWithLineBreaksIsOneLineNamingIt(String key, String escaped) throws Exception {
    String value = escaped.replace("\\r", "\r").replace("\\n", "\n");
    TrainingState s = TrainingState.load(state);
    Map<String, String> m = new LinkedHashMap<>(s.settings());
    m.put(key, value);
    Path hostile = dir.resolve("breaks.okst");
    TrainingState.held(m, s.optimizers()).save(hostile);
    String shown = value.replace("\r", "\\u000d").replace("\n", "\\u000a");
    CliRun.line("train --initial " + hostile + " --data " + svm.b())
        .assertError(1, hostile + ": setting " + key + " = '" + shown + "' is invalid");
  }

  /** A loaded state's images stay in its file: saved again, they are copied from there whole. */
  @Test
  void aLoadedStateSavedAgainIsTheSameFile() throws Exception {
    Path copy = dir.resolve("copy.okst");
    TrainingState.load(state).save(copy);
    assertArrayEquals(Files.readAllBytes(state), Files.readAllBytes(copy));
  }

  /**
   * The images are read from the file when they are used: a state saved over the file in between (a
   * new file renamed over it) is refused by name, not read as the old one's images.
   */
  @Test
  void aStateFileReplacedAfterLoadingIsRefusedWhenItsImagesAreRead() throws Exception {
    Path file = dir.resolve("replaced.okst");
    Files.copy(state, file);
    TrainingState loaded = TrainingState.load(file);
    TrainingState.held(loaded.settings(), loaded.optimizers()).save(file);
    IOException e =
        assertThrows(
            IOException.class,
            () -> loaded.images().get(0).writeTo(java.io.OutputStream.nullOutputStream()));
    assertTrue(e.getMessage().contains(file + " changed since it was loaded"), e.getMessage());
  }

  @Test
  void aStateWhoseOptimizerImageDoesNotFitIsRefused() throws Exception {
    TrainingState s = TrainingState.load(state);
    Map<String, String> m = new LinkedHashMap<>(s.settings());
    m.put("algorithm", "scinol2");
    Path other = dir.resolve("other.okst");
    TrainingState.held(m, s.optimizers()).save(other);
    CliRun.line("train --initial " + other + " --data " + svm.b())
        .assertError(1, other + ": holds adagrad state");
  }

  @Test
  void predictTakesAStateFileWithItsSettings() {
    CliRun r = CliRun.line("predict --model " + state + " --data " + svm.b() + " --json");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("\"algorithm\": \"adagrad\""), r.out());
    CliRun.line("predict --model " + state + " --data " + svm.b() + " --labels 0,1")
        .assertError(
            2, "--labels 0,1: the state in " + state + " was trained with the labels as they are");
  }
}
