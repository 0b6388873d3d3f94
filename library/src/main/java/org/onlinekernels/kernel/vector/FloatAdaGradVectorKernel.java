package org.onlinekernels.kernel.vector;

import static org.onlinekernels.kernel.vector.VectorConstants.FLOAT_SPECIES;
import static org.onlinekernels.kernel.vector.VectorConstants.ORDER;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.onlinekernels.kernel.AdaGradKernel;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.scalar.FloatAdaGradScalarKernel;

/**
 * Vector float AdaGrad. Every lane performs exactly the operations of
 * {@link FloatAdaGradScalarKernel#step} in the same order (no FMA), so vector and scalar agree
 * bit for bit; the "denominator is 0" rule is a mask and a blend, not a branch. Tails run the
 * scalar kernel's range methods. Source of the generated {@code Double} twin: edit only this file.
 */
public final class FloatAdaGradVectorKernel extends AdaGradKernel {
  /** The one instance. */
  public static final FloatAdaGradVectorKernel INSTANCE = new FloatAdaGradVectorKernel();

  private static final VectorSpecies<Float> S = FLOAT_SPECIES;
  private static final int L = S.length();
  private static final ValueLayout.OfFloat E = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;

  private FloatAdaGradVectorKernel() {
    super(ElementType.FLOAT);
  }

  private static FloatVector load(MemorySegment m, long byteOffset) {
    return FloatVector.fromMemorySegment(S, m, byteOffset, ORDER);
  }

  @Override
  protected void updateDenseImpl(
      MemorySegment w, MemorySegment q, MemorySegment x, int n,
      double scale, double eta, double delta, double lo, double hi) {
    float sc = (float) scale, et = (float) eta, de = (float) delta, a = (float) lo, b = (float) hi;
    int bound = S.loopBound(n);
    // The default box is unbounded, and there the clamp (max, min: about 12 instructions per
    // vector with their NaN handling) is the identity, bit for bit; the loop without it is
    // chosen once per call. The tail keeps the scalar rule with its clamp, equally the identity.
    if (a == Float.NEGATIVE_INFINITY && b == Float.POSITIVE_INFINITY) {
      denseUnbounded(w, q, x, bound, sc, et, de);
    } else {
      denseClamped(w, q, x, bound, sc, et, de, a, b);
    }
    FloatAdaGradScalarKernel.denseRange(w, q, x, bound, n, sc, et, de, a, b);
  }

  // The two loops below are separate methods that take no vectors: whether or not C2 inlines
  // them, no vector crosses a call, so none is boxed.

  private static void denseUnbounded(
      MemorySegment w, MemorySegment q, MemorySegment x, int bound, float sc, float et, float de) {
    FloatVector vsc = FloatVector.broadcast(S, sc), vet = FloatVector.broadcast(S, et);
    FloatVector vde = FloatVector.broadcast(S, de);
    for (int i = 0; i < bound; i += L) {
      long o = (long) i * Float.BYTES;
      FloatVector g = vsc.mul(load(x, o));
      FloatVector qn = load(q, o).add(g.mul(g));
      qn.intoMemorySegment(q, o, ORDER);
      // step() without the clamp: same operations, same order.
      FloatVector wv = load(w, o);
      FloatVector denom = vde.add(qn.lanewise(VectorOperators.SQRT));
      wv.blend(wv.sub(vet.mul(g).div(denom)), denom.compare(VectorOperators.GT, 0f)).intoMemorySegment(w, o, ORDER);
    }
  }

  private static void denseClamped(
      MemorySegment w, MemorySegment q, MemorySegment x, int bound, float sc, float et, float de, float a, float b) {
    FloatVector vsc = FloatVector.broadcast(S, sc), vet = FloatVector.broadcast(S, et);
    FloatVector vde = FloatVector.broadcast(S, de);
    FloatVector vlo = FloatVector.broadcast(S, a), vhi = FloatVector.broadcast(S, b);
    for (int i = 0; i < bound; i += L) {
      long o = (long) i * Float.BYTES;
      FloatVector g = vsc.mul(load(x, o));
      FloatVector qn = load(q, o).add(g.mul(g));
      qn.intoMemorySegment(q, o, ORDER);
      // step() written out (helpers this size are not inlined reliably; a vector passed to
      // a real call is boxed): same operations, same order.
      FloatVector wOld = load(w, o);
      FloatVector den = vde.add(qn.lanewise(VectorOperators.SQRT));
      wOld.blend(wOld.sub(vet.mul(g).div(den)).max(vlo).min(vhi), den.compare(VectorOperators.GT, 0f)).intoMemorySegment(w, o, ORDER);
    }
  }

  @Override
  protected void updateDenseBoxedImpl(
      MemorySegment w, MemorySegment q, MemorySegment lo, MemorySegment hi, MemorySegment x, int n,
      double scale, double rate, boolean rateFromWidth, double delta) {
    float sc = (float) scale, ra = (float) rate, de = (float) delta;
    FloatVector vsc = FloatVector.broadcast(S, sc), vra = FloatVector.broadcast(S, ra);
    FloatVector vde = FloatVector.broadcast(S, de);
    int bound = S.loopBound(n);
    for (int i = 0; i < bound; i += L) {
      long o = (long) i * Float.BYTES;
      FloatVector a = load(lo, o), b = load(hi, o);
      FloatVector eta = rateFromWidth ? vra.mul(b.sub(a)) : vra;
      FloatVector g = vsc.mul(load(x, o));
      FloatVector qn = load(q, o).add(g.mul(g));
      qn.intoMemorySegment(q, o, ORDER);
      // step() written out (helpers this size are not inlined reliably; a vector passed to
      // a real call is boxed): same operations, same order.
      FloatVector wOld = load(w, o);
      FloatVector den = vde.add(qn.lanewise(VectorOperators.SQRT));
      wOld.blend(wOld.sub(eta.mul(g).div(den)).max(a).min(b), den.compare(VectorOperators.GT, 0f)).intoMemorySegment(w, o, ORDER);
    }
    FloatAdaGradScalarKernel.denseBoxedRange(w, q, lo, hi, x, bound, n, sc, ra, rateFromWidth, de);
  }

