package org.onlinekernels.kernel.vector;

import static org.onlinekernels.kernel.vector.VectorConstants.FLOAT_SPECIES;
import static org.onlinekernels.kernel.vector.VectorConstants.ORDER;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.ScInOL2Kernel;
import org.onlinekernels.kernel.scalar.FloatScInOL2ScalarKernel;
import org.onlinekernels.kernel.scalar.FloatVirtualLanes;

/**
 * Vector float ScInOL2. Every lane performs the operations of
 * {@link FloatScInOL2ScalarKernel#weight} and {@link FloatScInOL2ScalarKernel#eta} in the same
 * order (no FMA outside the {@code yhat} sum) with the {@code s == 0} and {@code g x == 0} rules as
 * masks and blends, so the state agrees with the scalar kernel bit for bit; {@code yhat} is summed
 * in {@link FloatVirtualLanes}'s order, so it does too, at every width. Tails run the scalar
 * kernel's range methods. Source of the generated {@code Double} twin: edit only this file.
 */
public final class FloatScInOL2VectorKernel extends ScInOL2Kernel {
  /** The one instance. */
  public static final FloatScInOL2VectorKernel INSTANCE = new FloatScInOL2VectorKernel();

  private static final VectorSpecies<Float> S = FLOAT_SPECIES;
  private static final int P = VectorConstants.PARTS;
  private static final int L = S.length();
  private static final long VB = (long) L * Float.BYTES;
  private static final ValueLayout.OfFloat E = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;

  private FloatScInOL2VectorKernel() {
    super(ElementType.FLOAT);
  }

  private static FloatVector load(MemorySegment m, long byteOffset) {
    return FloatVector.fromMemorySegment(S, m, byteOffset, ORDER);
  }

  /**
   * Lane-wise {@link FloatScInOL2ScalarKernel#weight}. Its {@code sgn(theta) * min(|theta|, 1)} is
   * computed here, and in the loops, as {@code theta} clamped to [-1, 1] by two compares and two
   * blends: bit for bit the same value (for {@code |theta| <= 1}, {@code sgn * |theta|} is
   * {@code theta} exactly, signed zeros included; NaN stays NaN) in a third of the instructions.
   * With {@link #eta}'s saturation done the same way, measured (JMH, float, d = 16,384, A/B
   * alternating in one session): round 1.20-1.44 -> 0.97-1.06 ns/coord, stored-w round 0.82-0.85
   * -> 0.68-0.79.
   */
  private static FloatVector weight(FloatVector bigG, FloatVector q, FloatVector eta) {
    FloatVector s = q.lanewise(VectorOperators.SQRT);
    VectorMask<Float> sZero = s.compare(VectorOperators.EQ, 0f);
    FloatVector theta = bigG.div(s);
    FloatVector w = theta.blend(1f, theta.compare(VectorOperators.GT, 1f)).blend(-1f, theta.compare(VectorOperators.LT, -1f)).mul(eta).div(s.mul(2f));
    return saturate(w).blend(0f, sZero);
  }

  private static final float WEALTH_CAP = (float) ScInOL2Kernel.FLOAT_WEALTH_CAP;

  /**
   * Lane-wise saturation of a weight into {@code [-W_MAX, W_MAX]}, as the scalar kernel's min and
   * max: compares and blends (NaN compares false and stays NaN; the bounds are nonzero, so the
   * signed-zero rule never applies). Small enough to be inlined into the loops.
   */
  private static FloatVector saturate(FloatVector w) {
    return w.blend(W_MAX, w.compare(VectorOperators.GT, W_MAX)).blend(-W_MAX, w.compare(VectorOperators.LT, -W_MAX));
  }

  private static final float W_MAX = Float.MAX_VALUE;

  /** Lane-wise {@link FloatScInOL2ScalarKernel#eta}. */
  private static FloatVector eta(FloatVector eta, FloatVector gx, FloatVector w) {
    // Saturation as in the scalar kernel's min and max, as compares and blends: the same value for
    // every input (NaN compares false and stays NaN; the caps are nonzero, so the signed-zero
    // rule of min/max never applies), in 4 instructions instead of about 10 for Java's min/max.
    FloatVector e = eta.sub(gx.mul(w));
    e = e.blend(WEALTH_CAP, e.compare(VectorOperators.GT, WEALTH_CAP)).blend(-WEALTH_CAP, e.compare(VectorOperators.LT, -WEALTH_CAP));
    return eta.blend(e, gx.compare(VectorOperators.NE, 0f));
  }

  /** {@code acc + x w} with {@code w} zeroed where {@code x == 0} (an infinite {@code w} must not make {@code 0 * inf}). */
  private static FloatVector accumulate(FloatVector acc, FloatVector x, FloatVector w) {
    return x.fma(w.blend(0f, x.compare(VectorOperators.EQ, 0f)), acc);
  }

