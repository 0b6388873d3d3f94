package org.onlinekernels.bench.workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.trainer.TrainingData;

/**
 * One workload of the benchmark: rows in CSR arrays, read or generated once per JMH trial, seen by
 * every contender in file order (no shuffling).
 *
 * <p>Named by a spec string, the JMH parameter: {@code file:NAME} for a LIBSVM file of the
 * repository's data folder, or {@code zipf:LOG2D:NNZ} / {@code uniform:LOG2D:NNZ} for a {@link
 * SyntheticStream} with {@code d = 2^LOG2D} and {@code NNZ} nonzeros per row. Synthetic streams
 * have {@code nonzeros / NNZ} rows, so every stream costs about the same per pass.
 *
 * <p>Multiclass files (labels {@code 0..K-1}) are trained one-vs-rest with {@code K} outputs by
 * every contender, as {@code OnlineTrainer} does; binary ones ({@code +1/-1}) with one.
 */
public final class Workload {
  /** The spec it was made from. */
  public final String spec;

  /** The data set (for the trainer and the optimizer loop). */
  public final SparseDataset data;

  /** The same data prepared once for {@code OnlineTrainer.fit}. */
  public final TrainingData prepared;

  /** Model dimension. */
  public final int d;

  /** Rows. */
  public final int n;

  /** Outputs: 1 for binary labels, {@code K} for multiclass (one-vs-rest). */
  public final int outputs;

  /** Whether labels are classes {@code 0..K-1}. */
  public final boolean multiclass;

  /** Row {@code r} owns entries {@code start[r] .. start[r+1]-1}. */
  public final int[] start;

  /** 0-based column indices, strictly increasing per row. */
  public final int[] idx;

  /** Values as doubles. */
  public final double[] doubleValues;

  /** The same values rounded to float (what a float model sees). */
  public final float[] floatValues;

  /** Labels: {@code +1/-1}, or the class. */
  public final double[] label;

  /** Largest row. */
  public final int maxNnz;

  private Workload(String spec, SparseDataset data) {
    this.spec = spec;
    this.data = data;
    this.prepared = TrainingData.of(data);
    this.d = Math.max(1, data.dimension());
    this.n = data.size();
    this.multiclass = !data.isBinary();
    this.outputs = multiclass ? data.numClasses() : 1;
    this.idx = data.indices();
    this.doubleValues = data.values();
    this.floatValues = new float[doubleValues.length];
    for (int j = 0; j < doubleValues.length; j++) floatValues[j] = (float) doubleValues[j];
    this.start = new int[n + 1];
    this.label = new double[n];
    int m = 0;
    for (int r = 0; r < n; r++) {
      start[r] = data.rowStart(r);
      label[r] = data.label(r);
      m = Math.max(m, data.nnz(r));
    }
    start[n] = n == 0 ? 0 : data.rowEnd(n - 1);
    this.maxNnz = Math.max(1, m);
  }

  /**
   * Reads or generates the workload named by {@code spec}.
   *
   * @param nonzeros synthetic streams' total nonzeros (rows = nonzeros / nnz per row)
   * @param dataDir the data folder holding the files
   */
  public static Workload load(String spec, long nonzeros, Path dataDir) {
    String[] p = spec.split(":");
    try {
      return switch (p[0]) {
        case "file" -> new Workload(spec, LibSvmReader.read(dataDir.resolve(p[1])));
        case "zipf", "uniform" -> {
          int nnz = Integer.parseInt(p[2]);
          SyntheticStream s =
              new SyntheticStream(
                  1 << Integer.parseInt(p[1]),
                  nnz,
                  p[0].equals("zipf"),
                  (int) Math.max(1, nonzeros / nnz),
                  SyntheticStream.SEED);
          yield new Workload(spec, s.generate());
        }
        default ->
            throw new IllegalArgumentException(
                "workload spec must be file:NAME, zipf:LOG2D:NNZ or uniform:LOG2D:NNZ, got "
                    + spec);
      };
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read workload " + spec, e);
    }
  }

  /** Whether this is a synthetic stream (else a file of the data folder). */
  public boolean synthetic() {
    return !spec.startsWith("file:");
  }

  /**
   * The LIBSVM text file of the workload named {@code spec}: a data file itself, or, for a
   * synthetic stream, {@code workDir/zipf_20_40-2000000.svm} (spec and nonzeros per pass), which
   * {@link CCheck} writes for the C contender.
   */
  public static Path libsvmFile(String spec, long nonzeros, Path dataDir, Path workDir) {
    String[] p = spec.split(":");
    return p[0].equals("file")
        ? dataDir.resolve(p[1])
        : workDir.resolve(String.join("_", p) + "-" + nonzeros + ".svm");
  }

  /** Total nonzeros of one pass. */
  public long nonzeros() {
    return start[n];
  }

  /** Label of output {@code k} for row {@code r}: {@code +1/-1} (one-vs-rest when multiclass). */
  public double target(int r, int k) {
    return multiclass ? (label[r] == k ? 1.0 : -1.0) : label[r];
  }

  /**
   * The repository's data folder ({@code data/README.md}): the system property {@code
   * onlinekernels.data} (set by surefire and by the report commands), else {@code data} in the
   * working directory (the repository root).
   */
  public static Path dataFolder() {
    String p = System.getProperty("onlinekernels.data");
    return p != null ? Path.of(p) : Path.of("data");
  }

  /**
   * The training files of the data folder ({@code file:NAME} specs), sorted by name; test splits
   * are left out.
   */
  public static java.util.List<String> trainingFiles(Path dataDir) {
    try (var s = Files.list(dataDir)) {
      return s.map(f -> f.getFileName().toString())
          .filter(f -> f.endsWith(".svm") || f.endsWith(".svm.gz"))
          .filter(f -> !f.contains(".test."))
          .sorted()
          .map(f -> "file:" + f)
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the data folder " + dataDir.toAbsolutePath(), e);
    }
  }
}
