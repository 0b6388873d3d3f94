package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve}'s connections share a bounded memory for their lines ({@link ServeMemory}): many
 * clients with lines longer than it, or more clients than it holds, get {@code error:} lines, and
 * the server neither runs out of memory nor keeps what a long line took (finding A3 of issue #41:
 * six clients with 200 MB lines under -Xmx1g threw OutOfMemoryError on stderr and left four clients
 * without an answer).
 */
class ServeMemoryTest {
  @TempDir Path dir;

  private Path model() throws IOException {
    Path f = dir.resolve("m.svm");
    Files.writeString(f, "1 1:1 3:0.5\n-1 2:1\n1 1:0.5\n-1 2:0.5 3:1\n");
    Path model = dir.resolve("m.model");
    assertEquals(0, CliRun.line("train --data " + f + " --model " + model).code());
    return model;
  }

  private static ServeServer start(String args, ServeMemory memory) throws Exception {
    return ServeCommand.start(
        (args + " --port 0").split(" "),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        memory);
  }

  /** A LIBSVM line of about {@code bytes} bytes: label 1, features 1, 2, 3, ... of value 1. */
  private static byte[] longLine(int bytes) {
    StringBuilder b = new StringBuilder("1");
    for (int i = 1; b.length() < bytes; i++) {
      b.append(' ').append(i).append(":1");
    }
    return b.append('\n').toString().getBytes(StandardCharsets.US_ASCII);
  }

  /** Sends {@code line} on a new connection to {@code port} and returns the answer line. */
  private static String ask(int port, byte[] line) throws IOException {
    return ask(new Socket(InetAddress.getLoopbackAddress(), port), line);
  }

  /** Sends {@code line} on the connection {@code socket}, returns the answer line and closes it. */
  private static String ask(Socket socket, byte[] line) throws IOException {
    try (Socket s = socket) {
      BufferedReader in =
          new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
      OutputStream out = s.getOutputStream();
      try {
        out.write(line);
        out.flush();
      } catch (IOException e) {
        // the server answered and closed before the whole line was sent: read its answer
      }
      return in.readLine();
    }
  }

  private static void awaitNoConnections(ServeServer server) throws InterruptedException {
    for (int i = 0; i < 500 && server.connections() > 0; i++) {
      Thread.sleep(10);
    }
    assertEquals(0, server.connections());
  }

