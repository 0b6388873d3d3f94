package org.onlinekernels.bench.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The memory-page policy both sides of the C comparison run under, so that neither gets huge pages
 * the other lacks: where Linux offers transparent huge pages ({@code always}, or {@code madvise} as
 * on our machines), the forked JVMs ask for them as {@code bin/online-kernels} does ({@code
 * -XX:+UseTransparentHugePages}) and the C contender as well ({@code --hugepages}); where it offers
 * none, neither asks. Huge pages cut the page-table walks of sparse rows over a large model.
 */
public final class PagePolicy {
  private static final Path THP = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");

  private PagePolicy() {}

  /** Whether this machine offers transparent huge pages to a process that asks. */
  public static boolean hugePages() {
    try {
      String mode = Files.readString(THP);
      return mode.contains("[always]") || mode.contains("[madvise]");
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** The JVM options of the policy (none without huge pages). */
  public static List<String> jvmOptions() {
    return hugePages() ? List.of("-XX:+UseTransparentHugePages") : List.of();
  }

  /** The C contender's arguments of the policy (none without huge pages). */
  public static List<String> contenderOptions() {
    return hugePages() ? List.of("--hugepages") : List.of();
  }

  /** How the report names the policy. */
  public static String describe() {
    return hugePages()
        ? "transparent huge pages asked for on both sides (JVM -XX:+UseTransparentHugePages, C"
            + " --hugepages)"
        : "no huge pages (the machine offers none)";
  }
}
