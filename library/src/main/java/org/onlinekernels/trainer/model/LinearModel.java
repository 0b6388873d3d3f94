package org.onlinekernels.trainer.model;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.CRC32C;
import java.util.zip.CheckedOutputStream;
import org.onlinekernels.io.AtomicFiles;
import org.onlinekernels.io.VisibleText;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * A trained linear model: {@code K} weight vectors of dimension {@code d} ({@code K = 1} for binary
 * labels {@code +1/-1}; {@code K} = number of classes, one-vs-rest, for multiclass labels {@code
 * 0..K-1}), with what produced them. The weights are the optimizers' read-out after the last update
 * (ALGORITHMS.md "weight read-out"), exactly representable in {@link #type()}.
 *
 * <p>Scoring ({@link #scores}) is {@code <w_k, x>} summed in {@code double} over the stored entries
 * of {@code x} in index order; the trainer's test evaluation and the {@code predict} command both
 * call it, so a saved and re-loaded model predicts bit-for-bit what the trainer measured. Features
 * with an index {@code >= d} (never seen in training) have weight 0.
 *
 * <h2>File format ({@code online-kernels-model 2}; docs/MODEL_FORMAT.md)</h2>
 *
 * UTF-8 text, one item per line, in this order:
 *
 * <pre>
 * online-kernels-model 2
 * algorithm scinol2
 * params eps=1            (the line is "params" alone when all defaults were used)
 * type float
 * loss logistic
 * d 21
 * outputs 1               (K)
 * classes binary          ("binary" for +1/-1 labels, else the number of classes K)
 * w 0.25 -1.5 ...         (K lines, each "w" and d numbers)
 * crc32c 1a2b3c4d         (CRC32C of every byte before this line, 8 lower-case hex digits)
 * </pre>
 *
 * Numbers are written by {@link Float#toString} for {@code float} models and {@link
 * Double#toString} for {@code double} ones: the shortest text that parses back to the same value,
 * so the round trip is exact. Text rather than binary because models here are small (d x K
 * numbers), diffable, and readable from any language without a byte-order convention.
 *
 * @param algorithm the algorithm and its parameters
 * @param type element type the model was trained in
 * @param loss training loss (also used to score a test set)
 * @param multiclass whether labels are classes {@code 0..K-1} (one-vs-rest) rather than {@code
 *     +1/-1}
 * @param weights {@code K} arrays of {@code d} weights (not copied)
 */
public record LinearModel(
    AlgorithmSpec algorithm, ElementType type, Loss loss, boolean multiclass, double[][] weights) {
  /** The format version this library writes and reads. */
  public static final int FORMAT_VERSION = 2;

  /** First line of every model file this library writes. */
  public static final String MAGIC = "online-kernels-model " + FORMAT_VERSION;

  private static final String CHECKSUM_KEY = ModelFileReader.CHECKSUM_KEY;

  /**
   * Largest model file {@link #load} reads (2 GiB - 1: the weights of any model whose file is
   * larger would not fit the arrays that hold them).
   */
  public static final long MAX_FILE_BYTES = Integer.MAX_VALUE - 8;

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

  /**
   * The current weights of {@code optimizers} (one per output, read out per ALGORITHMS.md; their
   * state does not change) as the model {@code config} trains.
   */
  public static LinearModel readOut(
      TrainerConfig config, boolean multiclass, LinearModelOptimizer... optimizers) {
    return readOut(config, multiclass, optimizers[0].dimension(), optimizers);
  }

  /**
   * The model of the first {@code d} coordinates of {@code optimizers} (a shared state whose
   * coordinates above the data's hold workers' private copies).
   */
  public static LinearModel readOut(
      TrainerConfig config, boolean multiclass, int d, LinearModelOptimizer... optimizers) {
    ElementType type = config.type();
    double[][] w = new double[optimizers.length][d];
    try (Arena a = Arena.ofConfined()) {
      MemorySegment buf = a.allocate((long) optimizers[0].dimension() * type.bytes(), 64);
      for (int c = 0; c < optimizers.length; c++) {
        optimizers[c].readWeights(buf);
        for (int i = 0; i < d; i++) {
          w[c][i] =
              type == ElementType.FLOAT
                  ? buf.getAtIndex(ValueLayout.JAVA_FLOAT, i)
                  : buf.getAtIndex(ValueLayout.JAVA_DOUBLE, i);
        }
      }
    }
    return new LinearModel(config.algorithm(), type, config.loss(), multiclass, w);
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
   * {@code nnz} entries of {@code idx}/{@code val} (indices {@code >= d} ignored). Allocates
   * nothing. A sum that leaves double's range on the way (weights near {@code 1e308}: an infinity,
   * or {@code inf - inf = NaN}) is summed again scaled by powers of two, so that terms which cancel
   * give their finite result; a result beyond double's range is {@code +-Double.MAX_VALUE}.
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
      out[k] = Double.isFinite(s) ? s : scaledScore(w, idx, val, from, nnz);
    }
  }

  /**
   * {@code <w, x>} with every weight scaled by 2^-ew and every value by 2^-ev (the largest
   * exponents among the terms; exact powers of two), so that no product or partial sum overflows;
   * the sum is scaled back and saturated. Terms smaller than 2^-1074 of the largest are lost, which
   * only matters to a result that is that much smaller than the terms.
   */
  private static double scaledScore(double[] w, int[] idx, double[] val, int from, int nnz) {
    int ew = Double.MIN_EXPONENT;
    int ev = Double.MIN_EXPONENT;
    for (int j = from; j < from + nnz; j++) {
      if (idx[j] < w.length) {
        ew = Math.max(ew, Math.getExponent(w[idx[j]]));
        ev = Math.max(ev, Math.getExponent(val[j]));
      }
    }
    double s = 0;
    for (int j = from; j < from + nnz; j++) {
      if (idx[j] < w.length) {
        s += Math.scalb(w[idx[j]], -ew) * Math.scalb(val[j], -ev);
      }
    }
    double r = Math.scalb(s, ew + ev);
    return Double.isInfinite(r) && !Double.isInfinite(s) ? Math.copySign(Double.MAX_VALUE, r) : r;
  }

  /**
   * Saves in the format above, crash-safely ({@link AtomicFiles}: temporary file, fsync, atomic
   * rename): a failure or a kill at any point leaves {@code file} as it was or complete.
   */
  public void save(Path file) throws IOException {
    AtomicFiles.write(file, this::writeTo, null);
  }

  /**
   * Writes the file's bytes: the body, then the checksum line over the body. Streamed, value by
   * value, so that saving a model of 2^24 weights needs no more memory than the weights.
   */
  private void writeTo(OutputStream out) throws IOException {
    CheckedOutputStream checked = new CheckedOutputStream(out, new CRC32C());
    // Not closed: that would close the file's stream, which the caller forces and closes.
    Writer body = new BufferedWriter(new OutputStreamWriter(checked, StandardCharsets.UTF_8));
    body.write(MAGIC + "\n");
    body.write("algorithm " + algorithm.name() + "\n");
    String p = algorithm.paramString();
    body.write(p.isEmpty() ? "params\n" : "params " + p + "\n");
    body.write("type " + type.name().toLowerCase(Locale.ROOT) + "\n");
    body.write("loss " + loss.name().toLowerCase(Locale.ROOT) + "\n");
    body.write("d " + dimension() + "\n");
    body.write("outputs " + outputs() + "\n");
    body.write("classes " + (multiclass ? Integer.toString(outputs()) : "binary") + "\n");
    for (double[] w : weights) {
      body.write('w');
      for (double v : w) {
        body.write(' ');
        body.write(type == ElementType.FLOAT ? Float.toString((float) v) : Double.toString(v));
      }
      body.write('\n');
    }
    body.flush();
    String sum = String.format(Locale.ROOT, "%08x", checked.getChecksum().getValue());
    out.write((CHECKSUM_KEY + sum + "\n").getBytes(StandardCharsets.US_ASCII));
  }

  /** A model file that does not follow the format; the message names file, line and problem. */
  public static final class ModelFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    ModelFormatException(Path file, int line, String problem) {
      // A control character the message echoes from the file (a hostile loss or algorithm name)
      // is shown as its escape, never sent raw: the message stays one line.
      super(file + ":" + line + ": " + VisibleText.of(problem));
    }
  }

  /**
   * Loads a file written by {@link #save}. The magic line and the checksum are verified before
   * anything else is parsed, so a truncated or damaged file is refused as such; a file that is not
   * regular (a device, a pipe) or whose weights would not fit the heap is refused before its
   * weights are read, and the weights are parsed as they stream in (the memory taken is about that
   * of the weights' arrays).
   *
   * @throws ModelFormatException naming file, line and problem for a file that is not a complete,
   *     intact model of this format version
   * @throws IOException if the file cannot be read
   */
  public static LinearModel load(Path file) throws IOException {
    return ModelFileReader.load(file);
  }
}
