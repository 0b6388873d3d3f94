package org.onlinekernels.properties;

import java.util.Map;
import java.util.SplittableRandom;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.ScInOL2Optimizer;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.reference.ReferenceLinearModel;
import org.onlinekernels.reference.ReferenceScInOL2;

/**
 * ScInOL2 with a random {@code epsilon}, in recompute or stored-weights mode.
 *
 * <p>Factor 4: {@code G}, {@code S2} are sums and {@code M} a max; the weight
 * {@code sgn(theta) min(|theta|, 1) eta / (2 s)} carries the errors of {@code G}, of half of
 * {@code S2} and of the wealth {@code eta}, plus 6 roundings; the wealth's increments
 * {@code g x w} carry the weight's error back into {@code eta} (a sum): about 3 to 4 relative
 * errors of the element type per round in all.
 */
final class ScInOL2Subject implements Subject {
  private final ScInOLParams params;
  private final boolean stored;

  ScInOL2Subject(long seed, ElementType t) {
    SplittableRandom r = new SplittableRandom(seed ^ 0x5c2L);
    params = new ScInOLParams(Math.scalb(1.0, r.nextInt(-4, 5)));
    stored = r.nextBoolean();
  }

  @Override
  public String describe() {
    return "ScInOL2 " + params + (stored ? " stored-w" : " recompute-w");
  }

  @Override
  public double gMax() {
    return 1024;
  }

  @Override
  public AbstractOptimizer optimizer(int d, ElementType type, KernelProvider kernels) {
    return new ScInOL2Optimizer(d, type, params, stored, null, kernels);
  }

  @Override
  public ReferenceLinearModel reference(int d) {
    return new ReferenceScInOL2(d, params);
  }

  @Override
  public Map<String, double[]> referenceState(ReferenceLinearModel r) {
    ReferenceScInOL2 s = (ReferenceScInOL2) r;
    return Map.of("G", s.bigG(), "S2", s.s2(), "M", s.m(), "eta", s.eta());
  }

  @Override
  public boolean exactStateInDouble() {
    return true;
  }

  @Override
  public double stateFactor() {
    return 4;
  }
}
