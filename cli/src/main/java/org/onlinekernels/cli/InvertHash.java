package org.onlinekernels.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.onlinekernels.cli.Main.Failure;
import org.onlinekernels.io.AtomicFiles;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * {@code train --invert-hash FILE}: a readable model. Collects every feature name the reader meets
 * (plain {@code ns^feature} and crossed {@code a^x*b^y}) with its index and the sign its hash gives
 * it, then writes one tab-separated line per name, sorted by name: name, index, sign ({@code +} or
 * {@code -}) and the weight of that index for each output. For LIBSVM data the names are the
 * feature numbers of the file (1-based), each with its sign {@code +}. The names are kept in memory
 * for the whole read, as VW's {@code --invert_hash} does: meant for inspecting models, not for the
 * largest runs.
 */
final class InvertHash implements VwRow.NameSink {
  /** name -> index, with bit 31 set when the hash negates the value. */
  private final Map<String, Integer> seen = new HashMap<>();

  @Override
  public void entry(String name, int index, boolean negated, double value) {
    seen.put(name, negated ? index | Integer.MIN_VALUE : index);
  }

  /**
   * Writes the names with {@code model}'s weights to {@code file} crash-safely.
   *
   * @param libsvm the (0-based) indices of the LIBSVM training data, whose feature numbers are the
   *     names, or null for VW data
   */
  void write(Path file, LinearModel model, java.util.BitSet libsvm) throws Failure {
    Map<String, Integer> names = new TreeMap<>(seen);
    if (libsvm != null) {
      names.clear();
      for (int i = libsvm.nextSetBit(0); i >= 0; i = libsvm.nextSetBit(i + 1)) {
        names.put(Integer.toString(i + 1), i);
      }
    }
    StringBuilder sb = new StringBuilder();
    sb.append("# online-kernels invert-hash: feature\tindex\tsign\tweight per output (")
        .append(model.outputs())
        .append(")\n");
    for (Map.Entry<String, Integer> e : names.entrySet()) {
      int index = e.getValue() & Integer.MAX_VALUE;
      sb.append(e.getKey())
          .append('\t')
          .append(index)
          .append('\t')
          .append(e.getValue() < 0 ? '-' : '+');
      for (double[] w : model.weights()) {
        sb.append('\t').append(weight(model, w[index]));
      }
      sb.append('\n');
    }
    try {
      AtomicFiles.write(file, sb.toString().getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new Failure(e.getMessage());
    }
  }

  /** A weight as the model file writes it: the shortest text of its element type. */
  static String weight(LinearModel model, double w) {
    return model.type() == ElementType.FLOAT ? Float.toString((float) w) : Double.toString(w);
  }
}
