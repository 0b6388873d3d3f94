package org.onlinekernels.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * A Spark standalone cluster run by the documented tool {@code spark/bin/standalone-cluster} (a
 * master and workers, child processes of their own, on 127.0.0.1), stopped by {@link #close}, by
 * this JVM's shutdown, or, if this JVM is killed, by the tool's watchdog ({@code --owner}). Jobs
 * are submitted through Spark's own submit entry point ({@code SparkSubmit}) with our jars.
 */
final class StandaloneCluster implements AutoCloseable {
  private static final long MINUTES = 15;
  private final Path dir;
  private final Thread hook;
  final String url;

  /** What a process said and how it ended. */
  record Outcome(int code, String out) {}

  private StandaloneCluster(Path dir, String url, Thread hook) {
    this.dir = dir;
    this.url = url;
    this.hook = hook;
  }

  /** Starts a master and {@code workers} workers of one core each, in {@code dir}. */
  static StandaloneCluster start(Path dir, int workers) throws Exception {
    Thread hook = new Thread(() -> stop(dir));
    Runtime.getRuntime().addShutdownHook(hook);
    Outcome o =
        tool(
            dir,
            null,
            "start",
            "--dir",
            dir.toString(),
            "--workers",
            Integer.toString(workers),
            "--cores",
            "1",
            "--memory",
            "1500m",
            "--owner",
            Long.toString(ProcessHandle.current().pid()));
    if (o.code() != 0) {
      stop(dir);
      Runtime.getRuntime().removeShutdownHook(hook);
      throw new AssertionError("the cluster did not start: " + o.out() + logs(dir));
    }
    return new StandaloneCluster(dir, o.out().strip().lines().reduce((a, b) -> b).orElse(""), hook);
  }

  /**
   * Submits {@code mainClass} of our Spark jar with {@code args} (client mode: the driver is the
   * submitting process); {@code during} runs every half second while the job runs, with the
   * submitting process.
   */
  Outcome submit(Path jars, String mainClass, List<String> args, ProcessWatch during)
      throws Exception {
    List<String> a = new ArrayList<>();
    a.addAll(
        List.of(
            "submit",
            "--dir",
            dir.toString(),
            "--class",
            mainClass,
            "--jars",
            jars.resolve("online-kernels.jar").toString(),
            "--conf",
            "spark.executor.memory=1g",
            jars.resolve("online-kernels-spark.jar").toString()));
    a.addAll(args);
    return tool(dir, during, a.toArray(String[]::new));
  }

  /** The cluster's own processes: the master and the workers. */
  Set<Long> daemons() throws IOException {
    Set<Long> pids = new HashSet<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".pid")).toList()) {
        if (!f.getFileName().toString().startsWith("watchdog")) {
          pids.add(Long.parseLong(Files.readString(f).strip()));
        }
      }
    }
    return pids;
  }

  /** The processes the workers started now: the executors. */
  Set<Long> executors() throws IOException {
    Set<Long> pids = new HashSet<>();
    for (long d : daemons()) {
      ProcessHandle.of(d).ifPresent(h -> h.descendants().forEach(c -> pids.add(c.pid())));
    }
    return pids;
  }

  /** Application folders the executors of worker {@code w} (1, 2, ...) were started in. */
  List<Path> applications(int w) throws IOException {
    try (Stream<Path> apps = Files.list(dir.resolve("work-" + w))) {
      return apps.filter(p -> p.getFileName().toString().startsWith("app-")).toList();
    }
  }

  @Override
  public void close() {
    stop(dir);
    Runtime.getRuntime().removeShutdownHook(hook);
  }

  private static void stop(Path dir) {
    try {
      tool(dir, null, "stop", "--dir", dir.toString());
    } catch (Exception e) {
      throw new IllegalStateException("could not stop the cluster in " + dir, e);
    }
  }

  /** Something to do while a submitted job runs. */
  interface ProcessWatch {
    void look(ProcessHandle submit) throws IOException;
  }

  /** Runs the tool with {@code args}; its output (stdout and stderr) in one string. */
  private static Outcome tool(Path dir, ProcessWatch during, String... args) throws Exception {
    Path script = Path.of(System.getProperty("basedir", "."), "bin", "standalone-cluster");
    List<String> cmd = new ArrayList<>(List.of("bash", script.toString()));
    cmd.addAll(List.of(args));
    Files.createDirectories(dir);
    Path log = Files.createTempFile(dir, "tool-", ".log");
    ProcessBuilder pb =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    // The test's jobs are small: the driver only schedules and merges, and the executors train
    // a few partitions each, so C2 compiling Spark's code costs them more CPU than it saves (C1
    // and one collector thread everywhere). The test proves the cluster's jobs give local[2]'s
    // bits, which Java's exact arithmetic makes hold on either compiler; the kernels' bits on C2
    // are the library's and property-tests' to prove.
    pb.environment()
        .put("STANDALONE_DRIVER_OPTS", "-Xmx1g -XX:+UseSerialGC -XX:TieredStopAtLevel=1");
    pb.environment().put("STANDALONE_EXECUTOR_OPTS", "-XX:+UseSerialGC -XX:TieredStopAtLevel=1");
    Process p = pb.start();
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(MINUTES);
    while (!p.waitFor(500, TimeUnit.MILLISECONDS)) {
      if (System.nanoTime() > deadline) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        throw new AssertionError(
            "standalone-cluster "
                + args[0]
                + " ran "
                + MINUTES
                + " minutes: "
                + Files.readString(log));
      }
      if (during != null) {
        during.look(p.toHandle());
      }
    }
    return new Outcome(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
  }

  /** The tail of the cluster's logs, for a failure's message. */
  static String logs(Path dir) {
    StringBuilder sb = new StringBuilder();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f :
          files.filter(p -> p.toString().endsWith(".log") || p.endsWith("stderr")).toList()) {
        List<String> lines = Files.readAllLines(f);
        sb.append("\n--- ").append(f).append('\n');
        lines
            .subList(Math.max(0, lines.size() - 15), lines.size())
            .forEach(l -> sb.append(l).append('\n'));
      }
    } catch (IOException e) {
      sb.append(e);
    }
    return sb.toString();
  }

  /**
   * Our two jars in {@code dir}: {@code online-kernels.jar} (the library) and {@code
   * online-kernels-spark.jar}, packed from the classes the tests run (what {@code mvn package} puts
   * in them) or copied where they already are jars.
   */
  static Path jars(Path dir) throws IOException {
    Files.createDirectories(dir);
    pack(
        codeOf(org.onlinekernels.trainer.model.LinearModel.class),
        dir.resolve("online-kernels.jar"));
    pack(codeOf(SparkTrain.class), dir.resolve("online-kernels-spark.jar"));
    return dir;
  }

  private static Path codeOf(Class<?> c) {
    try {
      return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void pack(Path classes, Path jar) throws IOException {
    if (Files.isRegularFile(classes)) {
      Files.copy(classes, jar);
      return;
    }
    try (OutputStream os = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(os);
        Stream<Path> files = Files.walk(classes)) {
      for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
        out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
        Files.copy(f, out);
        out.closeEntry();
      }
    }
    assertEquals(true, Files.size(jar) > 0);
  }
}
