package org.onlinekernels.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.onlinekernels.cli.Main.Failure;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.ByteLines;

/**
 * One client of {@code serve}: for every line it sends, one line back, the prediction as {@code
 * predict --out} writes it, or {@code error: line N: problem} for a line that is not an example of
 * the model's format (the connection stays usable). A line the client's disconnect cut short is
 * dropped unanswered and untrained. What is not a text of lines (a line over the readers' length
 * limit, a NUL byte, a bare CR) gets its error line and ends this connection, not the others.
 */
final class ServeConnection implements Runnable {
  private final Socket socket;
  private final ServedModel model;
  private final ServeRows rows;
  private final Runnable closed;

  /**
   * @param closed called when the connection has ended
   */
  ServeConnection(Socket socket, ServedModel model, ServeRows rows, Runnable closed) {
    this.socket = socket;
    this.model = model;
    this.rows = rows;
    this.closed = closed;
  }

  @Override
  public void run() {
    try (Socket s = socket) {
      OutputStream out = new BufferedOutputStream(s.getOutputStream());
      ByteLines lines = new ByteLines(s.getInputStream(), rows.maxLineBytes(), rows.formatName());
      double[] yhat = new double[model.outputs()];
      StringBuilder text = new StringBuilder();
      try {
        while (lines.next()) {
          if (!lines.terminated()) {
            return; // the client left mid-line: nothing to answer, nothing to train
          }
          text.setLength(0);
          try {
            SparseDataset one = rows.parse(lines.buffer(), lines.start(), lines.end());
            model.answer(one, yhat);
            PredictionText.append(text, model.multiclass(), yhat, model.outputs());
          } catch (ServeRows.BadLine e) {
            text.append("error: line ").append(lines.number()).append(": ").append(e.getMessage());
          }
          send(out, text);
        }
      } catch (ByteLines.LineException e) {
        text.setLength(0);
        send(out, text.append("error: line ").append(e.line()).append(": ").append(e.problem()));
      } catch (Failure e) {
        text.setLength(0);
        send(out, text.append("error: ").append(e.getMessage()));
      }
    } catch (IOException e) {
      // The client went away or the server is closing: only this connection ends.
    } finally {
      closed.run();
    }
  }

  private static void send(OutputStream out, StringBuilder text) throws IOException {
    out.write(text.append('\n').toString().getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
