package org.onlinekernels.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.onlinekernels.cli.Main.Failure;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.ByteLines;
import org.onlinekernels.io.VisibleText;

/**
 * One client of {@code serve}: for every line it sends, one line back, the prediction as {@code
 * predict --out} writes it, or {@code error: line N: problem} for a line that is not an example of
 * the model's format (the connection stays usable). A line the client's disconnect cut short is
 * dropped unanswered and untrained. What is not a text of lines (a line over the readers' length
 * limit, a NUL byte, a bare CR) gets its error line and ends this connection, not the others; so
 * does a line longer than the connections' shared memory has room for now ({@link ServeMemory}). A
 * line the shared memory cannot parse now gets its error line, and the connection stays usable.
 */
final class ServeConnection implements Runnable {
  private final Socket socket;
  private final ServedModel model;
  private final ServeRows rows;
  private final ServeMemory memory;
  private final Runnable closed;

  /**
   * @param memory the memory the connections share for their lines
   * @param closed called when the connection has ended
   */
  ServeConnection(
      Socket socket, ServedModel model, ServeRows rows, ServeMemory memory, Runnable closed) {
    this.socket = socket;
    this.model = model;
    this.rows = rows;
    this.memory = memory;
    this.closed = closed;
  }

  @Override
  public void run() {
    ByteLines lines = null;
    try (Socket s = socket) {
      OutputStream out = new BufferedOutputStream(s.getOutputStream());
      lines = new ByteLines(s.getInputStream(), rows.maxLineBytes(), rows.formatName(), memory);
      double[] yhat = new double[model.outputs()];
      StringBuilder text = new StringBuilder();
      try {
        while (lines.next()) {
          if (!lines.terminated()) {
            return; // the client left mid-line: nothing to answer, nothing to train
          }
          text.setLength(0);
          answer(lines, yhat, text);
          send(out, text);
        }
      } catch (ByteLines.LineException e) {
        text.setLength(0);
        send(
            out,
            text.append("error: line ")
                .append(e.line())
                .append(": ")
                .append(VisibleText.of(e.problem())));
      } catch (Failure e) {
        text.setLength(0);
        send(out, text.append("error: ").append(VisibleText.of(e.getMessage())));
      } catch (OutOfMemoryError e) {
        // The shared memory's estimate fell short of what the heap has (it is shared with the
        // JVM's other uses) while a line was buffered: this connection ends with its error line,
        // the others and the model go on.
        text.setLength(0);
        send(out, outOfMemory(text, lines.number() + 1));
      }
    } catch (IOException e) {
      // The client went away or the server is closing: only this connection ends.
    } finally {
      if (lines != null) {
        lines.release();
      }
      closed.run();
    }
  }

  /** The answer to the current line, or its error line, into {@code text}. */
  private void answer(ByteLines lines, double[] yhat, StringBuilder text) throws Failure {
    long bytes = lines.end() - lines.start();
    // A short line is parsed with what the connection took when accepted.
    long parsing = bytes <= ServeMemory.SHORT_LINE ? 0 : ServeMemory.parsing(bytes, rows.vw());
    if (parsing > 0 && !memory.take(parsing)) {
      text.append("error: line ")
          .append(lines.number())
          .append(": reading a line of ")
          .append(bytes)
          .append(" bytes takes about ")
          .append(parsing)
          .append(" bytes, more than the connections' shared memory has free now (")
          .append(memory.total() >> 20)
          .append(" MiB in all); send it again later, or shorter lines");
      return;
    }
    try {
      SparseDataset one = rows.parse(lines.buffer(), lines.start(), lines.end());
      model.answer(one, yhat);
      PredictionText.append(text, model.multiclass(), yhat, model.outputs());
    } catch (ServeRows.BadLine e) {
      text.append("error: line ").append(lines.number()).append(": ").append(e.getMessage());
    } catch (OutOfMemoryError e) {
      outOfMemory(text, lines.number()); // as above, while it was parsed
    } finally {
      if (parsing > 0) {
        memory.give(parsing);
      }
    }
  }

  private static StringBuilder outOfMemory(StringBuilder text, long line) {
    return text.append("error: line ")
        .append(line)
        .append(": out of memory reading it; send shorter lines, or give serve more heap");
  }

  private static void send(OutputStream out, StringBuilder text) throws IOException {
    out.write(text.append('\n').toString().getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