  @Test
  void sixClientsWithLinesBeyondTheSharedMemoryEachGetAnErrorLine() throws Exception {
    ServeMemory memory = new ServeMemory(4 << 20);
    ServeServer server = start("--model " + model(), memory);
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      byte[] line = longLine(3 << 20);
      // Every connection accepted (each holding its share) before any line is sent: a connection
      // accepted after the others' lines have grown finds the memory taken (the refusal of
      // aConnectionBeyondTheSharedMemoryIsToldSoAndClosed), and which of the two a client met
      // depended on timing.
      List<Socket> sockets = new ArrayList<>();
      for (int c = 0; c < 6; c++) {
        sockets.add(new Socket(InetAddress.getLoopbackAddress(), server.port()));
      }
      for (int i = 0; i < 500 && server.connections() < 6; i++) {
        Thread.sleep(10);
      }
      assertEquals(6, server.connections(), "six connections accepted");
      List<Future<String>> answers = new ArrayList<>();
      for (Socket s : sockets) {
        answers.add(pool.submit(() -> ask(s, line)));
      }
      for (Future<String> a : answers) {
        String answer = a.get(60, TimeUnit.SECONDS);
        assertNotNull(answer, "a client got no answer");
        // 3 MiB does not fit the 4 MiB shared by six connections: refused as it grows.
        assertTrue(answer.startsWith("error: line 1: line longer than "), answer);
        assertTrue(answer.contains("memory shared by the lines being read"), answer);
      }
      awaitNoConnections(server);
      assertEquals(memory.total(), memory.free(), "the connections gave back all they took");
      String after = ask(server.port(), "1 1:1\n".getBytes(StandardCharsets.US_ASCII));
      assertFalse(after.startsWith("error"), after);
    } finally {
      pool.shutdownNow();
      server.shutdown();
    }
  }

  @Test
  void aLongLineWithinTheMemoryIsAnsweredAndItsMemoryGivenBack() throws Exception {
    ServeMemory memory = new ServeMemory(64 << 20);
    Path model = model();
    ServeServer server = start("--model " + model, memory);
    try {
      byte[] line = longLine(1 << 20);
      Path one = dir.resolve("one.svm");
      Files.write(one, line);
      CliRun predict = CliRun.line("predict --model " + model + " --data " + one + " --out -");
      assertEquals(0, predict.code(), predict.err());
      try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
        BufferedReader in =
            new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
        // Half the line: the connection's buffer grows with memory taken from the shared budget.
        s.getOutputStream().write(line, 0, line.length / 2);
        s.getOutputStream().flush();
        long free = memory.total() - ServeMemory.CONNECTION_BYTES;
        for (int i = 0; i < 500 && memory.free() > free - line.length / 2; i++) {
          Thread.sleep(10);
        }
        assertTrue(
            memory.free() <= free - line.length / 2,
            "a growing line's buffer takes from the shared memory: " + memory.free());
        s.getOutputStream().write(line, line.length / 2, line.length - line.length / 2);
        s.getOutputStream().flush();
        assertEquals(predict.out().strip(), in.readLine());
        s.getOutputStream().write("-1 2:1\n".getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        assertNotNull(in.readLine());
        // The connection is open and idle: it holds its first buffer only.
        assertEquals(memory.total() - ServeMemory.CONNECTION_BYTES, memory.free());
      }
      awaitNoConnections(server);
      assertEquals(memory.total(), memory.free());
    } finally {
      server.shutdown();
    }
  }

  /**
   * A line the buffer holds but whose parsing the shared memory cannot hold now gets an error line,
   * and the connection goes on with the next line.
   */
  @Test
  void aLineTooLongToParseNowGetsAnErrorLineAndTheConnectionGoesOn() throws Exception {
    ServeMemory memory = new ServeMemory(8 << 20);
    ServeServer server = start("--model " + model(), memory);
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      BufferedReader in =
          new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
      byte[] line = longLine(1 << 20); // parsing it takes about 12 MiB
      s.getOutputStream().write(line);
      s.getOutputStream().write("-1 2:1\n".getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      String refused = in.readLine();
      assertTrue(
          refused.startsWith("error: line 1: reading a line of " + (line.length - 1)), refused);
      String next = in.readLine();
      assertFalse(next.startsWith("error"), next);
    } finally {
      server.shutdown();
    }
  }

  @Test
  void aConnectionBeyondTheSharedMemoryIsToldSoAndClosed() throws Exception {
    ServeMemory memory = new ServeMemory(2 * ServeMemory.CONNECTION_BYTES);
    ServeServer server = start("--model " + model(), memory);
    List<Socket> held = new ArrayList<>();
    try {
      for (int c = 0; c < 2; c++) {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port());
        held.add(s);
        s.getOutputStream().write("1 1:1\n".getBytes(StandardCharsets.US_ASCII));
        assertNotNull(
            new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8))
                .readLine());
      }
      String refused = ask(server.port(), "1 1:1\n".getBytes(StandardCharsets.US_ASCII));
      assertNotNull(refused);
      assertTrue(
          refused.startsWith("error: the server's memory for connections is taken (2 open"),
          refused);
      held.get(0).close();
      for (int i = 0; i < 500 && server.connections() > 1; i++) {
        Thread.sleep(10);
      }
      String again = ask(server.port(), "1 1:1\n".getBytes(StandardCharsets.US_ASCII));
      assertFalse(again.startsWith("error"), "a connection freed its memory: " + again);
    } finally {
      for (Socket s : held) {
        s.close();
      }
      server.shutdown();
    }
  }

  /**
   * The probe itself, scaled to a small heap: serve in its own JVM with {@code -Xmx128m}, six
   * clients at once sending 48 MB lines. Every client gets an error line, and nothing about memory
   * reaches standard error.
   */
  @Test
  @Tag("long")
  void aSmallHeapServesSixHugeLinesWithErrorLinesAndNoOutOfMemory() throws Exception {
    Path model = model();
    Path err = dir.resolve("serve.err");
    Process proc =
        new ProcessBuilder(
                MainJvm.command(
                    List.of("-Xmx128m"), "serve", "--model", model.toString(), "--port", "0"))
            .redirectError(err.toFile())
            .start();
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(proc.getInputStream(), StandardCharsets.UTF_8));
      String first = out.readLine();
      assertNotNull(first, () -> "no listening line; stderr: " + read(err));
      int port = Integer.parseInt(first.substring(first.lastIndexOf(':') + 1));
      byte[] line = longLine(48 << 20);
      List<Future<String>> answers = new ArrayList<>();
      for (int c = 0; c < 6; c++) {
        answers.add(pool.submit(() -> ask(port, line)));
      }
      for (Future<String> a : answers) {
        String answer = a.get(120, TimeUnit.SECONDS);
        assertNotNull(answer, () -> "a client got no answer; stderr: " + read(err));
        assertTrue(answer.startsWith("error: line 1: "), answer);
      }
      String errors =
          read(err)
              .lines()
              .filter(l -> !l.startsWith("WARNING: Using incubator"))
              .toList()
              .toString();
      assertEquals("[]", errors, "standard error");
      assertTrue(proc.isAlive());
    } finally {
      pool.shutdownNow();
      proc.destroy();
      proc.waitFor(30, TimeUnit.SECONDS);
      proc.destroyForcibly();
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return e.toString();
    }
  }
}
