package org.onlinekernels.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.onlinekernels.cli.Main.Failure;
import org.onlinekernels.io.VisibleText;

/**
 * The listening side of {@code serve}: a server socket, an accepting thread, and one virtual thread
 * per connection ({@link ServeConnection}), each taking its line buffer from the memory the
 * connections share ({@link ServeMemory}: a connection it cannot hold is told so and closed);
 * {@link #shutdown} stops accepting, closes every connection, then saves and frees the model
 * ({@link ServedModel#close}).
 */
final class ServeServer {
  private final ServerSocket socket;
  private final ServedModel model;
  private final Supplier<ServeRows> rows;
  private final ServeMemory memory;
  private final PrintStream err;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final Thread acceptor;

  /**
   * Binds {@code host:port} (port 0: any free port) and starts accepting.
   *
   * @param rows makes each connection's line reader
   * @param memory the memory the connections share for their lines
   * @throws Failure naming the address when it cannot be bound (port in use, address not local)
   */
  ServeServer(
      InetAddress host,
      int port,
      ServedModel model,
      Supplier<ServeRows> rows,
      ServeMemory memory,
      PrintStream err)
      throws Failure {
    this.model = model;
    this.rows = rows;
    this.memory = memory;
    this.err = err;
    String where = host.getHostAddress() + ":" + port;
    try {
      socket = new ServerSocket();
      try {
        socket.bind(new InetSocketAddress(host, port));
      } catch (IOException e) {
        socket.close();
        throw e;
      }
    } catch (BindException e) {
      throw new Failure(
          "cannot listen on "
              + where
              + ": "
              + (e.getMessage() != null && e.getMessage().contains("in use")
                  ? "the port is in use (another serve, or another program); choose another"
                      + " --port, or --port 0 for any free one"
                  : e.getMessage()
                      + " (is "
                      + host.getHostAddress()
                      + " an address of this host?)"));
    } catch (IOException e) {
      throw new Failure("cannot listen on " + where + ": " + e.getMessage());
    }
    acceptor = Thread.ofPlatform().name("serve-accept").daemon().start(this::accept);
  }

  /** The port listened on (the one chosen when 0 was asked for). */
  int port() {
    return socket.getLocalPort();
  }

  /** Number of connections open (accepted, not yet ended). */
  int connections() {
    return open.size();
  }

  /** The address listened on, as {@code host:port}. */
  String address() {
    return socket.getInetAddress().getHostAddress() + ":" + port();
  }

  private void accept() {
    while (!stopping.get()) {
      Socket client;
      try {
        client = socket.accept();
      } catch (IOException e) {
        if (!stopping.get()) {
          err.println(
              "error: cannot accept a connection on "
                  + address()
                  + ": "
                  + VisibleText.of(e.getMessage()));
        }
        return;
      }
      try {
        client.setTcpNoDelay(true); // one short answer per line: send it now, not with the next
      } catch (IOException e) {
        // the client already left: its connection ends at its first read
      }
      if (!memory.take(ServeMemory.CONNECTION_BYTES)) {
        refuse(client);
        continue;
      }
      open.add(client);
      if (stopping.get()) {
        closeQuietly(client); // shutdown may have closed the others before this one was added
        memory.give(ServeMemory.CONNECTION_BYTES);
        return;
      }
      Thread.ofVirtual()
          .name("serve-client")
          .start(
              new ServeConnection(
                  client,
                  model,
                  rows.get(),
                  memory,
                  () -> {
                    open.remove(client);
                    memory.give(ServeMemory.CONNECTION_BYTES);
                  }));
    }
  }

  /** Tells a client the connections' memory has no room for it, and closes the connection. */
  private void refuse(Socket client) {
    try (Socket s = client) {
      s.setSoTimeout(1000); // a client that reads nothing cannot hold the acceptor
      s.getOutputStream()
          .write(
              ("error: the server's memory for connections is taken ("
                      + open.size()
                      + " open, "
                      + (memory.total() >> 20)
                      + " MiB shared); try again later\n")
                  .getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      // the client already left
    }
  }

  /** The memory the connections share. */
  ServeMemory memory() {
    return memory;
  }

  /** Waits until {@link #shutdown} has finished. */
  void await() throws InterruptedException {
    stopped.await();
  }

  /**
   * Stops accepting, closes every connection, saves the state (with {@code --save-state}) and frees
   * the model; a second call waits for the first.
   *
   * @return what was saved, for the user ({@link ServedModel#summary}), or null (a model that does
   *     not learn, or a second call)
   * @throws Failure when the state cannot be saved (the old file is then intact)
   */
  String shutdown() throws Failure {
    if (!stopping.compareAndSet(false, true)) {
      try {
        stopped.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return null;
    }
    try {
      closeQuietly(socket);
      for (Socket s : open) {
        closeQuietly(s);
      }
      try {
        acceptor.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      model.close();
      return model.summary();
    } finally {
      stopped.countDown();
    }
  }

  private static void closeQuietly(java.io.Closeable c) {
    try {
      c.close();
    } catch (IOException e) {
      // closing to stop: nothing to do about it
    }
  }
}
