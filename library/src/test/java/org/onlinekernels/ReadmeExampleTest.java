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
 * The README's trainer-loop example, compiled and run: the code between the markers below must
 * appear verbatim in README.md, so the documented example cannot drift from a working one.
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
  void theReadmeQuotesTheExampleVerbatim() throws IOException {
    String src =
        Files.readString(Path.of("src/test/java/org/onlinekernels/ReadmeExampleTest.java"));
    String begin = "// README-EXAMPLE-BEGIN\n", end = "    // README-EXAMPLE-END";
    String body = src.substring(src.indexOf(begin) + begin.length(), src.indexOf(end));
    String readme = Files.readString(Path.of("../README.md"));
    String dedented =
        body.lines()
            .map(l -> l.length() >= 4 ? l.substring(4) : l.strip())
            .reduce("", (a, b) -> a + b + "\n");
    assertTrue(
        readme.contains(dedented),
        "README.md must contain the example exactly as in this test:\n" + dedented);
  }

  /**
   * The README lists, right before the example, exactly the imports it needs: this file's, less the
   * test's own (JUnit, static imports, {@code Files}).
   */
  @Test
  void theReadmeListsTheExamplesImports() throws IOException {
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
    String readme = Files.readString(Path.of("../README.md"));
    String begin = "// README-EXAMPLE-BEGIN\n";
    String firstLine =
        src.substring(src.indexOf(begin) + begin.length())
            .lines()
            .findFirst()
            .orElseThrow()
            .strip();
    int example = readme.indexOf(firstLine);
    assertTrue(example > 0, "README.md has the example");
    int block = readme.lastIndexOf("```java\n", example) + "```java\n".length();
    String listed =
        readme
            .substring(block, example)
            .lines()
            .filter(l -> l.startsWith("import "))
            .sorted()
            .reduce("", (a, b) -> a + b + "\n");
    assertEquals(
        needed, listed, "imports of the README's example (its ```java block before the code)");
  }
}