  @Override
  protected void updateSparseImpl(
      MemorySegment w, MemorySegment q, MemorySegment idx, MemorySegment val, int nnz,
      double scale, double eta, double delta, double lo, double hi) {
    float sc = (float) scale, et = (float) eta, de = (float) delta, a = (float) lo, b = (float) hi;
    if (a == Float.NEGATIVE_INFINITY && b == Float.POSITIVE_INFINITY) {
      // Unbounded (the default): the scalar loop, on purpose. The update waits on two cache
      // misses per nonzero, and gathering lanes into scratch arrays for the vector rule costs
      // more instructions per nonzero than the vector arithmetic saves (measured; see
      // FloatAdaGradScalarKernel.sparseUnboundedRange). Same operations, same bits.
      FloatAdaGradScalarKernel.sparseUnboundedRange(w, q, idx, val, 0, nnz, sc, et, de);
      return;
    }
    int bound = S.loopBound(nnz);
    sparseClamped(w, q, idx, val, bound, sc, et, de, a, b);
    FloatAdaGradScalarKernel.sparseRange(w, q, idx, val, bound, nnz, sc, et, de, a, b);
  }

  private static void sparseClamped(
      MemorySegment w, MemorySegment q, MemorySegment idx, MemorySegment val, int bound,
      float sc, float et, float de, float a, float b) {
    FloatVector vsc = FloatVector.broadcast(S, sc), vet = FloatVector.broadcast(S, et);
    FloatVector vde = FloatVector.broadcast(S, de);
    FloatVector vlo = FloatVector.broadcast(S, a), vhi = FloatVector.broadcast(S, b);
    FloatLaneScratch s = FloatLaneScratch.get();
    float[] ws = s.lanes[0], qs = s.lanes[1];
    int[] ix = s.idx;
    for (int j = 0; j < bound; j += L) {
      for (int k = 0; k < L; k++) {
        int i = idx.getAtIndex(I, j + k);
        ix[k] = i;
        ws[k] = w.getAtIndex(E, i);
        qs[k] = q.getAtIndex(E, i);
      }
      FloatVector g = vsc.mul(load(val, (long) j * Float.BYTES));
      FloatVector qn = FloatVector.fromArray(S, qs, 0).add(g.mul(g));
      qn.intoArray(qs, 0);
      // step() written out (helpers this size are not inlined reliably; a vector passed to
      // a real call is boxed): same operations, same order.
      FloatVector wOld = FloatVector.fromArray(S, ws, 0);
      FloatVector den = vde.add(qn.lanewise(VectorOperators.SQRT));
      wOld.blend(wOld.sub(vet.mul(g).div(den)).max(vlo).min(vhi), den.compare(VectorOperators.GT, 0f)).intoArray(ws, 0);
      for (int k = 0; k < L; k++) {
        q.setAtIndex(E, ix[k], qs[k]);
        w.setAtIndex(E, ix[k], ws[k]);
      }
    }
  }

  @Override
  protected void updateSparseBoxedImpl(
      MemorySegment w, MemorySegment q, MemorySegment lo, MemorySegment hi,
      MemorySegment idx, MemorySegment val, int nnz,
      double scale, double rate, boolean rateFromWidth, double delta) {
    float sc = (float) scale, ra = (float) rate, de = (float) delta;
    FloatVector vsc = FloatVector.broadcast(S, sc), vra = FloatVector.broadcast(S, ra);
    FloatVector vde = FloatVector.broadcast(S, de);
    FloatLaneScratch s = FloatLaneScratch.get();
    float[] ws = s.lanes[0], qs = s.lanes[1], as = s.lanes[2], bs = s.lanes[3];
    int[] ix = s.idx;
    int bound = S.loopBound(nnz);
    for (int j = 0; j < bound; j += L) {
      for (int k = 0; k < L; k++) {
        int i = idx.getAtIndex(I, j + k);
        ix[k] = i;
        ws[k] = w.getAtIndex(E, i);
        qs[k] = q.getAtIndex(E, i);
        as[k] = lo.getAtIndex(E, i);
        bs[k] = hi.getAtIndex(E, i);
      }
      FloatVector a = FloatVector.fromArray(S, as, 0), b = FloatVector.fromArray(S, bs, 0);
      FloatVector eta = rateFromWidth ? vra.mul(b.sub(a)) : vra;
      FloatVector g = vsc.mul(load(val, (long) j * Float.BYTES));
      FloatVector qn = FloatVector.fromArray(S, qs, 0).add(g.mul(g));
      qn.intoArray(qs, 0);
      // step() written out (helpers this size are not inlined reliably; a vector passed to
      // a real call is boxed): same operations, same order.
      FloatVector wOld = FloatVector.fromArray(S, ws, 0);
      FloatVector den = vde.add(qn.lanewise(VectorOperators.SQRT));
      wOld.blend(wOld.sub(eta.mul(g).div(den)).max(a).min(b), den.compare(VectorOperators.GT, 0f)).intoArray(ws, 0);
      for (int k = 0; k < L; k++) {
        q.setAtIndex(E, ix[k], qs[k]);
        w.setAtIndex(E, ix[k], ws[k]);
      }
    }
    FloatAdaGradScalarKernel.sparseBoxedRange(w, q, lo, hi, idx, val, bound, nnz, sc, ra, rateFromWidth, de);
  }
}
