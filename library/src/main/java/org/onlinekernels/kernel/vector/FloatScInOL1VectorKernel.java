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
import org.onlinekernels.kernel.ScInOL1Kernel;
import org.onlinekernels.kernel.scalar.Expm1Constants;
import org.onlinekernels.kernel.scalar.FloatScInOL1ScalarKernel;
import org.onlinekernels.kernel.scalar.FloatVirtualLanes;

/**
 * Vector float ScInOL1. Every lane performs the operations of
 * {@link FloatScInOL1ScalarKernel#weight} and {@link FloatScInOL1ScalarKernel#beta} in the same
 * order (no FMA outside the {@code yhat} sum and {@code expm1}), with the {@code s == 0} and
 * {@code x*x == 0} rules as masks and blends. {@code expm1} is a polynomial written into each loop
 * (see {@link Expm1Constants} for the method, its accuracy and why not the Vector API's
 * SVML-backed {@code EXPM1}); the scalar kernel evaluates the same polynomial
 * ({@link FloatScInOL1ScalarKernel#expm1}), and {@code yhat} is summed in
 * {@link FloatVirtualLanes}'s order, so state, weights and {@code yhat} agree with the scalar
 * kernel bit for bit at every width. Tails run the scalar kernel's range methods. Source of the
 * generated {@code Double} twin: edit only this file.
 *
 * <p>Every lane body, {@code expm1} and {@code sgn} included, is written out in its loop: helpers
 * of this size are compiled on their own and then not inlined, and once the loop is large C2 stops
 * inlining even small ones (NodeCountInliningCutoff, seen with {@code -XX:+PrintInlining}); either
 * way every vector passed to them is boxed.
 */
public final class FloatScInOL1VectorKernel extends ScInOL1Kernel {
  /** The one instance. */
  public static final FloatScInOL1VectorKernel INSTANCE = new FloatScInOL1VectorKernel();

  private static final VectorSpecies<Float> S = FLOAT_SPECIES;
  private static final int P = VectorConstants.PARTS;
  private static final int L = S.length();
  private static final long VB = (long) L * Float.BYTES;
  private static final ValueLayout.OfFloat E = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;

  private FloatScInOL1VectorKernel() {
    super(ElementType.FLOAT);
  }

  private static FloatVector load(MemorySegment m, long byteOffset) {
    return FloatVector.fromMemorySegment(S, m, byteOffset, ORDER);
  }

  private static final float EXP_CAP = (float) ScInOL1Kernel.FLOAT_EXP_CAP;

  /**
   * The weight's saturation bound (ScInOL1Kernel), applied in the loops as {@code min} then
   * {@code max}: the scalar kernel's {@code Math.max(-W_MAX, Math.min(w, W_MAX))} lane-wise, bit
   * for bit. Two operations rather than a compare-and-blend helper: these loops are at C2's
   * inlining budget, past which their vectors are boxed.
   */
  private static final float W_MAX = Float.MAX_VALUE;
  private static final float LOG2E = Expm1Constants.FLOAT_LOG2E;
  private static final float ROUNDER = Expm1Constants.FLOAT_ROUNDER;
  private static final float LN2_HI = Expm1Constants.FLOAT_LN2_HI;
  private static final float LN2_LO = Expm1Constants.FLOAT_LN2_LO;
  private static final float[] COEFFS = Expm1Constants.floatCoefficients();
  private static final int SIGNIFICAND_BITS = Expm1Constants.FLOAT_SIGNIFICAND_BITS;

