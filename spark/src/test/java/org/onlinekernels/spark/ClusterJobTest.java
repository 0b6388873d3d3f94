package org.onlinekernels.spark;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.onlinekernels.spark.SparkTestSession.data;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jobs on a real Spark standalone cluster (a master and two workers of one core each, started
 * from the Maven jars by {@code spark/bin/standalone-cluster}, on 127.0.0.1), submitted through
 * Spark's own {@code SparkSubmit} with our jars: the training job (austen_lines' first 6,000 rows,
 * ScInOL2, 6 classes, 2 partitions, three rounds of 2,000 examples) and the streaming trainer on a
 * directory of LIBSVM files (heart_scale in three files, one micro-batch each) write model files
 * equal byte for byte to the same jobs' in {@code local[2]}; both workers ran executors of each
 * job; and no process of the cluster or of the jobs, driver and executors included, listens beyond
 * the loopback address.
 */
@Tag("long")
class ClusterJobTest {
  private static final int AUSTEN_D = 12549;

  /**
   * The batch job's share of austen_lines: its first rows (all 6 classes, checked), spread over
   * both partitions and merged in three rounds of {@link #MERGE_EVERY} examples. What the test
   * proves does not grow with the rows; the executors' and the local run's work does.
   */
  private static final int TRAIN_ROWS = 6000;

  /** Examples between the batch job's merges: three rounds over {@link #TRAIN_ROWS}. */
  private static final int MERGE_EVERY = 2000;

  /** Rows of austen_lines' test file the batch job scores (all 6 classes, checked). */
  private static final int TEST_ROWS = 3000;

  /** The jobs' model in {@code local[2]}: the entry point's {@code run} on the shared session. */
  private static void local(Path model, String... args) throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    int code =
        JobFailure.run(
            () -> {
              if (args[0].equals("stream")) {
                String[] a = java.util.Arrays.copyOfRange(args, 1, args.length);
                SparkStream.run(SparkTestSession.get(), SparkStream.options(a), out);
              } else {
                SparkTrain.run(SparkTestSession.get(), SparkTrain.options(args), out);
              }
            },
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
    assertTrue(Files.isRegularFile(model), model + " was not written");
  }

  @Test
  void submittedJobsWriteTheModelsOfLocalTwoOnLoopbackOnly(@TempDir Path tmp) throws Exception {
    Assumptions.assumeTrue(Listeners.available(), "needs Linux's /proc/net/tcp");
    Path jars = StandaloneCluster.jars(tmp.resolve("jars"));
    String train = head("austen_lines.train.svm", TRAIN_ROWS, tmp).toString();
    String test = head("austen_lines.test.svm", TEST_ROWS, tmp).toString();
    List<String> batch =
        List.of(
            "--train",
            train,
            "--test",
            test,
            "--num-features",
            Integer.toString(AUSTEN_D),
            "--partitions",
            "2",
            "--merge-every",
            Integer.toString(MERGE_EVERY),
            "--algorithm",
            "scinol2");
    Path in = streamFolder(tmp.resolve("in"));
    List<String> stream =
        List.of(
            "--input",
            in.toString(),
            "--num-features",
            "13",
            "--algorithm",
            "adagrad",
            "--merge-every",
            "40",
            "--partitions",
            "2");

    Path clusterModel = tmp.resolve("cluster.model");
    Path clusterState = tmp.resolve("cluster-state");
    Map<String, Set<String>> heard = new TreeMap<>();
    try (StandaloneCluster cluster = StandaloneCluster.start(tmp.resolve("cluster"), 2)) {
      listening(cluster.daemons(), "master and workers", heard);
      StandaloneCluster.Outcome b =
          cluster.submit(
              jars,
              "org.onlinekernels.spark.SparkTrain",
              concat(batch, "--model", clusterModel.toString()),
              submit -> watch(cluster, submit, heard));
      assertEquals(0, b.code(), b.out() + StandaloneCluster.logs(tmp.resolve("cluster")));
      assertTrue(b.out().contains("model written to"), b.out());
      StandaloneCluster.Outcome s =
          cluster.submit(
              jars,
              "org.onlinekernels.spark.SparkStream",
              concat(
                  stream,
                  "--state",
                  clusterState.toString(),
                  "--checkpoint",
                  tmp.resolve("cluster-checkpoint").toString()),
              submit -> watch(cluster, submit, heard));
      assertEquals(0, s.code(), s.out() + StandaloneCluster.logs(tmp.resolve("cluster")));
      assertTrue(s.out().contains("batches 0 to 2 trained"), s.out());
      for (int w = 1; w <= 2; w++) {
        assertEquals(
            2, cluster.applications(w).size(), "worker " + w + " ran an executor of each job");
      }
    }

    // The same jobs in local[2], on this JVM's session.
    Path localModel = tmp.resolve("local.model");
    local(localModel, concat(batch, "--model", localModel.toString()).toArray(String[]::new));
    Path localState = tmp.resolve("local-state");
    List<String> localStream =
        concat(
            stream,
            "--state",
            localState.toString(),
            "--checkpoint",
            tmp.resolve("local-checkpoint").toString());
    localStream.add(0, "stream");
    local(localState.resolve(StreamState.MODEL), localStream.toArray(String[]::new));
    listening(Set.of(ProcessHandle.current().pid()), "local[2] session", heard);

    assertAll(
        () ->
            assertEquals(
                -1,
                Files.mismatch(localModel, clusterModel),
                "batch model: cluster against local[2]"),
        () ->
            assertEquals(
                -1,
                Files.mismatch(
                    localState.resolve(StreamState.MODEL), clusterState.resolve(StreamState.MODEL)),
                "streaming model: cluster against local[2]"),
        // What listened, and where: master, workers, driver, executors, the local session.
        () ->
            assertEquals(
                Set.of("driver", "executor", "local[2] session", "master and workers"),
                heard.keySet(),
                "processes seen listening: " + heard),
        () -> {
          for (Map.Entry<String, Set<String>> e : heard.entrySet()) {
            for (String address : e.getValue()) {
              assertTrue(
                  Listeners.loopback(address),
                  e.getKey() + " listens on " + address + " (/proc/net/tcp form): " + heard);
            }
          }
        });
  }

