package org.onlinekernels.cli.launcher;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.apache.commons.codec.digest.MurmurHash3;
import org.knowm.xchart.XYChart;
import org.onlinekernels.cli.Main;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * A copy of the project as the launcher sees it once built: {@code bin/online-kernels} (the
 * repository's), the library and command-line jars made from this build's classes, and the command
 * line's dependencies in {@code cli/target/cli-lib}; no sources, so the launcher never starts Maven
 * unless a test adds a newer source. Every file is readable by every user, so that a test can run
 * the launcher as an unprivileged user (a read-only {@code target/} means nothing to root, who runs
 * CI).
 */
final class LauncherHome implements AutoCloseable {
  /** Exit code, standard output and standard error of one launcher call. */
  record Call(int code, String out, String err) {
    /** The call's outcome in one line, for assertion messages. */
    String show() {
      return "exit " + code + "\n--- stdout:\n" + out + "--- stderr:\n" + err;
    }
  }

  final Path home;
  final Path target;
  final Path launcher;

  /** The cache and its checksum file as the launcher's first call made them. */
  final Path aot;

  final Path aotSum;

  /** The caller's directory: {@code small.svm}, four rows. */
  Path cwd;

  /** The first call, {@code train --data small.svm} without a {@code target/} directory. */
  Call first;

  private byte[] goodAot;
  private byte[] goodAotSum;

  private LauncherHome(Path home) {
    this.home = home;
    this.target = home.resolve("target");
    this.launcher = home.resolve("bin/online-kernels");
    this.aot = target.resolve("online-kernels.aot");
    this.aotSum = target.resolve("online-kernels.aot.cksum");
  }

  private static LauncherHome shared;

  /**
   * One copy for every launcher test of this JVM (making the start-up cache costs seconds), removed
   * at exit. Its first call is made here and kept in {@link #first}.
   */
  static synchronized LauncherHome shared() throws IOException {
    if (shared == null) {
      LauncherHome h = create();
      h.cwd = Files.createTempDirectory("launcher-cwd");
      Files.writeString(
          h.cwd.resolve("small.svm"), "+1 1:1 2:0.5\n-1 1:-1 3:0.25\n+1 2:1\n-1 3:-1\n");
      h.openToEveryone(h.cwd);
      h.first = h.run(h.cwd, plainEnvironment(), false, "train", "--data", "small.svm");
      if (Files.isRegularFile(h.aot) && Files.isRegularFile(h.aotSum)) {
        h.goodAot = Files.readAllBytes(h.aot);
        h.goodAotSum = Files.readAllBytes(h.aotSum);
      }
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    try {
                      h.close();
                      removeTree(h.cwd);
                    } catch (IOException e) {
                      // a temporary directory left behind
                    }
                  }));
      shared = h;
    }
    return shared;
  }

  /** The cache and its checksum as first made, target/ writable (a test's changes undone). */
  void restoreCache() throws IOException {
    if (goodAot == null) {
      throw new AssertionError("the launcher's first call made no start-up cache: " + first.show());
    }
    Files.createDirectories(target);
    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxrwxrwx"));
    if (Files.isDirectory(aot)) {
      removeTree(aot);
    }
    Files.write(aot, goodAot);
    Files.write(aotSum, goodAotSum);
    openToEveryone(target);
  }

  /** Whether the cache is there and matches its checksum file (POSIX cksum's output). */
  boolean cacheMatchesItsChecksum() throws IOException, InterruptedException {
    if (!Files.isRegularFile(aot) || !Files.isRegularFile(aotSum)) {
      return false;
    }
    Process p = new ProcessBuilder("cksum").redirectInput(aot.toFile()).start();
    String sum = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
    return p.waitFor() == 0 && sum.equals(Files.readString(aotSum, StandardCharsets.US_ASCII));
  }

  /** A fresh copy in a new temporary directory. */
  static LauncherHome create() throws IOException {
    Path home = Files.createTempDirectory("launcher-home");
    LauncherHome h = new LauncherHome(home);
    Path project =
        Path.of(System.getProperty("onlinekernels.home", "..")).toAbsolutePath().normalize();
    Files.createDirectories(home.resolve("bin"));
    Files.copy(project.resolve("bin/online-kernels"), h.launcher);
    jar(codeSource(LinearModel.class), home.resolve("library/target/online-kernels-T.jar"));
    jar(codeSource(Main.class), home.resolve("cli/target/online-kernels-cli-T.jar"));
    for (Class<?> dependency : List.of(MurmurHash3.class, XYChart.class)) {
      Path from = codeSource(dependency);
      Path lib = Files.createDirectories(home.resolve("cli/target/cli-lib"));
      Files.copy(from, lib.resolve(from.getFileName()));
    }
    h.openToEveryone(home);
    return h;
  }

  private static Path codeSource(Class<?> c) {
    try {
      return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code from} itself if it is a jar, else a jar of the directory's files. */
  private static void jar(Path from, Path to) throws IOException {
    Files.createDirectories(to.getParent());
    if (Files.isRegularFile(from)) {
      Files.copy(from, to);
      return;
    }
    try (OutputStream o = Files.newOutputStream(to);
        JarOutputStream j = new JarOutputStream(o);
        Stream<Path> files = Files.walk(from)) {
      for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
        j.putNextEntry(new JarEntry(from.relativize(f).toString().replace('\\', '/')));
        Files.copy(f, j);
        j.closeEntry();
      }
    }
  }

  /** Directories 0777 (0755 for the project's own), files readable; the launcher executable. */
  void openToEveryone(Path top) throws IOException {
    try (Stream<Path> s = Files.walk(top)) {
      for (Path p : s.toList()) {
        String perms =
            Files.isDirectory(p) ? "rwxrwxrwx" : p.equals(launcher) ? "rwxr-xr-x" : "rw-r--r--";
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(perms));
      }
    }
  }

  /** Whether this JVM runs as root (uid 0), for whom file permissions do not apply. */
  static boolean root() {
    return new com.sun.security.auth.module.UnixSystem().getUid() == 0;
  }

  /**
   * Runs the launcher from {@code cwd} with exactly the environment {@code env} (nothing
   * inherited), as an unprivileged user if {@code unprivileged} and this JVM runs as root.
   */
  Call run(Path cwd, Map<String, String> env, boolean unprivileged, String... args) {
    List<String> cmd = new ArrayList<>();
    if (unprivileged && root()) {
      // nobody (65534): a user for whom directory permissions hold.
      cmd.addAll(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"));
    }
    cmd.add(launcher.toString());
    cmd.addAll(List.of(args));
    return exec(cmd, cwd, env, 120);
  }

  /**
   * Runs {@code script} with {@code bash -c} in {@code cwd} with exactly {@code env}, as a user
   * types it at the top of this copy (e.g. the README's examples, which call {@code
   * bin/online-kernels}), for at most {@code seconds}.
   */
  Call shell(Path cwd, Map<String, String> env, String script, int seconds) {
    return exec(List.of("bash", "-c", script), cwd, env, seconds);
  }

  private static Call exec(List<String> cmd, Path cwd, Map<String, String> env, int seconds) {
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
    pb.environment().clear();
    pb.environment().putAll(env);
    try {
      Path out = Files.createTempFile("launcher", ".out");
      Path err = Files.createTempFile("launcher", ".err");
      try {
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
          p.descendants().forEach(ProcessHandle::destroyForcibly);
          p.destroyForcibly();
          throw new AssertionError(
              "the launcher ran for more than " + seconds + " s: " + cmd + " in " + env);
        }
        return new Call(
            p.exitValue(),
            Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8));
      } finally {
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The environment of a plain call: PATH, and JAVA_HOME naming this JVM's JDK 25. */
  static Map<String, String> plainEnvironment() {
    return new java.util.HashMap<>(
        Map.of(
            "PATH",
            System.getenv().getOrDefault("PATH", "/usr/bin:/bin"),
            "JAVA_HOME",
            System.getProperty("java.home"),
            "HOME",
            System.getProperty("java.io.tmpdir")));
  }

  @Override
  public void close() throws IOException {
    removeTree(home);
  }

  static void removeTree(Path top) throws IOException {
    if (!Files.exists(top, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> s = Files.walk(top)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