  @Override
  protected double predictDenseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment beta, MemorySegment x, int n,
      double t, double epsilon) {
    float ep = (float) epsilon, tt = (float) t;
    FloatVector veps = FloatVector.broadcast(S, ep), vt = FloatVector.broadcast(S, tt);
    // One virtual accumulator and one inlined copy of the lane body: the body (sqrt, division,
    // blends) bounds throughput, not the add latency that more accumulators would hide, and each
    // extra copy costs C2 inlining budget; past it the later copies box their vectors. At 512 bits
    // (P == 1, folded by C2) the accumulator is a register (through the lanes array the ScInOL2
    // predict measured 1.28x, bench-report/bit-identity.md); at narrower widths it lives in
    // the lanes array, the vector at i adding into lanes [i mod V, i mod V + L): FloatVirtualLanes's
    // order at every width.
    float[] lanes = FloatVirtualLanes.scratch();
    FloatVirtualLanes.clear(lanes, 1);
    FloatVector acc = FloatVector.zero(S);
    int bound1 = n - n % FloatVirtualLanes.LANES;
    for (int i = 0; i < bound1; i += L) {
      long o = (long) i * Float.BYTES;
      // The lane body written out: vector helpers this size get compiled on their own first and
      // are then not inlined, boxing every vector passed to them (measured: one per iteration).
      FloatVector xv = load(x, o);
      FloatVector mi = load(m, o).max(xv.abs());
      mi.intoMemorySegment(m, o, ORDER);
      FloatVector q = load(s2, o).add(mi.mul(mi));
      FloatVector x2 = xv.mul(xv);
      FloatVector bo = load(beta, o);
      FloatVector b = bo.blend(bo.min(veps.mul(q).div(x2.mul(vt))), x2.compare(VectorOperators.NE, 0f));
      b.intoMemorySegment(beta, o, ORDER);
      // weight(G, q, beta): FloatScInOL1ScalarKernel.weight, lane-wise. 0/0 would be NaN; masking
      // theta keeps NaN out of expm1 in the lanes blended to 0 at the end. sgn keeps ±0 and NaN.
      FloatVector s = q.lanewise(VectorOperators.SQRT);
      VectorMask<Float> sZero = s.compare(VectorOperators.EQ, 0f);
      FloatVector theta = load(bigG, o).div(s).blend(0f, sZero);
      // expm1(h), h = min(|theta| * 0.5, cap) (|theta| * 0.5 equals the scalar |theta| / 2 bit
      // for bit; the min as a compare and a blend, the same value, NaN included); the method is
      // in Expm1Constants.
      FloatVector h = theta.abs().mul(0.5f);
      h = h.blend(EXP_CAP, h.compare(VectorOperators.GT, EXP_CAP));
      FloatVector kr = h.fma(LOG2E, ROUNDER);
      FloatVector nk = kr.sub(ROUNDER).neg();
      FloatVector r = nk.fma(FloatVector.broadcast(S, LN2_LO), nk.fma(FloatVector.broadcast(S, LN2_HI), h));
      FloatVector p = FloatVector.broadcast(S, COEFFS[0]);
      for (int c = 1; c < COEFFS.length; c++) {
        p = p.fma(r, FloatVector.broadcast(S, COEFFS[c]));
      }
      FloatVector twoK = kr.reinterpretAsInts().add(Expm1Constants.FLOAT_BITS_OFFSET)
          .lanewise(VectorOperators.LSHL, SIGNIFICAND_BITS).reinterpretAsFloats();
      FloatVector e = r.mul(r).fma(p, r).fma(twoK, twoK.sub(1f));
      FloatVector sgn = theta.blend(1f, theta.compare(VectorOperators.GT, 0f)).blend(-1f, theta.compare(VectorOperators.LT, 0f));
      FloatVector w = b.mul(sgn).mul(e).div(s.mul(2f)).min(W_MAX).max(-W_MAX).blend(0f, sZero);
      if (P == 1) {
        acc = xv.fma(w.blend(0f, xv.compare(VectorOperators.EQ, 0f)), acc);
      } else {
        int lane = i % FloatVirtualLanes.LANES;
        xv.fma(w.blend(0f, xv.compare(VectorOperators.EQ, 0f)), FloatVector.fromArray(S, lanes, lane)).intoArray(lanes, lane);
      }
    }
    if (P == 1) {
      acc.intoArray(lanes, 0);
    }
    FloatScInOL1ScalarKernel.predictDenseLanes(bigG, s2, m, beta, x, bound1, n, ep, tt, lanes);
    return FloatVirtualLanes.sum(lanes);
  }

  /**
   * Sparse rows run the scalar kernel's loop, as ScInOL2's do: a row's
   * coordinates are random, so the lane gathers cost more than the vector arithmetic saves, and
   * the gathered loop's boxing depended on which element type C2 saw first (measured: 160-1232
   * bytes per call in one JIT order of the allocation probe).
   */
  @Override
  protected double predictSparseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment beta,
      MemorySegment idx, MemorySegment val, int nnz, double t, double epsilon) {
    return FloatScInOL1ScalarKernel.predictSparseRange(bigG, s2, m, beta, idx, val, 0, nnz, (float) epsilon, (float) t);
  }

  @Override
  protected void updateDenseImpl(MemorySegment bigG, MemorySegment s2, MemorySegment x, int n, double g) {
    float gg = (float) g;
    FloatVector vg = FloatVector.broadcast(S, gg);
    int bound = S.loopBound(n);
    for (int i = 0; i < bound; i += L) {
      long o = (long) i * Float.BYTES;
      FloatVector gx = vg.mul(load(x, o));
      load(bigG, o).sub(gx).intoMemorySegment(bigG, o, ORDER);
      load(s2, o).add(gx.mul(gx)).intoMemorySegment(s2, o, ORDER);
    }
    FloatScInOL1ScalarKernel.updateDenseRange(bigG, s2, x, bound, n, gg);
  }

  @Override
  protected void updateSparseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment idx, MemorySegment val, int nnz, double g) {
    FloatScInOL1ScalarKernel.updateSparseRange(bigG, s2, idx, val, 0, nnz, (float) g);
  }

  @Override
  protected void weightsImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment beta, MemorySegment out, int n) {
    int bound = S.loopBound(n);
    for (int i = 0; i < bound; i += L) {
      long o = (long) i * Float.BYTES;
      FloatVector mi = load(m, o);
      FloatVector q = load(s2, o).add(mi.mul(mi));
      // weight(G, q, beta), as in the predict loops.
      FloatVector s = q.lanewise(VectorOperators.SQRT);
      VectorMask<Float> sZero = s.compare(VectorOperators.EQ, 0f);
      FloatVector theta = load(bigG, o).div(s).blend(0f, sZero);
      // expm1(h), h = min(|theta| * 0.5, cap) (|theta| * 0.5 equals the scalar |theta| / 2 bit
      // for bit; the min as a compare and a blend, the same value, NaN included); the method is
      // in Expm1Constants.
      FloatVector h = theta.abs().mul(0.5f);
      h = h.blend(EXP_CAP, h.compare(VectorOperators.GT, EXP_CAP));
      FloatVector kr = h.fma(LOG2E, ROUNDER);
      FloatVector nk = kr.sub(ROUNDER).neg();
      FloatVector r = nk.fma(FloatVector.broadcast(S, LN2_LO), nk.fma(FloatVector.broadcast(S, LN2_HI), h));
      FloatVector p = FloatVector.broadcast(S, COEFFS[0]);
      for (int c = 1; c < COEFFS.length; c++) {
        p = p.fma(r, FloatVector.broadcast(S, COEFFS[c]));
      }
      FloatVector twoK = kr.reinterpretAsInts().add(Expm1Constants.FLOAT_BITS_OFFSET)
          .lanewise(VectorOperators.LSHL, SIGNIFICAND_BITS).reinterpretAsFloats();
      FloatVector e = r.mul(r).fma(p, r).fma(twoK, twoK.sub(1f));
      FloatVector sgn = theta.blend(1f, theta.compare(VectorOperators.GT, 0f)).blend(-1f, theta.compare(VectorOperators.LT, 0f));
      load(beta, o).mul(sgn).mul(e).div(s.mul(2f)).min(W_MAX).max(-W_MAX).blend(0f, sZero).intoMemorySegment(out, o, ORDER);
    }
    FloatScInOL1ScalarKernel.weightsRange(bigG, s2, m, beta, out, bound, n);
  }
}
