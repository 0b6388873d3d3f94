package org.onlinekernels.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.params.AdaptiveOgdParams;
import org.onlinekernels.params.Box;
import org.onlinekernels.params.DfegParams;
import org.onlinekernels.params.GlobalAdaGradParams;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.rules.adagrad.ReferenceAdaGrad;
import org.onlinekernels.rules.aogd.ReferenceAdaptiveOgdBall;
import org.onlinekernels.rules.aogd.ReferenceAdaptiveOgdCoordinate;
import org.onlinekernels.rules.dfeg.ReferenceDfeg;
import org.onlinekernels.rules.globaladagrad.ReferenceGlobalAdaGrad;
import org.onlinekernels.rules.scinol1.ReferenceScInOL1;
import org.onlinekernels.rules.scinol2.ReferenceScInOL2;

/** Bad configurations and bad inputs are refused with a message naming the culprit. */
class ValidationTest {

  static void refused(String mustContain, Executable e) {
    IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, e);
    assertTrue(
        ex.getMessage().contains(mustContain),
        "'" + ex.getMessage() + "' should name " + mustContain);
  }

  @Test
  void badConfiguration() {
    refused("delta", () -> AdaGradParams.eta(1.0).withDelta(-1));
    refused("delta", () -> GlobalAdaGradParams.ofDiameter(1).withDelta(-0.5));
    refused("delta", () -> new DfegParams(0.9, 1, 0));
    refused("a must", () -> new DfegParams(0.5, 1, 1));
    refused("a must", () -> new DfegParams(1.2, 1, 1));
    refused("L", () -> new DfegParams(0.9, -1, 1));
    refused("alpha*D_i", () -> AdaGradParams.alphaTimesWidth(0.6, Box.none()));
    refused(
        "alpha*D_i",
        () -> AdaGradParams.alphaTimesWidth(0.6, Box.of(-1, Double.POSITIVE_INFINITY)));
    refused("diameter D", () -> GlobalAdaGradParams.of(Box.none()));
    refused("epsilon", () -> new ScInOLParams(0));
    refused("epsilon", () -> new ScInOLParams(-1));
    refused("radius", () -> AdaptiveOgdParams.radius(0.0));
    refused("radius", () -> AdaptiveOgdParams.radii(new double[] {1, -1}));
    refused("eta", () -> AdaGradParams.eta(Double.NaN));
    refused("epsilon", () -> new ScInOLParams(Double.NaN));
    refused("a must", () -> new DfegParams(Double.NaN, 1, 1));
    refused("dimension d", () -> new ReferenceAdaGrad(0, AdaGradParams.eta(1.0)));
    refused("dimension d", () -> new ReferenceGlobalAdaGrad(0, GlobalAdaGradParams.ofDiameter(1)));
    refused("dimension d", () -> new ReferenceAdaptiveOgdBall(0, AdaptiveOgdParams.radius(1.0)));
    refused(
        "dimension d", () -> new ReferenceAdaptiveOgdCoordinate(-1, AdaptiveOgdParams.radius(1.0)));
    refused("dimension d", () -> new ReferenceScInOL1(0, ScInOLParams.defaults()));
    refused("dimension d", () -> new ReferenceScInOL2(0, ScInOLParams.defaults()));
    refused("dimension d", () -> new ReferenceDfeg(0, DfegParams.defaults()));
    Box two = Box.perCoordinate(new double[] {-1, -1}, new double[] {1, 1});
    refused(
        "box has 2 coordinates",
        () -> new ReferenceAdaGrad(3, AdaGradParams.eta(1.0).withBox(two)));
    refused(
        "box has 2 coordinates", () -> new ReferenceGlobalAdaGrad(3, GlobalAdaGradParams.of(two)));
    refused(
        "radii has 2",
        () -> new ReferenceAdaptiveOgdCoordinate(3, AdaptiveOgdParams.radii(new double[] {1, 2})));
    refused(
        "radii",
        () -> new ReferenceAdaptiveOgdBall(2, AdaptiveOgdParams.radii(new double[] {1, 2})));
  }

  static List<Supplier<ReferenceLinearModel>> models() {
    return List.of(
        () -> new ReferenceAdaGrad(3, AdaGradParams.eta(1.0)),
        () -> new ReferenceGlobalAdaGrad(3, GlobalAdaGradParams.ofDiameter(1)),
        () -> new ReferenceAdaptiveOgdBall(3, AdaptiveOgdParams.radius(1.0)),
        () -> new ReferenceAdaptiveOgdCoordinate(3, AdaptiveOgdParams.radius(1.0)),
        () -> new ReferenceScInOL1(3, ScInOLParams.defaults()),
        () -> new ReferenceScInOL2(3, ScInOLParams.defaults()),
        () -> new ReferenceDfeg(3, DfegParams.defaults()));
  }

  @Test
  void badLinearModelInputs() {
    for (Supplier<ReferenceLinearModel> s : models()) {
      ReferenceLinearModel m = s.get();
      String name = m.getClass().getSimpleName();
      assertEquals(3, m.dimension());
      refused("x has length 2", () -> m.predict(new double[2]));
      refused("x must not be null", () -> m.predict(null));
      refused("x[1] must be finite", () -> m.predict(new double[] {0, Double.NaN, 0}));
      refused(
          "x[2] must be finite", () -> m.predict(new double[] {0, 0, Double.POSITIVE_INFINITY}));
      refused(
          "strictly increasing", () -> m.predictSparse(new int[] {1, 1}, new double[] {1, 1}, 2));
      refused(
          "strictly increasing", () -> m.predictSparse(new int[] {2, 0}, new double[] {1, 1}, 2));
      refused("idx[0] = 3 is outside", () -> m.predictSparse(new int[] {3}, new double[] {1}, 1));
      refused("idx[0] = -1 is outside", () -> m.predictSparse(new int[] {-1}, new double[] {1}, 1));
      refused("nnz = 2", () -> m.predictSparse(new int[] {0, 1}, new double[] {1}, 2));
      refused("nnz = -1", () -> m.predictSparse(new int[] {0}, new double[] {1}, -1));
      refused(
          "val[0] must be finite",
          () -> m.predictSparse(new int[] {0}, new double[] {Double.NaN}, 1));
      assertThrows(IllegalStateException.class, () -> m.update(1), name);
      m.predict(new double[] {1, 0, -1});
      refused("g must be finite", () -> m.update(Double.NaN));
      m.update(0.5);
      // One update per prediction.
      assertThrows(IllegalStateException.class, () -> m.update(0.5), name);
    }
  }

  @Test
  void badGradientInputsAndCurvature() {
    List<ReferenceGradientLearner> ls =
        List.of(
            new ReferenceAdaGrad(3, AdaGradParams.eta(1.0)),
            new ReferenceGlobalAdaGrad(3, GlobalAdaGradParams.ofDiameter(1)),
            new ReferenceAdaptiveOgdBall(3, AdaptiveOgdParams.radius(1.0)),
            new ReferenceAdaptiveOgdCoordinate(3, AdaptiveOgdParams.radius(1.0)));
    for (ReferenceGradientLearner l : ls) {
      refused("g has length 4", () -> l.step(new double[4]));
      refused("g[0] must be finite", () -> l.step(new double[] {Double.NaN, 0, 0}));
      refused("strictly increasing", () -> l.stepSparse(new int[] {0, 0}, new double[] {1, 2}, 2));
      refused(
          "val[1] must be finite",
          () -> l.stepSparse(new int[] {0, 2}, new double[] {1, Double.NaN}, 2));
      refused("nnz = 3", () -> l.stepSparse(new int[] {0, 1}, new double[] {1, 2, 3}, 3));
    }
    ReferenceAdaptiveOgdBall b = new ReferenceAdaptiveOgdBall(2, AdaptiveOgdParams.radius(1.0));
    refused("curvature", () -> b.step(new double[2], -1));
    refused("curvature", () -> b.step(new double[2], Double.NaN));
    ReferenceAdaptiveOgdCoordinate c =
        new ReferenceAdaptiveOgdCoordinate(2, AdaptiveOgdParams.radius(1.0));
    refused(
        "curvature", () -> c.stepSparse(new int[0], new double[0], 0, Double.POSITIVE_INFINITY));
    c.predict(new double[2]);
    refused("curvature", () -> c.update(1, -0.1));
  }
}
