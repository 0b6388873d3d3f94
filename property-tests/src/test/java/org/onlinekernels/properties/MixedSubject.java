package org.onlinekernels.properties;

import java.util.Map;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.reference.ReferenceLinearModel;
import org.onlinekernels.rules.adagrad.AdaGradOptimizer;
import org.onlinekernels.rules.adagrad.ReferenceAdaGrad;
import org.onlinekernels.rules.scinol2.ReferenceScInOL2;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;
import org.onlinekernels.testkit.AdaGradSubject;
import org.onlinekernels.testkit.ScInOL2Subject;

/**
 * A {@link Precision#MIXED} optimizer and its double reference, fed the same float inputs, with the
 * per-buffer bounds of {@link MixedAgreement}. The parameters are the float draws of {@link
 * AdaGradSubject} / {@link ScInOL2Subject} for the same seed.
 */
abstract class MixedSubject {
  static final double U_F = 0x1p-24;
  static final double U_D = 0x1p-53;

  abstract String describe();

  abstract double gMax();

  abstract AbstractOptimizer optimizer(int d, KernelProvider kernels);

  abstract ReferenceLinearModel reference(int d);

  abstract Map<String, double[]> referenceState(ReferenceLinearModel r);

  /**
   * Bound on {@code |kernel - reference|} of element {@code i} of buffer {@code name} after {@code
   * t} rounds from a common start, given the reference element's path and peak.
   */
  abstract double stateBound(String name, int t, double path, double peak);

  /**
   * The name of the weight buffer whose error enters the prediction bound, or null (weights exact).
   */
  abstract String weightBuffer();

  /**
   * AdaGrad: every operation is the reference's double operation on the same operands, except the
   * store of {@code w}, rounded to float. So {@code Q} (which never reads {@code w}) is
   * bit-identical, and with {@code e_t = |w_kernel - w_ref|} after round t, the step {@code st} is
   * identical on both sides, {@code fl_d(w - st)} differs by at most {@code e + u_d(|w_k - st| +
   * |w_r - st|)}, the clamp is 1-Lipschitz and the float store adds {@code <= u_f |w'|}: {@code e_T
   * <= T u_f peak(|w|) + 2 T u_d (peak + path + e)} — bounded here by {@code (T+1) u_f 1.001 peak +
   * 4 (T+8) u_d (path + peak)}.
   */
  static final class AdaGrad extends MixedSubject {
    private final AdaGradSubject plain;

    AdaGrad(long seed, int d) {
      this.plain = new AdaGradSubject(seed, d, org.onlinekernels.kernel.ElementType.FLOAT);
    }

    @Override
    String describe() {
      return "mixed " + plain.describe();
    }

    @Override
    double gMax() {
      return plain.gMax();
    }

    private AdaGradParams params(int d) {
      return ((ReferenceAdaGrad) plain.reference(d)).params();
    }

    @Override
    AbstractOptimizer optimizer(int d, KernelProvider kernels) {
      return new AdaGradOptimizer(d, Precision.MIXED, params(d), null, kernels);
    }

    @Override
    ReferenceLinearModel reference(int d) {
      return plain.reference(d);
    }

    @Override
    Map<String, double[]> referenceState(ReferenceLinearModel r) {
      return plain.referenceState(r);
    }

    @Override
    double stateBound(String name, int t, double path, double peak) {
      return name.equals("Q") ? 0 : wBound(t, path, peak);
    }

    static double wBound(int t, double path, double peak) {
      return (t + 1) * U_F * 1.001 * peak + 4 * (t + 8) * U_D * (path + peak);
    }

    @Override
    String weightBuffer() {
      return "w";
    }
  }

  /**
   * ScInOL2: the mixed kernel performs the reference's double operations on the same float inputs
   * ({@code M} is a max of floats, exact in float), so {@code G}, {@code S2}, {@code M}, {@code
   * eta} are bit-identical: bound 0. The weights are the same doubles, so only the prediction's
   * summation order differs.
   */
  static final class ScInOL2 extends MixedSubject {
    private final ScInOL2Subject plain;

    ScInOL2(long seed) {
      this.plain = new ScInOL2Subject(seed);
    }

    @Override
    String describe() {
      return "mixed ScInOL2 " + params();
    }

    private ScInOLParams params() {
      try (ScInOL2Optimizer o =
          (ScInOL2Optimizer)
              plain.optimizer(
                  1, org.onlinekernels.kernel.ElementType.FLOAT, KernelProvider.scalar())) {
        return o.params();
      }
    }

    @Override
    double gMax() {
      return plain.gMax();
    }

    @Override
    AbstractOptimizer optimizer(int d, KernelProvider kernels) {
      return new ScInOL2Optimizer(d, Precision.MIXED, params(), null, kernels);
    }

    @Override
    ReferenceLinearModel reference(int d) {
      return new ReferenceScInOL2(d, params());
    }

    @Override
    Map<String, double[]> referenceState(ReferenceLinearModel r) {
      return plain.referenceState(r);
    }

    @Override
    double stateBound(String name, int t, double path, double peak) {
      return 0;
    }

    @Override
    String weightBuffer() {
      return null;
    }
  }
}
