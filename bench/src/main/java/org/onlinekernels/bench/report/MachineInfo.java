package org.onlinekernels.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import jdk.incubator.vector.VectorShape;

/** Reads what the report header states about the machine, at run time (never hard-coded). */
public final class MachineInfo {
  private MachineInfo() {}

  /** Machine, JDK and load, read now. */
  public static Map<String, String> collect() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("cpu.model", cpuinfo("model name"));
    m.put("cpu.flags.avx512f", Boolean.toString(cpuinfo("flags").contains("avx512f")));
    m.put("cpu.cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
    m.put("cpu.caches", caches());
    m.put("memory", meminfo());
    m.put("vector.bits", Integer.toString(VectorShape.preferredShape().vectorBitSize()));
    m.put(
        "jdk",
        System.getProperty("java.vm.name")
            + " "
            + System.getProperty("java.runtime.version")
            + " ("
            + System.getProperty("java.vendor")
            + ")");
    m.put(
        "os",
        System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " "
            + System.getProperty("os.arch"));
    m.put(
        "jmh.version",
        org.openjdk.jmh.util.Utils.class.getPackage().getImplementationVersion() == null
            ? "1.37"
            : org.openjdk.jmh.util.Utils.class.getPackage().getImplementationVersion());
    m.put("loadavg", read(Path.of("/proc/loadavg")).trim());
    return m;
  }

  /** What a run records first: {@link #collect()}, the profile's name and the date. */
  public static Properties runProperties(String profile) {
    Properties p = new Properties();
    p.putAll(collect());
    p.setProperty("profile", profile);
    p.setProperty("date", ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
    return p;
  }

  /** {@code m:ss} since {@code start} ({@link System#nanoTime}), for a run's progress lines. */
  public static String elapsed(long start) {
    long s = (System.nanoTime() - start) / 1_000_000_000L;
    return String.format("%d:%02d", s / 60, s % 60);
  }

  private static String cpuinfo(String key) {
    for (String line : read(Path.of("/proc/cpuinfo")).split("\n")) {
      if (line.startsWith(key)) return line.substring(line.indexOf(':') + 1).trim();
    }
    return "unknown";
  }

  private static String meminfo() {
    for (String line : read(Path.of("/proc/meminfo")).split("\n")) {
      if (line.startsWith("MemTotal")) {
        long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
        return String.format("%.1f GiB", kb / 1048576.0);
      }
    }
    return "unknown";
  }

  /** L1d, L2, L3 sizes of cpu0 from sysfs, with how many CPUs share each. */
  private static String caches() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      Path dir = Path.of("/sys/devices/system/cpu/cpu0/cache/index" + i);
      if (!Files.isDirectory(dir)) break;
      String type = read(dir.resolve("type")).trim();
      if (type.equals("Instruction")) continue;
      String level = read(dir.resolve("level")).trim();
      String size = read(dir.resolve("size")).trim();
      String shared = read(dir.resolve("shared_cpu_list")).trim();
      if (sb.length() > 0) sb.append(", ");
      sb.append("L")
          .append(level)
          .append(' ')
          .append(size)
          .append(" (CPUs ")
          .append(shared)
          .append(')');
    }
    return sb.length() == 0 ? "unknown" : sb.toString();
  }

  private static String read(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  /**
   * The machine rows that open a report: date, CPU, caches, memory, vector width (then {@code
   * vectorNote}), the label/value pairs {@code extra}, JDK, OS and JMH.
   */
  public static void table(StringBuilder md, Properties p, String vectorNote, String... extra) {
    md.append("| | |\n|---|---|\n");
    Md.row(md, "date", p.getProperty("date"));
    Md.row(
        md,
        "CPU",
        p.getProperty("cpu.model")
            + ", "
            + p.getProperty("cpu.cores")
            + " cores visible to the JVM, AVX-512F: "
            + p.getProperty("cpu.flags.avx512f"));
    Md.row(md, "caches (per cpu0)", p.getProperty("cpu.caches"));
    Md.row(md, "memory", p.getProperty("memory"));
    Md.row(
        md,
        "vector width",
        p.getProperty("vector.bits") + " bits preferred by the Vector API" + vectorNote);
    for (int i = 0; i < extra.length; i += 2) Md.row(md, extra[i], extra[i + 1]);
    Md.row(md, "JDK", p.getProperty("jdk"));
    Md.row(md, "OS", p.getProperty("os"));
    Md.row(md, "JMH", p.getProperty("jmh.version") + "; " + p.getProperty("jmh.settings"));
  }
}
