package org.onlinekernels.cli;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.onlinekernels.data.RowBlock;

/**
 * How fast {@code train}'s input path parses text, without the learner (bench/job-vs-vw, issue
 * #35): the file read raw first (its read rate, from the page cache once warm), then parsed by
 * {@link StreamInput} on {@code P} parser threads into row blocks that are dropped. Prints, per
 * repetition, the wall rate and the rate per CPU second of the whole process (the parser threads,
 * the reader, gzip and the GC: a rate per parser thread that charges it everything) and per CPU
 * second of the parser threads alone (their own rate).
 *
 * <p>Usage: {@code ParseRate FILE [vw|libsvm] [P] [REPEATS] [BITS]}; VW text is hashed unsigned
 * into {@code 2^BITS} weights (default 22), as the benchmark's runs.
 */
public final class ParseRate {
  private ParseRate() {}

  /**
   * The CPU time of the feed's parser threads ({@code online-kernels-parser-*}), sampled after each
   * block: a thread's time after its last sample (the last chunks in flight, a few of the file's
   * hundreds) is not counted, so the rate per parser-thread CPU second is high by that share.
   */
  private static final class ParserCpu {
    private final ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    private final Map<Long, Long> last = new HashMap<>();
    private long[] ids;

    void sample() {
      if (ids == null) {
        ids =
            Arrays.stream(bean.getThreadInfo(bean.getAllThreadIds()))
                .filter(t -> t != null && t.getThreadName().startsWith("online-kernels-parser-"))
                .mapToLong(ThreadInfo::getThreadId)
                .toArray();
      }
      for (long id : ids) {
        long t = bean.getThreadCpuTime(id);
        if (t > 0) {
          last.merge(id, t, Math::max);
        }
      }
    }

    double seconds() {
      return last.values().stream().mapToLong(Long::longValue).sum() / 1e9;
    }
  }

  /** Runs the measurement and prints one line per repetition. */
  public static void main(String[] args) throws Exception {
    Path file = Path.of(args[0]);
    boolean vw = args.length <= 1 || args[1].equals("vw");
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 1;
    int repeats = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    int bits = args.length > 4 ? Integer.parseInt(args[4]) : 22;
    double mb = Files.size(file) / 1e6;
    InputFormat format = new InputFormat(vw ? "vw" : "libsvm", bits, false, Namespaces.NONE);
    var os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    for (int r = 0; r < repeats; r++) {
      long t0 = System.nanoTime();
      long sink = 0;
      try (var in = Files.newInputStream(file)) {
        byte[] buf = new byte[1 << 20];
        for (int n; (n = in.read(buf)) > 0; ) {
          sink += buf[n - 1];
        }
      }
      double readSeconds = (System.nanoTime() - t0) / 1e9;
      long c0 = os.getProcessCpuTime();
      long t1 = System.nanoTime();
      long rows = 0;
      ParserCpu parsers = new ParserCpu();
      try (StreamInput feed =
          StreamInput.open(
              file,
              vw,
              format,
              vw ? bits : 0,
              TrainCommand.inputLimits(org.onlinekernels.kernel.ElementType.FLOAT, false, 0),
              null,
              threads)) {
        RowBlock b = new RowBlock();
        while (feed.next(b)) {
          rows += b.size();
          parsers.sample();
        }
      }
      double wall = (System.nanoTime() - t1) / 1e9;
      double cpu = (os.getProcessCpuTime() - c0) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "%s parser-threads=%d rows=%d: read %.0f MB/s; parse %.1f MB/s wall (%.2f s),"
              + " %.1f MB per CPU second (%.2f CPU s); %.1f MB per parser-thread CPU second%s%n",
          file.getFileName(),
          threads,
          rows,
          mb / readSeconds,
          mb / wall,
          wall,
          mb / cpu,
          cpu,
          mb / parsers.seconds(),
          sink == 42 ? " " : "");
    }
  }
}