  /**
   * The first {@code rows} lines of data file {@code name}, as a file of {@code dir}; fails unless
   * they hold all 6 classes of austen_lines.
   */
  private static Path head(String name, int rows, Path dir) throws Exception {
    List<String> lines = Files.readAllLines(data(name)).subList(0, rows);
    Set<String> classes = new TreeSet<>();
    lines.forEach(l -> classes.add(l.split(" ", 2)[0]));
    assertEquals(Set.of("0", "1", "2", "3", "4", "5"), classes, name + ": classes of its head");
    Path f = dir.resolve(name);
    Files.write(f, lines);
    return f.toAbsolutePath();
  }

  /** heart_scale in three LIBSVM files of 90 rows, dated a minute apart (the source's order). */
  private static Path streamFolder(Path in) throws Exception {
    Files.createDirectories(in);
    List<String> rows = Files.readAllLines(data("heart_scale.svm"));
    for (int k = 0; k < 3; k++) {
      Path f = in.resolve("batch-" + k + ".svm");
      Files.write(f, rows.subList(90 * k, 90 * k + 90));
      Files.setLastModifiedTime(f, FileTime.fromMillis(1_000_000_000_000L + 60_000L * k));
    }
    return in;
  }

  /**
   * Records the listening addresses of the driver (the submitting JVM) and the cluster's processes.
   */
  private static void watch(
      StandaloneCluster cluster, ProcessHandle submit, Map<String, Set<String>> heard)
      throws java.io.IOException {
    Set<Long> driver = new HashSet<>();
    submit.descendants().forEach(h -> driver.add(h.pid()));
    listening(driver, "driver", heard);
    listening(cluster.executors(), "executor", heard);
  }

  private static void listening(Set<Long> pids, String who, Map<String, Set<String>> heard)
      throws java.io.IOException {
    for (List<String> addresses : Listeners.of(pids).values()) {
      if (!addresses.isEmpty()) {
        heard.computeIfAbsent(who, k -> new HashSet<>()).addAll(addresses);
      }
    }
  }

  private static List<String> concat(List<String> a, String... b) {
    List<String> r = new ArrayList<>(a);
    r.addAll(List.of(b));
    return r;
  }
}
