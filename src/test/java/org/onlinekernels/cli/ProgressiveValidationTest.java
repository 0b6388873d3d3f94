package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.onlinekernels.data.SparseDataset;

class ProgressiveValidationTest {

  /** Remembers every call; predicts a scripted value and then learns (changes its output). */
  static final class RecordingLearner implements OnlineLearner {
    final List<String> calls = new ArrayList<>();
    double next;

    @Override
    public double predict(int[] idx, double[] val, int nnz) {
      calls.add("predict " + Arrays.toString(Arrays.copyOf(idx, nnz)) + " " + Arrays.toString(Arrays.copyOf(val, nnz)));
      return next;
    }

    @Override
    public void update(double g) {
      calls.add("update " + g);
      next += 10; // a learner that "learned" would score this example differently afterwards
    }
  }

  /** Loss |y - yhat| with derivative sign(yhat - y): easy to check by hand. */
  private static final ScalarLoss ABS = new ScalarLoss() {
    @Override
    public double value(double y, double yhat) {
      return Math.abs(y - yhat);
    }

    @Override
    public double derivative(double y, double yhat) {
      return Math.signum(yhat - y);
    }
  };

  @Test
  void scoresEachExampleBeforeTrainingOnIt() {
    SparseDataset ds = SparseDataset.fromDense(new double[][] {{0, 2}, {3, 0}, {0, 0}}, new double[] {1, -1, 1});
    RecordingLearner learner = new RecordingLearner();
    ProgressiveValidation.Result r = ProgressiveValidation.run("rec", "p", () -> learner, ds,
        ProgressiveValidation.binaryTargets(ds, 0), ABS);
    assertEquals(List.of(
        "predict [1] [2.0]", "update -1.0",
        "predict [0] [3.0]", "update 1.0",
        "predict [] []", "update 1.0"), learner.calls);
    // predictions 0, 10, 20 against 1, -1, 1: losses 1, 11, 19 (taken before each update).
    assertEquals((1 + 11 + 19) / 3.0, r.meanLoss(), 1e-12);
    // 0 is a tie (half an error), 10 vs -1 wrong, 20 vs +1 right.
    assertEquals(1.5 / 3, r.errorRate(), 1e-12);
    assertEquals(3, r.examples());
    assertEquals("rec", r.name());
    assertEquals("p", r.params());
  }

  @Test
  void freshLearnerPerRun() {
    SparseDataset ds = SparseDataset.fromDense(new double[][] {{1}}, new double[] {1});
    int[] made = {0};
    for (int i = 0; i < 2; i++) {
      ProgressiveValidation.run("x", "", () -> {
        made[0]++;
        return new RecordingLearner();
      }, ds, new double[] {1}, ABS);
    }
    assertEquals(2, made[0]);
  }

  @Test
  void nanPredictionIsAnError() {
    SparseDataset ds = SparseDataset.fromDense(new double[][] {{1}}, new double[] {1});
    RecordingLearner l = new RecordingLearner();
    l.next = Double.NaN;
    assertEquals(1.0, ProgressiveValidation.run("x", "", () -> l, ds, new double[] {1}, ABS).errorRate());
  }

  @Test
  void emptyDataGivesNaN() {
    SparseDataset ds = new SparseDataset.Builder().minDimension(3).build();
    ProgressiveValidation.Result r = ProgressiveValidation.run("x", "", RecordingLearner::new, ds, new double[0], ABS);
    assertEquals(0, r.examples());
    assertEquals(Double.NaN, r.meanLoss());
  }

  @Test
  void targetsOneVsRestForMulticlass() {
    SparseDataset multi = SparseDataset.fromDense(new double[][] {{1}, {1}, {1}}, new double[] {0, 2, 1});
    assertArrayEquals(new double[] {1, -1, -1}, ProgressiveValidation.binaryTargets(multi, 0));
    SparseDataset bin = SparseDataset.fromDense(new double[][] {{1}, {1}}, new double[] {-1, 1});
    assertArrayEquals(new double[] {-1, 1}, ProgressiveValidation.binaryTargets(bin, 0));
  }

  @Test
  void targetLengthMustMatch() {
    SparseDataset ds = SparseDataset.fromDense(new double[][] {{1}}, new double[] {1});
    assertEquals("targets has 2 entries but the data set has 1 rows",
        assertThrows(IllegalArgumentException.class,
            () -> ProgressiveValidation.run("x", "", RecordingLearner::new, ds, new double[2], ABS)).getMessage());
  }

  @Test
  void logisticLossIsStableAndMatchesItsDerivative() {
    ScalarLoss l = ScalarLoss.LOGISTIC;
    assertEquals(Math.log(2), l.value(1, 0), 1e-15);
    assertEquals(1000, l.value(1, -1000), 1e-9);
    assertEquals(Math.exp(-800), l.value(-1, -800), 1e-300);
    assertEquals(-0.5, l.derivative(1, 0), 1e-15);
    assertEquals(-1.0, l.derivative(1, -1000), 1e-15);
    assertEquals(0.0, l.derivative(1, 1000), 1e-15);
    for (double yhat : new double[] {-3, -0.5, 0.2, 4}) {
      for (double y : new double[] {-1, 1}) {
        double h = 1e-6;
        double numeric = (l.value(y, yhat + h) - l.value(y, yhat - h)) / (2 * h);
        assertEquals(numeric, l.derivative(y, yhat), 1e-8);
      }
    }
  }

  @Test
  void tableIsAligned() {
    List<ProgressiveValidation.Result> rs = List.of(
        new ProgressiveValidation.Result("AdaGrad", "eta = 1", 1000, 0.6931471805599453, 0.5, 0.001),
        new ProgressiveValidation.Result("ScInOL2", "epsilon = 1", 1000, 0.25, 0.1125, 0.0));
    assertEquals(String.join("\n",
        "algorithm  parameters   mean loss  error rate  examples/s",
        "AdaGrad    eta = 1       0.693147      0.5000     1000000",
        "ScInOL2    epsilon = 1   0.250000      0.1125           -",
        ""), ResultTable.format(rs));
  }

  @Test
  void emptyTableIsJustTheHeader() {
    assertEquals("algorithm  parameters  mean loss  error rate  examples/s\n", ResultTable.format(List.of()));
  }
}
