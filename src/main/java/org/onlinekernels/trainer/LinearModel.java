package org.onlinekernels.trainer;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;

/**
 * A trained linear model: {@code K} weight vectors of dimension {@code d} ({@code K = 1} for
 * binary labels {@code +1/-1}; {@code K} = number of classes, one-vs-rest, for multiclass labels
 * {@code 0..K-1}), with what produced them. The weights are the optimizers' read-out after the
 * last update (ALGORITHMS.md "weight read-out"), exactly representable in {@link #type()}.
 *
 * <p>Scoring ({@link #scores}) is {@code <w_k, x>} summed in {@code double} over the stored
 * entries of {@code x} in index order; the trainer's test evaluation and the {@code predict}
 * command both call it, so a saved and re-loaded model predicts bit-for-bit what the trainer
 * measured. Features with an index {@code >= d} (never seen in training) have weight 0.
 *
 * <h2>File format ({@code online-kernels-model 1})</h2>
 * UTF-8 text, one item per line, in this order:
 * <pre>
 * online-kernels-model 1
 * algorithm scinol2
 * params eps=1            (the line is "params" alone when all defaults were used)
 * type float
 * loss logistic
 * d 21
 * outputs 1               (K)
 * classes binary          ("binary" for +1/-1 labels, else the number of classes K)
 * w 0.25 -1.5 ...         (K lines, each "w" and d numbers)
 * </pre>
 * Numbers are written by {@link Float#toString} for {@code float} models and
 * {@link Double#toString} for {@code double} ones: the shortest text that parses back to the
 * same value, so the round trip is exact. Text rather than binary because models here are small
 * (d x K numbers), diffable, and readable from any language without a byte-order convention.
 *
 * @param algorithm  the algorithm and its parameters
 * @param type       element type the model was trained in
 * @param loss       training loss (also used to score a test set)
 * @param multiclass whether labels are classes {@code 0..K-1} (one-vs-rest) rather than {@code +1/-1}
 * @param weights    {@code K} arrays of {@code d} weights (not copied)
 */
public record LinearModel(AlgorithmSpec algorithm, ElementType type, Loss loss, boolean multiclass,
    double[][] weights) {
  /** First line of every model file. */
  public static final String MAGIC = "online-kernels-model 1";

  /** Checks the shape: at least one output, all of one dimension {@code >= 1}. */
  public LinearModel {
    if (weights.length < 1 || weights[0].length < 1) {
      throw new IllegalArgumentException("a model needs at least one output of dimension >= 1");
    }
    for (double[] w : weights) {
      if (w.length != weights[0].length) {
        throw new IllegalArgumentException("all outputs must have the same dimension");
      }
    }
    if (!multiclass && weights.length != 1) {
      throw new IllegalArgumentException("a binary model has exactly one output");
    }
  }

  /** Dimension {@code d}. */
  public int dimension() {
    return weights[0].length;
  }

  /** Number of outputs {@code K}. */
  public int outputs() {
    return weights.length;
  }

  /**
   * Writes {@code <w_k, x>} for every output into {@code out[0..K)}, {@code x} given by the first
   * {@code nnz} entries of {@code idx}/{@code val} (indices {@code >= d} ignored). Allocates nothing.
   */
  public void scores(int[] idx, double[] val, int from, int nnz, double[] out) {
    int d = dimension();
    for (int k = 0; k < weights.length; k++) {
      double[] w = weights[k];
      double s = 0;
      for (int j = from; j < from + nnz; j++) {
        int i = idx[j];
        if (i < d) {
          s += w[i] * val[j];
        }
      }
      out[k] = s;
    }
  }

  /** Saves in the format above. */
  public void save(Path file) throws IOException {
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write(MAGIC + "\n");
      out.write("algorithm " + algorithm.name() + "\n");
      String p = algorithm.paramString();
      out.write(p.isEmpty() ? "params\n" : "params " + p + "\n");
      out.write("type " + type.name().toLowerCase(Locale.ROOT) + "\n");
      out.write("loss " + loss.name().toLowerCase(Locale.ROOT) + "\n");
      out.write("d " + dimension() + "\n");
      out.write("outputs " + outputs() + "\n");
      out.write("classes " + (multiclass ? Integer.toString(outputs()) : "binary") + "\n");
      StringBuilder sb = new StringBuilder();
      for (double[] w : weights) {
        sb.setLength(0);
        sb.append('w');
        for (double v : w) {
          sb.append(' ').append(type == ElementType.FLOAT ? Float.toString((float) v) : Double.toString(v));
        }
        out.write(sb.append('\n').toString());
      }
    }
  }

  /** A model file that does not follow the format; the message names file, line and problem. */
  public static final class ModelFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    ModelFormatException(Path file, int line, String problem) {
      super(file + ":" + line + ": " + problem);
    }
  }

  /** Loads a file written by {@link #save}. */
  public static LinearModel load(Path file) throws IOException {
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String first = in.readLine();
      if (first == null || !first.equals(MAGIC)) {
        throw new ModelFormatException(file, 1, "not an online-kernels model (first line must be '" + MAGIC + "')");
      }
      String[] keys = {"algorithm", "params", "type", "loss", "d", "outputs", "classes"};
      Map<String, String> h = new LinkedHashMap<>();
      int line = 1;
      for (String key : keys) {
        String s = in.readLine();
        line++;
        if (s == null) {
          throw new ModelFormatException(file, line, "file ends before the '" + key + "' line");
        }
        String v = s.equals(key) ? "" : s.startsWith(key + " ") ? s.substring(key.length() + 1).trim() : null;
        if (v == null) {
          throw new ModelFormatException(file, line, "expected a '" + key + "' line");
        }
        h.put(key, v);
      }
      try {
        AlgorithmSpec spec = AlgorithmSpec.parse(h.get("algorithm"), List.of(h.get("params")));
        ElementType type = ElementType.parse(h.get("type"));
        Loss loss = Loss.parse(h.get("loss"));
        int d = Integer.parseInt(h.get("d"));
        int k = Integer.parseInt(h.get("outputs"));
        boolean multi = !h.get("classes").equals("binary");
        if (d < 1 || k < 1 || (multi && Integer.parseInt(h.get("classes")) != k)) {
          throw new IllegalArgumentException("inconsistent d / outputs / classes");
        }
        List<double[]> ws = new ArrayList<>();
        for (int o = 0; o < k; o++) {
          String s = in.readLine();
          line++;
          if (s == null) {
            throw new ModelFormatException(file, line, "file ends before weight line " + (o + 1) + " of " + k);
          }
          String[] parts = s.split(" ");
          if (!parts[0].equals("w") || parts.length != d + 1) {
            throw new ModelFormatException(file, line, "expected 'w' and " + d + " numbers");
          }
          double[] w = new double[d];
          for (int i = 0; i < d; i++) {
            w[i] = type == ElementType.FLOAT ? Float.parseFloat(parts[i + 1]) : Double.parseDouble(parts[i + 1]);
            if (!Double.isFinite(w[i])) {
              throw new ModelFormatException(file, line, "weight " + (i + 1) + " is not finite");
            }
          }
          ws.add(w);
        }
        if (in.readLine() != null) {
          throw new ModelFormatException(file, line + 1, "unexpected text after the last weight line");
        }
        return new LinearModel(spec, type, loss, multi, ws.toArray(double[][]::new));
      } catch (NumberFormatException e) {
        throw new ModelFormatException(file, line, "bad number: " + e.getMessage());
      } catch (IllegalArgumentException e) {
        throw new ModelFormatException(file, line, e.getMessage());
      }
    }
  }
}
