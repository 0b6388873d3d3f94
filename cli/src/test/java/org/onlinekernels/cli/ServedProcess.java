package org.onlinekernels.cli;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code serve} started in this JVM on a free loopback port ({@link ServeCommand#start}), with
 * clients that send lines and read the answers; {@link #close} is the shutdown path of SIGTERM.
 */
final class ServedProcess implements AutoCloseable {
  final ServeServer server;
  final int port;
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  ServedProcess(String args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    server =
        ServeCommand.start(
            (args + " --port 0").split(" "),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    String first = out.toString(StandardCharsets.UTF_8).lines().findFirst().orElseThrow();
    if (!first.startsWith(ServeCommand.LISTENING + "127.0.0.1:")) {
      throw new AssertionError("first line: " + first);
    }
    port = Integer.parseInt(first.substring(first.lastIndexOf(':') + 1));
  }

  /** What the server wrote to standard error. */
  String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  /** A new connection. */
  Client connect() throws IOException {
    return new Client(new Socket(InetAddress.getLoopbackAddress(), port));
  }

  /** Sends every line on one connection, one at a time, and returns the answers. */
  List<String> ask(List<String> lines) throws IOException {
    try (Client c = connect()) {
      List<String> answers = new ArrayList<>();
      for (String line : lines) {
        answers.add(c.ask(line));
      }
      return answers;
    }
  }

  /** Shuts the server down: the shutdown hook's path. */
  @Override
  public void close() throws Main.Failure {
    server.shutdown();
  }

  /** One connection. */
  static final class Client implements AutoCloseable {
    final Socket socket;
    final OutputStream out;
    final BufferedReader in;

    Client(Socket socket) throws IOException {
      this.socket = socket;
      socket.setTcpNoDelay(true);
      this.out = socket.getOutputStream();
      this.in =
          new BufferedReader(
              new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Sends raw bytes (no line break added). */
    void send(String text) throws IOException {
      out.write(text.getBytes(StandardCharsets.UTF_8));
      out.flush();
    }

    /**
     * Sends {@code line} and a line break, returns the answer line (null if the server hung up).
     */
    String ask(String line) throws IOException {
      send(line + "\n");
      return in.readLine();
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
