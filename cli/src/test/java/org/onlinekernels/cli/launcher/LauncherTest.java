package org.onlinekernels.cli.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 26, the launcher's findings: a damaged start-up cache crashed every later call (SIGSEGV or
 * abort, and an hs_err file); options the JVM refuses gave its three lines and exit code 1, {@code
 * -Xmx1k} its error on stdout; a read-only {@code target/} with a newer source gave raw bash errors
 * and pointed to a log it could not write; without {@code target/} (jars built) the cache was
 * written into a missing directory; an unset {@code HOME} stopped the launcher.
 */
@Tag("long")
class LauncherTest {
  private LauncherHome h;

  @BeforeEach
  void home() throws IOException {
    h = LauncherHome.shared();
    h.restoreCache();
  }

  @AfterEach
  void noCrashReport() throws IOException {
    try (Stream<Path> s = Files.list(h.cwd)) {
      assertEquals(
          0,
          s.filter(p -> p.getFileName().toString().startsWith("hs_err")).count(),
          "the JVM crashed");
    }
  }

  private LauncherHome.Call train(Map<String, String> env) {
    return h.run(h.cwd, env, false, "train", "--data", "small.svm");
  }

  static void assertTrained(LauncherHome.Call c) {
    assertEquals(0, c.code(), c.show());
    assertTrue(c.out().startsWith("data: small.svm; n = 4, d = 3"), c.show());
  }

  static void assertOneLauncherError(LauncherHome.Call c, String text) {
    assertEquals(4, c.code(), c.show());
    assertTrue(c.out().isEmpty(), "stdout must stay empty: " + c.show());
    assertTrue(
        c.err().startsWith("error: ") && c.err().contains(text) && c.err().lines().count() == 1,
        c.show());
  }

  @Test
  void builtJarsWithoutATargetDirectoryRunAndMakeTheCache() {
    assertTrained(h.first);
    assertTrue(
        h.first.err().startsWith("online-kernels: making the start-up cache (once per build")
            && h.first.err().lines().count() == 1,
        h.first.show());
  }

  /**
   * No LANG (cron, a bare container): the JVM would decode file names as ASCII and not find
   * small.svm in a directory named beyond ASCII; the launcher gives it UTF-8 file names.
   */
  @Test
  void aDirectoryNamedBeyondAsciiTrainsInTheCLocale() throws IOException {
    Path cwd = Files.createTempDirectory(h.cwd.getParent(), "caf\u00e9 \u4e2d");
    Files.copy(h.cwd.resolve("small.svm"), cwd.resolve("small.svm"));
    h.openToEveryone(cwd);
    assertTrained(
        h.run(cwd, LauncherHome.plainEnvironment(), false, "train", "--data", "small.svm"));
  }

