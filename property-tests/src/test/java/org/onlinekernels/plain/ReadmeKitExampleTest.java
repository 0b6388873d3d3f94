package org.onlinekernels.plain;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.testkit.KernelCheck;
import org.onlinekernels.testkit.Learner;
import org.onlinekernels.testkit.Row;

/**
 * The test kit manual's "Checking your own kernels" example (docs/TESTKIT.md), compiled and run:
 * the code between the markers must appear verbatim (less two spaces of indentation) there.
 */
class ReadmeKitExampleTest {
  // README-KIT-EXAMPLE-BEGIN
  /** A user's AdaGrad: plain double[] state, the sparse form of the rule. */
  static final class MyAdaGrad implements Learner {
    private final double eta;
    private final double[] w;
    private final double[] q;
    private Row row;

    MyAdaGrad(int d, double eta) {
      this.eta = eta;
      this.w = new double[d];
      this.q = new double[d];
    }

    @Override
    public double predict(Row x) {
      row = x;
      double yhat = 0;
      for (int k = 0; k < x.nnz(); k++) {
        yhat += x.values()[k] * w[x.indices()[k]];
      }
      return yhat;
    }

    @Override
    public void update(double g) {
      for (int k = 0; k < row.nnz(); k++) {
        int i = row.indices()[k];
        double gi = g * row.values()[k];
        q[i] = q[i] + gi * gi;
        if (q[i] > 0) {
          w[i] = w[i] - (eta * gi) / Math.sqrt(q[i]);
        }
      }
    }

    @Override
    public double[] state(String name) {
      return (name.equals("w") ? w : q).clone();
    }

    @Override
    public void writeState(String name, double[] values) {
      System.arraycopy(values, 0, name.equals("w") ? w : q, 0, values.length);
    }
  }

  @Test
  void myAdaGradAgreesWithTheReference() {
    KernelCheck.forRule(
            "adagrad", AdaGradParams.class, (d, type, params) -> new MyAdaGrad(d, params.rate()))
        .withParams(AdaGradParams.eta(0.5))
        .types(ElementType.DOUBLE)
        .sparseOnly()
        .run();
  }

  // README-KIT-EXAMPLE-END

  @Test
  void theManualQuotesTheExampleVerbatim() throws IOException {
    String src =
        Files.readString(
            Path.of("src/test/java/org/onlinekernels/plain/ReadmeKitExampleTest.java"));
    String begin = "// README-KIT-EXAMPLE-BEGIN\n", end = "  // README-KIT-EXAMPLE-END";
    String body = src.substring(src.indexOf(begin) + begin.length(), src.indexOf(end));
    String dedented =
        body.lines()
            .map(l -> l.length() >= 2 ? l.substring(2) : l.strip())
            .reduce("", (a, b) -> a + b + "\n");
    assertTrue(
        Files.readString(Path.of("../docs/TESTKIT.md")).contains(dedented),
        "docs/TESTKIT.md must contain the example exactly as in this test:\n" + dedented);
  }
}