  @Override
  protected double predictDenseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int n,
      MemorySegment wOut) {
    // One virtual accumulator and one inlined copy of the lane body: the body (sqrt, division,
    // blends) bounds throughput, not the add latency that more accumulators would hide, and each
    // extra copy costs C2 inlining budget; past it the later copies box their vectors. At 512 bits
    // (P == 1, folded by C2) the accumulator is a register (through the lanes array the ScInOL2
    // predict measured 1.28x, bench-report/bit-identity.md); at narrower widths it lives in
    // the lanes array, the vector at i adding into lanes [i mod V, i mod V + L): FloatVirtualLanes's
    // order at every width.
    float[] p = FloatVirtualLanes.scratch();
    FloatVirtualLanes.clear(p, 1);
    FloatVector acc = FloatVector.zero(S);
    int bound1 = n - n % FloatVirtualLanes.LANES;
    for (int i = 0; i < bound1; i += L) {
      long o = (long) i * Float.BYTES;
      FloatVector xv = load(x, o);
      FloatVector mi = load(m, o).max(xv.abs());
      mi.intoMemorySegment(m, o, ORDER);
      // weight(G, S2 + M^2, eta) written out (same operations, same order): a vector helper of
      // that size gets compiled on its own first and is then not inlined, so every vector
      // passed to it would be boxed (measured: one heap vector per iteration).
      FloatVector s = load(s2, o).add(mi.mul(mi)).lanewise(VectorOperators.SQRT);
      FloatVector theta = load(bigG, o).div(s);
      FloatVector w = saturate(theta.blend(1f, theta.compare(VectorOperators.GT, 1f)).blend(-1f, theta.compare(VectorOperators.LT, -1f)).mul(load(eta, o)).div(s.mul(2f)))
          .blend(0f, s.compare(VectorOperators.EQ, 0f));
      if (wOut != null) {
        w.intoMemorySegment(wOut, o, ORDER);
      }
      if (P == 1) {
        acc = accumulate(acc, xv, w);
      } else {
        int lane = i % FloatVirtualLanes.LANES;
        accumulate(FloatVector.fromArray(S, p, lane), xv, w).intoArray(p, lane);
      }
    }
    if (P == 1) {
      acc.intoArray(p, 0);
    }
    FloatScInOL2ScalarKernel.predictDenseLanes(bigG, s2, m, eta, x, bound1, n, wOut, p);
    return FloatVirtualLanes.sum(p);
  }

  /**
   * Sparse rows run the scalar kernel's loop: each entry's state sits at a random coordinate, so
   * gathering 16 lanes into scratch arrays and scattering them back costs more than the vector
   * arithmetic saves (measured on rows of 8 to 200 entries, bench/report-notes.md), and rows shorter
   * than a vector only ran the tail anyway. The same holds for both updates below.
   */
  @Override
  protected double predictSparseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta,
      MemorySegment idx, MemorySegment val, int nnz, MemorySegment wOut) {
    return FloatScInOL2ScalarKernel.predictSparseRange(bigG, s2, m, eta, idx, val, 0, nnz, wOut);
  }

  @Override
  protected void updateDenseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int n, double g) {
    float gg = (float) g;
    FloatVector vg = FloatVector.broadcast(S, gg);
    int bound = S.loopBound(n);
    for (int i = 0; i < bound; i += L) {
      long o = (long) i * Float.BYTES;
      FloatVector gv = load(bigG, o), sv = load(s2, o), ev = load(eta, o), mi = load(m, o);
      // weight(G, S2 + M^2, eta) written out, as in the predict loop.
      FloatVector sq = sv.add(mi.mul(mi)).lanewise(VectorOperators.SQRT);
      FloatVector theta = gv.div(sq);
      FloatVector w = saturate(theta.blend(1f, theta.compare(VectorOperators.GT, 1f)).blend(-1f, theta.compare(VectorOperators.LT, -1f)).mul(ev).div(sq.mul(2f)))
          .blend(0f, sq.compare(VectorOperators.EQ, 0f));
      FloatVector gx = vg.mul(load(x, o));
      gv.sub(gx).intoMemorySegment(bigG, o, ORDER);
      sv.add(gx.mul(gx)).intoMemorySegment(s2, o, ORDER);
      eta(ev, gx, w).intoMemorySegment(eta, o, ORDER);
    }
    FloatScInOL2ScalarKernel.updateDenseRange(bigG, s2, m, eta, x, bound, n, gg);
  }

  @Override
  protected void updateDenseStoredImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment eta, MemorySegment w, MemorySegment x, int n, double g) {
    float gg = (float) g;
    FloatVector vg = FloatVector.broadcast(S, gg);
    int bound = S.loopBound(n);
    for (int i = 0; i < bound; i += L) {
      long o = (long) i * Float.BYTES;
      FloatVector gx = vg.mul(load(x, o));
      load(bigG, o).sub(gx).intoMemorySegment(bigG, o, ORDER);
      load(s2, o).add(gx.mul(gx)).intoMemorySegment(s2, o, ORDER);
      eta(load(eta, o), gx, load(w, o)).intoMemorySegment(eta, o, ORDER);
    }
    FloatScInOL2ScalarKernel.updateDenseStoredRange(bigG, s2, eta, w, x, bound, n, gg);
  }

  @Override
  protected void updateSparseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta,
      MemorySegment idx, MemorySegment val, int nnz, double g) {
    FloatScInOL2ScalarKernel.updateSparseRange(bigG, s2, m, eta, idx, val, 0, nnz, (float) g);
  }

  @Override
  protected void updateSparseStoredImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment eta, MemorySegment w,
      MemorySegment idx, MemorySegment val, int nnz, double g) {
    FloatScInOL2ScalarKernel.updateSparseStoredRange(bigG, s2, eta, w, idx, val, 0, nnz, (float) g);
  }

  @Override
  protected void weightsImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment out, int n) {
    int bound = S.loopBound(n);
    for (int i = 0; i < bound; i += L) {
      long o = (long) i * Float.BYTES;
      FloatVector mi = load(m, o);
      weight(load(bigG, o), load(s2, o).add(mi.mul(mi)), load(eta, o)).intoMemorySegment(out, o, ORDER);
    }
    FloatScInOL2ScalarKernel.weightsRange(bigG, s2, m, eta, out, bound, n);
  }
}
