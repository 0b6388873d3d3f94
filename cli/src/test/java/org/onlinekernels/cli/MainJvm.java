package org.onlinekernels.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command that runs the command line ({@link Main}) in a JVM of its own, as the tests' own JVM
 * runs it (its {@code java}, its class path, the Vector API module): for tests of what only a
 * separate process shows (a small heap, a signal, an exit code).
 */
final class MainJvm {
  private MainJvm() {}

  /** {@code java <jvmOptions> ... Main <args>}. */
  static List<String> command(List<String> jvmOptions, String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.addAll(
        List.of(
            "--add-modules",
            "jdk.incubator.vector",
            "-cp",
            System.getProperty("java.class.path"),
            Main.class.getName()));
    cmd.addAll(List.of(args));
    return cmd;
  }
}
