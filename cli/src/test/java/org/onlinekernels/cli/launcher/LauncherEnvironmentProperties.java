package org.onlinekernels.cli.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import org.onlinekernels.testsupport.FuzzTries;

/**
 * Issue 26, the launcher's environment generated: JVM options in {@code ONLINE_KERNELS_JAVA_OPTS},
 * {@code JAVA_TOOL_OPTIONS} and {@code JDK_JAVA_OPTIONS} (accepted ones, refused ones, glob and
 * shell characters, odd white space, options with their own class-data sharing), locales, an unset
 * or odd {@code HOME}, {@code ONLINE_KERNELS_AOT} and {@code ONLINE_KERNELS_JVM_WARNINGS} values,
 * the start-up cache intact, missing, damaged at any offset (modification time refreshed or kept),
 * truncated, replaced by a directory or with a wrong checksum file, {@code target/} writable or
 * not, and callers' directories with spaces and non-ASCII names.
 *
 * <p>The property: {@code train} on a small file either reports exactly what a plain call reports
 * (the throughput line aside), with nothing on stderr but the launcher's one line about making the
 * cache and, with {@code ONLINE_KERNELS_JVM_WARNINGS=1}, the JVM's notes, and leaves a cache that
 * matches its checksum wherever it may write; or, exactly when a refused option was generated,
 * exits with code 4 and one {@code error:} line. Never a crash report. Tries: {@code jqwik.tries} /
 * 40 (each is a process start, some make the cache again).
 */
@Tag("long")
class LauncherEnvironmentProperties {
  private static final String[] LOCALES = {
    "C",
    "POSIX",
    "C.UTF-8",
    "en_US.UTF-8",
    "tr_TR.UTF-8",
    "de_DE.UTF-8",
    "ja_JP.eucJP",
    "xx_YY.nonsense"
  };

  /** A JVM option the JVM accepts; {@code plain} for the variables that parse quotes themselves. */
  static String accepted(Random rnd, boolean plain) {
    return switch (rnd.nextInt(9)) {
      case 0 -> "-Xmx" + (64 + rnd.nextInt(449)) + "m";
      case 1 -> "-Xms" + (8 + rnd.nextInt(56)) + "m";
      case 2 -> "-Xss" + (256 + rnd.nextInt(1793)) + "k";
      case 3 ->
          "-XX:"
              + List.of(
                      "+UseSerialGC", "+UseParallelGC", "TieredStopAtLevel=1", "-UseCompressedOops")
                  .get(rnd.nextInt(4));
      case 4 -> List.of("-ea", "-esa", "-da", "-Xshare:off", "-Xshare:auto").get(rnd.nextInt(5));
      case 5 ->
          "-Duser.language=" + List.of("tr", "de", "ar", "hi", "th", "ja").get(rnd.nextInt(6));
      default -> "-Dfz." + word(rnd, 1 + rnd.nextInt(6)) + "=" + value(rnd, plain);
    };
  }

  /** A JVM option the JVM refuses. */
  static String refused(Random rnd) {
    // (Not a tiny -Xmx or -Xss: a later option may override it. LauncherTest has them.)
    return switch (rnd.nextInt(3)) {
      case 0 -> "--" + word(rnd, 3 + rnd.nextInt(8));
      case 1 -> "-XX:Fz" + word(rnd, 1 + rnd.nextInt(8)) + "=1";
      default -> "-XX:MaxRAMPercentage=" + word(rnd, 1 + rnd.nextInt(5));
    };
  }

