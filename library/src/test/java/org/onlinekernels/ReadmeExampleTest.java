package org.onlinekernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;

/**
 * The documented examples, compiled and run: the code between each pair of markers below must
 * appear verbatim in its page (the manual's first loop in docs/USING.md, the front page's few lines
 * in README.md), so a documented example cannot drift from a working one.
 */
class ReadmeExampleTest {

  static double[] example(Path file) throws IOException {
    // README-EXAMPLE-BEGIN
    SparseDataset data = LibSvmReader.read(file);
    int d = data.dimension();
    int[] idx = data.indices();
    double[] val = data.values();
    double sparseLoss = 0, denseLoss = 0;
    try (Arena arena = Arena.ofConfined();
        ScInOL2Optimizer sparse =
            new ScInOL2Optimizer(d, ElementType.FLOAT, ScInOLParams.defaults());
        ScInOL2Optimizer dense =
            new ScInOL2Optimizer(d, ElementType.FLOAT, ScInOLParams.defaults())) {
      // Input buffers: float elements, native byte order, allocated once and reused.
      MemorySegment xi = arena.allocate(ValueLayout.JAVA_INT, d);
      MemorySegment xv = arena.allocate(ValueLayout.JAVA_FLOAT, d);
      MemorySegment x = arena.allocate(ValueLayout.JAVA_FLOAT, d);
      for (int r = 0; r < data.size(); r++) {
        double y = data.label(r);
        int nnz = 0;
        x.fill((byte) 0);
        for (int j = data.rowStart(r); j < data.rowEnd(r); j++, nnz++) {
          xi.setAtIndex(ValueLayout.JAVA_INT, nnz, idx[j]);
          xv.setAtIndex(ValueLayout.JAVA_FLOAT, nnz, (float) val[j]);
          x.setAtIndex(ValueLayout.JAVA_FLOAT, idx[j], (float) val[j]);
        }
        // Sparse: O(nnz). Progressive validation: the loss is taken before the update.
        double yhat = sparse.predictSparse(xi, xv, nnz);
        sparseLoss += Loss.LOGISTIC.value(y, yhat);
        sparse.update(Loss.LOGISTIC.derivative(y, yhat));
        // Dense: the same example as d floats.
        double yhatDense = dense.predict(x);
        denseLoss += Loss.LOGISTIC.value(y, yhatDense);
        dense.update(Loss.LOGISTIC.derivative(y, yhatDense));
      }
    }
    System.out.printf(
        "mean logistic loss: sparse %.4f, dense %.4f%n",
        sparseLoss / data.size(), denseLoss / data.size());
    // README-EXAMPLE-END
    return new double[] {sparseLoss / data.size(), denseLoss / data.size()};
  }

  static double frontPageExample(Path file) throws IOException {
    // README-FRONT-BEGIN
    SparseDataset data = LibSvmReader.read(file);
    MemorySegment indices = MemorySegment.ofArray(data.indices());
    MemorySegment values = MemorySegment.ofArray(data.values());
    double loss = 0;
    try (ScInOL2Optimizer opt =
        new ScInOL2Optimizer(data.dimension(), ElementType.DOUBLE, ScInOLParams.defaults())) {
      for (int r = 0; r < data.size(); r++) {
        long from = data.rowStart(r);
        double y = data.label(r);
        MemorySegment rowIndices = indices.asSlice(4 * from);
        MemorySegment rowValues = values.asSlice(8 * from);
        double yhat = opt.round(rowIndices, rowValues, data.nnz(r), y, Loss.LOGISTIC);
        loss += Loss.LOGISTIC.value(y, yhat); // progressive: yhat was taken before the update
      }
    }
    // README-FRONT-END
    return loss / data.size();
  }

  @Test
  void theFrontPageExampleRunsAndLearns() throws IOException {
    Path file = Path.of(System.getProperty("onlinekernels.data", "../data"), "breast_cancer.svm");
    double front = frontPageExample(file);
    // The same pass as the manual's sparse loop, in double: the same data, a loss well below ln 2.
    assertTrue(front < 0.5, "mean loss " + front);
    assertEquals(example(file)[0], front, 1e-3 * front, "float and double passes agree closely");
  }

  @Test
  void theFrontPageQuotesItsExampleVerbatim() throws IOException {
    assertQuoted("README-FRONT", "../README.md");
  }

  @Test
  void theExampleRunsAndLearns() throws IOException {
    Path file = Path.of(System.getProperty("onlinekernels.data", "../data"), "breast_cancer.svm");
    double[] loss = example(file);
    // Unscaled features (areas ~1000, smoothness ~0.1): ScInOL2 is scale-invariant and learns
    // anyway, one pass with no tuning, clearly below the zero model's ln 2 = 0.693.
    assertTrue(loss[0] < 0.5, "mean loss " + loss[0]);
    assertEquals(loss[0], loss[1], 1e-3 * loss[0], "sparse and dense runs see the same data");
  }

  @Test
  void theManualQuotesTheExampleVerbatim() throws IOException {
    assertQuoted("README-EXAMPLE", MANUAL);
  }

  /** The manual that quotes the first loop ({@code README-EXAMPLE}). */
  private static final String MANUAL = "../docs/USING.md";

  /**
   * The code between {@code // MARKER-BEGIN} and {@code // MARKER-END}, dedented, is in {@code
   * page}.
   */
  private static void assertQuoted(String marker, String page) throws IOException {
    String src =
        Files.readString(Path.of("src/test/java/org/onlinekernels/ReadmeExampleTest.java"));
    String begin = "// " + marker + "-BEGIN\n", end = "    // " + marker + "-END";
    String body = src.substring(src.indexOf(begin) + begin.length(), src.indexOf(end));
    String text = Files.readString(Path.of(page));
    String dedented =
        body.lines()
            .map(l -> l.length() >= 4 ? l.substring(4) : l.strip())
            .reduce("", (a, b) -> a + b + "\n");
    assertTrue(
        text.contains(dedented),
        page + " must contain the example exactly as in this test:\n" + dedented);
  }

  /**
   * The manual lists, right before the example, exactly the imports it needs: this file's, less the
   * test's own (JUnit, static imports, {@code Files}).
   */
  @Test
  void theManualListsTheExamplesImports() throws IOException {
    String src =
        Files.readString(Path.of("src/test/java/org/onlinekernels/ReadmeExampleTest.java"));
    String needed =
        src.lines()
            .filter(
                l ->
                    l.startsWith("import ")
                        && !l.startsWith("import static ")
                        && !l.contains("org.junit.")
                        && !l.equals("import java.nio.file.Files;"))
            .sorted()
            .reduce("", (a, b) -> a + b + "\n");
    String readme = Files.readString(Path.of(MANUAL));
    String begin = "// README-EXAMPLE-BEGIN\n";
    String firstLine =
        src.substring(src.indexOf(begin) + begin.length())
            .lines()
            .findFirst()
            .orElseThrow()
            .strip();
    int example = readme.indexOf(firstLine);
    assertTrue(example > 0, MANUAL + " has the example");
    int block = readme.lastIndexOf("```java\n", example) + "```java\n".length();
    String listed =
        readme
            .substring(block, example)
            .lines()
            .filter(l -> l.startsWith("import "))
            .sorted()
            .reduce("", (a, b) -> a + b + "\n");
    assertEquals(
        needed, listed, "imports of the manual's example (its ```java block before the code)");
  }
}