  /** The finding: 4 bytes overwritten in the cache's header, modification time moved or kept. */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aDamagedStartUpCacheIsMadeAgainNeverMapped(boolean timeKept) throws Exception {
    // Damaged in place with its modification time kept (a disk, a tool that restores times) or
    // moved: the launcher cannot tell the two apart by time, only by the checksum.
    FileTime before = Files.getLastModifiedTime(h.aot);
    try (RandomAccessFile f = new RandomAccessFile(h.aot.toFile(), "rw")) {
      f.seek(100);
      f.write(new byte[] {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef});
    }
    Files.setLastModifiedTime(
        h.aot, timeKept ? before : FileTime.fromMillis(System.currentTimeMillis() + 1000));
    LauncherHome.Call c = train(LauncherHome.plainEnvironment());
    assertTrained(c);
    assertTrue(
        c.err().startsWith("online-kernels: making the start-up cache (the one in")
            && c.err().lines().count() == 1,
        c.show());
    assertTrue(h.cacheMatchesItsChecksum(), "the cache was not made again");
    LauncherHome.Call again = train(LauncherHome.plainEnvironment());
    assertTrained(again);
    assertEquals("", again.err(), "the cache made again is used silently");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "ONLINE_KERNELS_JAVA_OPTS | --garbage     | Unrecognized option: --garbage",
        "ONLINE_KERNELS_JAVA_OPTS | -Xmx1k        | Too small maximum heap",
        "ONLINE_KERNELS_JAVA_OPTS | -XX:Bogus=1   | Unrecognized VM option 'Bogus=1'",
        "ONLINE_KERNELS_JAVA_OPTS | -Xss1k        | The Java thread stack size specified is too small",
        "JDK_JAVA_OPTIONS         | --garbage     | Unrecognized option: --garbage",
        "JAVA_TOOL_OPTIONS        | -Xmx1k        | Too small maximum heap"
      })
  void optionsTheJvmRefusesAreOneErrorLineWithExitCode4(
      String variable, String value, String reason) {
    Map<String, String> env = LauncherHome.plainEnvironment();
    env.put(variable, value);
    assertOneLauncherError(
        train(env), "the JVM refuses the options of " + variable + "='" + value + "': " + reason);
  }

  @Test
  void optionsTheJvmAcceptsLeaveStderrSilent() {
    Map<String, String> env = LauncherHome.plainEnvironment();
    env.put("ONLINE_KERNELS_JAVA_OPTS", " -Xmx256m \t-Dx=*  ");
    env.put("JAVA_TOOL_OPTIONS", "-Dy=1");
    env.put("JDK_JAVA_OPTIONS", "-Dz=2");
    LauncherHome.Call c = train(env);
    assertTrained(c);
    assertEquals("", c.err(), c.show());
  }

  /**
   * train's collector (the serial one, its young generation at most 16 MiB) is the launcher's
   * default, and a user's own heap bound, young generation or collector wins without a conflict
   * (two collectors would stop the JVM). The JVM's final flags, printed (on stderr, as the launcher
   * has the JVM print its own output), tell.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "''                               | UseSerialGC = true, UseG1GC = false, MaxNewSize = 16777216",
        "-Xmx200m                         | UseSerialGC = true, MaxHeapSize = 209715200, MaxNewSize = 16777216",
        "-Xmn64m                          | UseSerialGC = true, MaxNewSize = 67108864",
        "-XX:NewRatio=1                   | NewRatio = 1, MaxNewSize = (?!16777216\\s)\\d+",
        "-XX:+UseG1GC                     | UseG1GC = true, UseSerialGC = false, MaxNewSize = (?!16777216\\s)\\d+",
        "-XX:+UseParallelGC -Xmx300m      | UseParallelGC = true, UseSerialGC = false, MaxHeapSize = 314572800",
        "-XX:-UseSerialGC                 | UseSerialGC = false"
      })
  void trainsCollectorAndHeapDefaultsYieldToTheUsersOptions(String user, String flags) {
    Map<String, String> env = LauncherHome.plainEnvironment();
    env.put("ONLINE_KERNELS_JAVA_OPTS", (user + " -XX:+PrintFlagsFinal").strip());
    LauncherHome.Call c = h.run(h.cwd, env, false, "train", "--data", "small.svm", "--json");
    assertEquals(0, c.code(), c.show());
    for (String f : flags.split(", ")) {
      String[] kv = f.split(" = ");
      assertTrue(
          java.util.regex.Pattern.compile("\\s" + kv[0] + "\\s+= " + kv[1] + "\\s")
              .matcher(c.err())
              .find(),
          f + " in " + c.show());
    }
  }

  @Test
  void theJvmsOwnLogLinesStayOffStdout() {
    // A cache the JVM cannot map: three "[error][aot]" lines went to stdout before the JSON line.
    Map<String, String> env = LauncherHome.plainEnvironment();
    env.put("ONLINE_KERNELS_JAVA_OPTS", "-XX:AOTCache=" + h.cwd.resolve("none.aot"));
    LauncherHome.Call c = h.run(h.cwd, env, false, "train", "--data", "small.svm", "--json");
    assertEquals(0, c.code(), c.show());
    assertEquals(1, c.out().lines().count(), c.show());
    assertTrue(c.out().startsWith("{"), c.show());
    assertTrue(c.err().contains("[error][aot]"), c.show());
  }

  @Test
  void optionsOverSeveralLinesLeaveStderrSilent() {
    // The JVM's note repeats the value, line breaks included (found by
    // LauncherEnvironmentProperties: the lines after the note's first reached stderr).
    Map<String, String> env = LauncherHome.plainEnvironment();
    env.put("JAVA_TOOL_OPTIONS", "-Dy=1\n-Dy2=3");
    env.put("JDK_JAVA_OPTIONS", "-Dz=2\n-Dz2=1\n\n");
    LauncherHome.Call c = train(env);
    assertTrained(c);
    assertEquals("", c.err(), c.show());
  }

  @Test
  void aReadOnlyTargetWithANewerSourceIsOneErrorLine() throws IOException {
    Path source = h.home.resolve("cli/src/main/java/Newer.java");
    Files.createDirectories(source.getParent());
    Files.writeString(source, "class Newer {}\n");
    h.openToEveryone(h.home.resolve("cli/src"));
    Files.setPosixFilePermissions(h.target, PosixFilePermissions.fromString("r-xr-xr-x"));
    try {
      assertOneLauncherError(
          h.run(h.cwd, LauncherHome.plainEnvironment(), true, "train", "--data", "small.svm"),
          "is not writable");
    } finally {
      LauncherHome.removeTree(h.home.resolve("cli/src"));
    }
  }

  @Test
  void aReadOnlyTargetWithoutACacheRunsWithoutOneSilently() throws IOException {
    Files.delete(h.aot);
    Files.setPosixFilePermissions(h.target, PosixFilePermissions.fromString("r-xr-xr-x"));
    LauncherHome.Call c =
        h.run(h.cwd, LauncherHome.plainEnvironment(), true, "train", "--data", "small.svm");
    assertTrained(c);
    assertEquals("", c.err(), c.show());
  }

  @Test
  void anUnsetHomeIsNoError() {
    Map<String, String> env = LauncherHome.plainEnvironment();
    env.remove("HOME");
    LauncherHome.Call c = train(env);
    assertTrained(c);
    assertEquals("", c.err(), c.show());
  }
}
