package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} with several clients, clients that leave mid-line, a real SIGTERM, and the errors
 * of its options: port in use, missing model, wrong state.
 */
class ServeClientsTest {
  @TempDir Path dir;

  private Path state(StreamFiles.Parts p) {
    Path initial = dir.resolve("a.okst");
    CliRun t = CliRun.line("train --data " + p.a() + " --save-state " + initial);
    assertEquals(0, t.code(), t.err());
    return initial;
  }

  @Test
  void fourConcurrentLearningClientsAreAllAnswered() throws Exception {
    StreamFiles.Parts p = StreamFiles.libsvm(dir, "c", 50, 200, 15, 0, 4);
    Path initial = state(p);
    Path served = dir.resolve("served.okst");
    List<String> b = Files.readAllLines(p.b());
    ExecutorService clients = Executors.newFixedThreadPool(4);
    try (ServedProcess s =
        new ServedProcess("--initial " + initial + " --learn --save-state " + served)) {
      CyclicBarrier together = new CyclicBarrier(4);
      List<Future<List<String>>> answers = new ArrayList<>();
      for (int c = 0; c < 4; c++) {
        answers.add(
            clients.submit(
                () -> {
                  try (ServedProcess.Client client = s.connect()) {
                    List<String> got = new ArrayList<>();
                    for (String line : b) {
                      // In step: every client has its answer to line i before any sends line
                      // i + 1, so a server that served connections one after the other would
                      // fail here rather than pass slowly.
                      together.await(20, TimeUnit.SECONDS);
                      got.add(client.ask(line));
                    }
                    return got;
                  }
                }));
      }
      for (Future<List<String>> f : answers) {
        List<String> got = f.get(60, TimeUnit.SECONDS);
        assertEquals(b.size(), got.size());
        for (String a : got) {
          assertNotNull(a, "a client was not answered");
          Double.parseDouble(a); // a prediction, not an error line
        }
      }
      assertEquals(1, s.ask(List.of(b.get(0))).size(), "the server no longer answers");
    } finally {
      clients.shutdownNow();
    }
    assertEquals(
        Long.toString(50 + 4 * 200 + 1), TrainingStateTestAccess.setting(served, "examples"));
  }

  @Test
  void aClientLeavingMidLineDisturbsNeitherTheModelNorTheOthers() throws Exception {
    StreamFiles.Parts p = StreamFiles.libsvm(dir, "d", 50, 40, 15, 0, 6);
    Path initial = state(p);
    Path trained = dir.resolve("trained.okst");
    assertEquals(
        0,
        CliRun.line(
                "train --initial "
                    + initial
                    + " --data "
                    + p.b()
                    + " --no-shuffle --save-state "
                    + trained)
            .code());
    Path served = dir.resolve("served.okst");
    List<String> b = Files.readAllLines(p.b());
    try (ServedProcess s =
        new ServedProcess("--initial " + initial + " --learn --save-state " + served)) {
      try (ServedProcess.Client leaving = s.connect()) {
        assertNotNull(leaving.ask(b.get(0)));
        leaving.send(b.get(1)); // the whole example, but no line break: cut short
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (s.server.connections() > 0 && System.nanoTime() < deadline) {
        Thread.onSpinWait(); // until the server has seen the end of that connection
      }
      assertEquals(0, s.server.connections(), "the server did not notice the client leave");
      List<String> answers = s.ask(b.subList(1, b.size()));
      assertFalse(answers.contains(null));
    }
    assertArrayEquals(Files.readAllBytes(trained), Files.readAllBytes(served), "states differ");
  }

  /** Starts a JVM of the command line (seconds): the long stage. */
  @Test
  @Tag("long")
  void sigtermSavesTheStateAndExitsCleanly() throws Exception {
    StreamFiles.Parts p = StreamFiles.libsvm(dir, "t", 50, 30, 15, 0, 8);
    Path initial = state(p);
    Path served = dir.resolve("served.okst");
    Process proc =
        new ProcessBuilder(
                MainJvm.command(
                    List.of(),
                    "serve",
                    "--initial",
                    initial.toString(),
                    "--learn",
                    "--save-state",
                    served.toString(),
                    "--port",
                    "0"))
            .redirectError(dir.resolve("serve.err").toFile())
            .start();
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(proc.getInputStream(), StandardCharsets.UTF_8));
      String first = out.readLine();
      assertNotNull(first, () -> "no listening line; stderr: " + read(dir.resolve("serve.err")));
      int port = Integer.parseInt(first.substring(first.lastIndexOf(':') + 1));
      try (ServedProcess.Client c =
          new ServedProcess.Client(new java.net.Socket(InetAddress.getLoopbackAddress(), port))) {
        for (String line : Files.readAllLines(p.b())) {
          assertNotNull(c.ask(line));
        }
      }
      proc.toHandle().destroy(); // SIGTERM; Process.destroy would also close our end of stdout
      String said = out.readLine();
      assertTrue(proc.waitFor(60, TimeUnit.SECONDS), "no exit after SIGTERM");
      assertEquals(0, proc.exitValue(), () -> read(dir.resolve("serve.err")));
      assertEquals(
          "state: " + served + " (80 examples trained in all; 30 learned while serving)",
          said,
          "what the shutdown saved, said");
    } finally {
      proc.destroyForcibly();
    }
    assertEquals("80", TrainingStateTestAccess.setting(served, "examples"));
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (java.io.IOException e) {
      return e.toString();
    }
  }

  @Test
  void aPortInUseIsRefusedWithItsNumber() throws Exception {
    StreamFiles.Parts p = StreamFiles.libsvm(dir, "u", 20, 1, 5, 0, 1);
    Path initial = state(p);
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      CliRun.line("serve --model " + initial + " --port " + port)
          .assertError(1, "cannot listen on 127.0.0.1:" + port + ": the port is in use");
    }
  }

  @Test
  void missingModelWrongStateAndLearningFromWeightsAreRefused() throws Exception {
    StreamFiles.Parts p = StreamFiles.libsvm(dir, "w", 20, 1, 5, 0, 1);
    Path initial = state(p);
    Path model = dir.resolve("m.model");
    assertEquals(0, CliRun.line("train --data " + p.a() + " --model " + model).code());
    Path missing = dir.resolve("none.okst");
    CliRun.line("serve --model " + missing + " --port 0")
        .assertError(1, "cannot read " + missing + ": no such file");
    CliRun.line("serve --initial " + model + " --port 0")
        .assertError(1, model + ": not an online-kernels state file");
    CliRun.line("serve --model " + model + " --learn --port 0")
        .assertError(1, model + " is a model file (weights only); --learn continues");
    byte[] bytes = Files.readAllBytes(initial);
    Path damaged = dir.resolve("damaged.okst");
    Files.write(damaged, java.util.Arrays.copyOf(bytes, bytes.length - 3));
    CliRun.line("serve --initial " + damaged + " --learn --port 0")
        .assertError(1, damaged + ": checksum mismatch");
    CliRun.line("serve --model " + model + " --save-state x.okst --port 0")
        .assertError(2, "--save-state saves what --learn trained");
    CliRun.line("serve --model " + model + " --port 70000")
        .assertError(2, "--port must be 0..65535");
    CliRun.line("serve --initial " + initial + " --format vw --port 0").assertError(2, "--format");
  }
}
