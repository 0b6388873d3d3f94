package org.onlinekernels.testkit;

import java.util.SplittableRandom;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.reference.ReferenceLinearModel;
import org.onlinekernels.rules.fixedgd.FixedRateGdOptimizer;
import org.onlinekernels.rules.fixedgd.FixedRateGdParams;
import org.onlinekernels.rules.fixedgd.ReferenceFixedRateGd;

/**
 * Step 4 of docs/ADDING_A_RULE.md for the test's example rule {@code FixedRateGd}, in the kit's
 * package (here in the tests' sources), where {@link Subjects} finds it by name. A random rate
 * {@code 2^-6 .. 1} (a power of two: float holds it exactly).
 *
 * <p>State factor 1: {@code w} is a sum of steps {@code eta g_i}, each one rounding of the product
 * {@code g x_i} (the power of two {@code eta} scales exactly) and one of the sum; in double the
 * kernel does the reference's operations in its order, so the state is its bits.
 */
public final class FixedRateGdSubject extends FusedRuleSubject<FixedRateGdParams> {
  /** The rate case seed {@code seed} draws. */
  public FixedRateGdSubject(long seed) {
    this(
        new FixedRateGdParams(Math.scalb(1.0, new SplittableRandom(seed ^ 0xf1dL).nextInt(-6, 1))));
  }

  /** The given rate. */
  public FixedRateGdSubject(FixedRateGdParams params) {
    super("FixedRateGd", params, 1);
  }

  @Override
  public AbstractOptimizer optimizer(
      int d, ElementType type, KernelProvider kernels, StateLayout layout) {
    return new FixedRateGdOptimizer(d, type, params, layout, null, kernels);
  }

  @Override
  public ReferenceLinearModel reference(int d) {
    return new ReferenceFixedRateGd(d, params);
  }
}
