package org.onlinekernels.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Predictions per second of {@code serve} over the loopback address (bench-report/serve-*.md): one
 * request line, then its answer, per round trip, on 1 and on 4 connections at once, each
 * configuration repeated and the median reported. The server runs in this JVM ({@link
 * ServeCommand#start}); the clients are threads of it, so client and server share the cores.
 *
 * <p>Usage: {@code ServeBench STATE DATA LINES_PER_CLIENT REPEATS}: the state of a run on similar
 * data and the lines to send (cycled).
 */
public final class ServeBench {
  private ServeBench() {}

  /** Runs the measurement and prints one line per configuration. */
  public static void main(String[] args) throws Exception {
    Path state = Path.of(args[0]);
    List<String> lines = Files.readAllLines(Path.of(args[1]));
    int perClient = Integer.parseInt(args[2]);
    int repeats = Integer.parseInt(args[3]);
    for (String mode : List.of("--model", "--initial")) {
      String learn = mode.equals("--initial") ? " --learn" : "";
      try (ServedProcess s = new ServedProcess(mode + " " + state + learn)) {
        for (int w = 0; w < repeats; w++) { // warm-up: C2 compiles the parsing and the rounds
          run(s, lines, 4, perClient, w);
        }
        for (int clients : new int[] {1, 4}) {
          double[] rates = new double[repeats];
          for (int r = 0; r < repeats; r++) {
            rates[r] = run(s, lines, clients, perClient, r);
          }
          Arrays.sort(rates);
          System.out.printf(
              Locale.ROOT,
              "%-8s clients %d: median %.0f predictions/s (min %.0f, max %.0f; %d x %d lines)%n",
              learn.isEmpty() ? "predict" : "learn",
              clients,
              rates[repeats / 2],
              rates[0],
              rates[repeats - 1],
              repeats,
              clients * perClient);
        }
      }
    }
  }

  /** Predictions per second of {@code clients} connections asking {@code perClient} lines each. */
  private static double run(ServedProcess s, List<String> lines, int clients, int perClient, int r)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      List<Future<?>> done = new ArrayList<>();
      long t0 = System.nanoTime();
      for (int c = 0; c < clients; c++) {
        int offset = (c * 7919 + r * 104729) % lines.size();
        done.add(
            pool.submit(
                () -> {
                  try (ServedProcess.Client client = s.connect()) {
                    for (int i = 0; i < perClient; i++) {
                      String a = client.ask(lines.get((offset + i) % lines.size()));
                      if (a == null || a.startsWith("error")) {
                        throw new IllegalStateException("answer: " + a);
                      }
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      return (double) clients * perClient / ((System.nanoTime() - t0) / 1e9);
    } finally {
      pool.shutdown();
    }
  }
}
