package org.onlinekernels.fuzz;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * Issue 12, kills during writes: a child JVM saves two large models in turn to one path as fast as
 * it can and is killed (SIGKILL) at a random moment, twice; the path must then hold one of the two
 * models, complete. (Truncation at every offset is the other half of this, in {@code ModelFileTest}
 * and {@link FileFaultProperties}.)
 */
@Tag("long")
class KilledWriterTest {
  static LinearModel model(double v) {
    double[][] w = new double[1][200_000];
    java.util.Arrays.fill(w[0], v);
    return new LinearModel(
        AlgorithmSpec.of("scinol2"), ElementType.DOUBLE, Loss.LOGISTIC, false, w);
  }

  /** Child: saves model(1) and model(2) alternately to args[0] until killed. */
  public static void main(String[] args) throws Exception {
    Path f = Path.of(args[0]);
    LinearModel a = model(1);
    LinearModel b = model(2);
    a.save(f);
    System.out.println("ready");
    System.out.flush();
    for (int k = 0; ; k++) {
      (k % 2 == 0 ? b : a).save(f);
    }
  }

  @Test
  void aKilledWriterLeavesACompleteModel(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("m.model");
    Random rnd =
        new Random(26); // the same kill delays every run (the scheduler's timing still varies)
    for (int round = 0; round < 2; round++) {
      List<String> cmd =
          List.of(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              "--add-modules",
              "jdk.incubator.vector",
              "-cp",
              System.getProperty("java.class.path"),
              KilledWriterTest.class.getName(),
              f.toString());
      Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      try (BufferedReader r =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        assertTrue("ready".equals(r.readLine()), "child did not start");
        Thread.sleep(50 + rnd.nextInt(400));
        p.destroyForcibly();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
      }
      LinearModel m = LinearModel.load(f);
      double v = m.weights()[0][0];
      assertTrue(v == 1 || v == 2, "weight " + v);
      for (double x : m.weights()[0]) {
        assertTrue(x == v, "a model mixed from two writes");
      }
      try (var s = Files.list(dir)) {
        for (Path left : s.toList()) {
          assertTrue(
              left.equals(f) || left.getFileName().toString().matches("\\.okw-.*\\.tmp"),
              "left: " + left);
        }
      }
    }
  }
}