  static String word(Random rnd, int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append((char) ('a' + rnd.nextInt(26)));
    }
    return b.toString();
  }

  /** A property value without white space; shell and glob characters unless {@code plain}. */
  static String value(Random rnd, boolean plain) {
    String pool = plain ? "abcXYZ019._-/:,é中" : "abc019*?[]{}~!#$&;()<>|'\"\\`é中";
    StringBuilder b = new StringBuilder();
    for (int n = rnd.nextInt(8); n > 0; n--) {
      b.append(pool.charAt(rnd.nextInt(pool.length())));
    }
    return b.toString();
  }

  /** Tokens joined by odd white space; returns whether any of them is refused. */
  static boolean options(Random rnd, String variable, Map<String, String> env) {
    boolean plain = !variable.equals("ONLINE_KERNELS_JAVA_OPTS");
    String[] spaces = {" ", "  ", "\t", "\n", " \t "};
    StringBuilder b =
        new StringBuilder(rnd.nextBoolean() ? "" : spaces[rnd.nextInt(spaces.length)]);
    boolean refused = false;
    for (int n = rnd.nextInt(4); n > 0; n--) {
      boolean bad = rnd.nextInt(8) == 0;
      refused |= bad;
      b.append(bad ? refused(rnd) : accepted(rnd, plain));
      b.append(n > 1 || rnd.nextBoolean() ? spaces[rnd.nextInt(spaces.length)] : "");
    }
    env.put(variable, b.toString());
    return refused;
  }

  /** Damages, removes or replaces the cache; returns whether it is still intact. */
  static boolean cache(Random rnd, LauncherHome h) throws IOException {
    switch (rnd.nextInt(10)) {
      case 0 -> Files.delete(h.aot);
      case 1 -> Files.writeString(h.aotSum, rnd.nextBoolean() ? "" : rnd.nextInt() + " 12\n");
      case 2 -> { // a few bytes anywhere, the modification time refreshed or kept
        FileTime before = Files.getLastModifiedTime(h.aot);
        long size = Files.size(h.aot);
        try (RandomAccessFile f = new RandomAccessFile(h.aot.toFile(), "rw")) {
          f.seek((long) (rnd.nextDouble() * (size - 8)));
          byte[] b = new byte[1 + rnd.nextInt(8)];
          rnd.nextBytes(b);
          b[0] ^= (byte) (1 + rnd.nextInt(255)); // at least one byte changed
          f.write(b);
        }
        Files.setLastModifiedTime(
            h.aot, rnd.nextBoolean() ? before : FileTime.fromMillis(System.currentTimeMillis()));
      }
      case 3 -> {
        try (RandomAccessFile f = new RandomAccessFile(h.aot.toFile(), "rw")) {
          f.setLength((long) (rnd.nextDouble() * f.length()));
        }
      }
      case 4 -> {
        Files.delete(h.aot);
        Files.createDirectories(h.aot.resolve("inside"));
      }
      default -> {
        return true;
      }
    }
    return false;
  }

  private static final List<String> STDERR_NOTES =
      List.of(
          "WARNING: Using incubator modules: jdk.incubator.vector",
          "Picked up JAVA_TOOL_OPTIONS: ",
          "NOTE: Picked up JDK_JAVA_OPTIONS: ");

  private static String report(String out) {
    return String.join("\n", out.lines().filter(l -> !l.startsWith("throughput: ")).toList());
  }

  /**
   * The call without bash's own warnings about a locale that is not installed: bash prints them
   * before the launcher's first line, as it does for every script.
   */
  private static LauncherHome.Call withoutShellLocaleWarnings(LauncherHome.Call c) {
    String err =
        String.join(
            "",
            c.err()
                .lines()
                .filter(l -> !l.matches("(.*: )?warning: setlocale: .*"))
                .map(l -> l + "\n")
                .toList());
    return new LauncherHome.Call(c.code(), c.out(), err);
  }

  @Property
  @FuzzTries(divisor = 40)
  void everyEnvironmentTrainsAsAPlainCallOrIsOneErrorLine(@ForAll long seed) throws Exception {
    Random rnd = new Random(seed);
    LauncherHome h = LauncherHome.shared();
    LauncherTest.assertTrained(h.first);
    h.restoreCache();
    Map<String, String> env = LauncherHome.plainEnvironment();
    boolean refused = false;
    for (String v : List.of("ONLINE_KERNELS_JAVA_OPTS", "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS")) {
      if (rnd.nextInt(3) == 0) {
        refused |= options(rnd, v, env);
      }
    }
    if (rnd.nextBoolean()) {
      env.put(rnd.nextBoolean() ? "LANG" : "LC_ALL", LOCALES[rnd.nextInt(LOCALES.length)]);
    }
    switch (rnd.nextInt(4)) {
      case 0 -> env.remove("HOME");
      case 1 -> env.put("HOME", rnd.nextBoolean() ? "" : "/nonexistent/" + word(rnd, 4));
      default -> {}
    }
    boolean aotOff = false;
    if (rnd.nextInt(4) == 0) {
      String aot = List.of("0", "1", "", "yes", word(rnd, 3)).get(rnd.nextInt(5));
      env.put("ONLINE_KERNELS_AOT", aot);
      aotOff = aot.equals("0");
    }
    boolean notes = false;
    if (rnd.nextInt(4) == 0) {
      String w = List.of("0", "1", "", "true").get(rnd.nextInt(4));
      env.put("ONLINE_KERNELS_JVM_WARNINGS", w);
      notes = w.equals("1");
    }
    boolean intact = cache(rnd, h);
    // A read-only target/ (for an unprivileged user) in five of six damaged cases: the
    // launcher must then run without the cache, not make it (which costs seconds).
    boolean readOnly = intact ? rnd.nextInt(4) == 0 : rnd.nextInt(6) > 0;
    if (readOnly) {
      Files.setPosixFilePermissions(h.target, PosixFilePermissions.fromString("r-xr-xr-x"));
    }
    Path cwd =
        Files.createTempDirectory(
            h.cwd.getParent(),
            List.of("plain", "with space", "caf\u00e9 \u4e2d", "-dash", "q'uote\"")
                .get(rnd.nextInt(5)));
    try {
      Files.copy(h.cwd.resolve("small.svm"), cwd.resolve("small.svm"));
      h.openToEveryone(cwd);
      LauncherHome.Call c =
          withoutShellLocaleWarnings(h.run(cwd, env, readOnly, "train", "--data", "small.svm"));
      String where =
          "environment "
              + env
              + ", cache intact "
              + intact
              + ", target read-only "
              + readOnly
              + ", in '"
              + cwd.getFileName()
              + "':\n"
              + c.show();
      try (Stream<Path> s = Files.list(cwd)) {
        assertTrue(
            s.noneMatch(p -> p.getFileName().toString().startsWith("hs_err")),
            "the JVM crashed; " + where);
      }
      if (refused) {
        assertEquals(4, c.code(), where);
        assertTrue(
            c.out().isEmpty()
                && c.err().startsWith("error: the JVM refuses the options of ")
                && c.err().lines().count() == 1,
            where);
        return;
      }
      assertEquals(0, c.code(), where);
      assertEquals(report(h.first.out()), report(c.out()), where);
      List<String> unexpected = new ArrayList<>();
      int cacheLines = 0;
      for (String line : c.err().lines().toList()) {
        if (line.startsWith("online-kernels: making the start-up cache (") && cacheLines++ == 0) {
          continue;
        }
        if (!(notes && STDERR_NOTES.stream().anyMatch(line::startsWith))) {
          unexpected.add(line);
        }
      }
      assertEquals(List.of(), unexpected, "unexpected stderr; " + where);
      boolean ownCds =
          String.valueOf(env).matches("(?s).*(-Xshare:|-XX:[+-]?(SharedArchiveFile|AOT)).*");
      if (!readOnly && !aotOff && !ownCds) {
        assertTrue(h.cacheMatchesItsChecksum(), "no intact cache left; " + where);
      }
    } finally {
      Files.setPosixFilePermissions(h.target, PosixFilePermissions.fromString("rwxrwxrwx"));
      LauncherHome.removeTree(cwd);
    }
  }
}
