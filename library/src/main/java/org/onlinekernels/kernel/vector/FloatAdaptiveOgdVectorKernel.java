package org.onlinekernels.kernel.vector;

import static org.onlinekernels.kernel.vector.VectorConstants.FLOAT_SPECIES;
import static org.onlinekernels.kernel.vector.VectorConstants.ORDER;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.onlinekernels.kernel.AdaptiveOgdKernel;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.scalar.FloatAdaptiveOgdScalarKernel;

/**
 * Vector float Adaptive OGD. Every lane performs exactly the operations of the per-lane rules in
 * {@link FloatAdaptiveOgdScalarKernel} in the same order (no FMA), so vector and scalar agree bit
 * for bit; the {@code 0/0 = 0} and "denominator 0: unchanged" rules are masks and blends. Tails
 * run the scalar kernel's range methods. Source of the generated {@code Double} twin: edit only
 * this file.
 */
public final class FloatAdaptiveOgdVectorKernel extends AdaptiveOgdKernel {
  /** The one instance. */
  public static final FloatAdaptiveOgdVectorKernel INSTANCE = new FloatAdaptiveOgdVectorKernel();

  private static final VectorSpecies<Float> S = FLOAT_SPECIES;
  private static final int L = S.length();
  private static final ValueLayout.OfFloat E = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;
  /** See the scalar kernel: absent sparse entries are {@code scale * ZERO} (a signed zero). */
  private static final float ZERO = 0;
  private static final FloatVector ZEROS = FloatVector.zero(S);
  private static final FloatVector ONES = FloatVector.broadcast(S, (float) 1);

  private FloatAdaptiveOgdVectorKernel() {
    super(ElementType.FLOAT);
  }

  private static FloatVector load(MemorySegment m, long byteOffset) {
    return FloatVector.fromMemorySegment(S, m, byteOffset, ORDER);
  }

  /** Lane-wise {@link FloatAdaptiveOgdScalarKernel#ballStep}. */
  private static FloatVector ballStep(FloatVector w, FloatVector g, FloatVector eta, FloatVector lambda, FloatVector p) {
    return w.sub(eta.mul(g.add(lambda.mul(w)))).mul(p);
  }

  @Override
  protected void ballUpdateDenseImpl(
      MemorySegment w, MemorySegment x, int n, double scale, double eta, double lambda, double p) {
    float sc = (float) scale, et = (float) eta, la = (float) lambda, pp = (float) p;
    FloatVector vsc = FloatVector.broadcast(S, sc), vet = FloatVector.broadcast(S, et);
    FloatVector vla = FloatVector.broadcast(S, la), vp = FloatVector.broadcast(S, pp);
    int bound = S.loopBound(n);
    for (int i = 0; i < bound; i += L) {
      long o = (long) i * Float.BYTES;
      ballStep(load(w, o), vsc.mul(load(x, o)), vet, vla, vp).intoMemorySegment(w, o, ORDER);
    }
    FloatAdaptiveOgdScalarKernel.ballDenseRange(w, x, bound, n, sc, et, la, pp);
  }

  @Override
  protected void ballUpdateSparseImpl(
      MemorySegment w, int n, MemorySegment idx, MemorySegment val, int nnz,
      double scale, double eta, double lambda, double p) {
    float sc = (float) scale, et = (float) eta, la = (float) lambda, pp = (float) p;
    // Blocks without a sparse entry see the gradient scale * 0, exactly what the dense pass sees.
    FloatVector gz = FloatVector.broadcast(S, sc * ZERO), vet = FloatVector.broadcast(S, et);
    FloatVector vla = FloatVector.broadcast(S, la), vp = FloatVector.broadcast(S, pp);
    int bound = S.loopBound(n);
    int j = 0;
    int next = nnz > 0 ? idx.getAtIndex(I, 0) : Integer.MAX_VALUE;
    for (int i = 0; i < bound; i += L) {
      if (next < i + L) {
        // Few blocks hold an entry when nnz << n; the scalar rule there is the same per lane.
        j = FloatAdaptiveOgdScalarKernel.ballSparseRange(w, idx, val, j, nnz, i, i + L, sc, et, la, pp);
        next = j < nnz ? idx.getAtIndex(I, j) : Integer.MAX_VALUE;
      } else {
        long o = (long) i * Float.BYTES;
        ballStep(load(w, o), gz, vet, vla, vp).intoMemorySegment(w, o, ORDER);
      }
    }
    FloatAdaptiveOgdScalarKernel.ballSparseRange(w, idx, val, j, nnz, bound, n, sc, et, la, pp);
  }

  @Override
  protected void coordinateUpdateDenseImpl(
      MemorySegment w, MemorySegment lsum, MemorySegment x, int n, double scale, double hsum, double radius) {
    float sc = (float) scale, hs = (float) hsum, r = (float) radius;
    FloatVector vsc = FloatVector.broadcast(S, sc), vhs = FloatVector.broadcast(S, hs);
    FloatVector vr = FloatVector.broadcast(S, r), vr3r = FloatVector.broadcast(S, 3 * (r * r));
    int bound = S.loopBound(n);
    for (int i = 0; i < bound; i += L) {
      long o = (long) i * Float.BYTES;
      FloatVector g = vsc.mul(load(x, o)), l = load(lsum, o);
      // lambda() and coordinateStep() written out (helpers this size are not inlined
      // reliably; a vector passed to a real call is boxed): same operations, same order.
      FloatVector lsv = vhs.add(l);
      FloatVector lc = g.mul(8f).mul(g).div(vr3r);
      FloatVector lden = lsv.mul(lsv).add(lc).lanewise(VectorOperators.SQRT).add(lsv).mul(2f);
      FloatVector la = ZEROS.blend(lc.div(lden), lden.compare(VectorOperators.GT, 0f));
      FloatVector ln = l.add(la);
      ln.intoMemorySegment(lsum, o, ORDER);
      FloatVector wOld = load(w, o);
      FloatVector cden = vhs.add(ln);
      FloatVector ceta = ONES.div(cden);
      wOld.blend(wOld.sub(ceta.mul(g.add(la.mul(wOld)))).max(vr.neg()).min(vr),
          cden.compare(VectorOperators.GT, 0f).and(g.compare(VectorOperators.NE, 0f))).intoMemorySegment(w, o, ORDER);
    }
    FloatAdaptiveOgdScalarKernel.coordinateDenseRange(w, lsum, x, bound, n, sc, hs, r);
  }

  @Override
  protected void coordinateUpdateDenseRadiiImpl(
      MemorySegment w, MemorySegment lsum, MemorySegment radii, MemorySegment x, int n, double scale, double hsum) {
    float sc = (float) scale, hs = (float) hsum;
    FloatVector vsc = FloatVector.broadcast(S, sc), vhs = FloatVector.broadcast(S, hs);
    int bound = S.loopBound(n);
    for (int i = 0; i < bound; i += L) {
      long o = (long) i * Float.BYTES;
      FloatVector r = load(radii, o);
      FloatVector g = vsc.mul(load(x, o)), l = load(lsum, o);
      // lambda() and coordinateStep() written out (helpers this size are not inlined
      // reliably; a vector passed to a real call is boxed): same operations, same order.
      FloatVector lsv = vhs.add(l);
      FloatVector lc = g.mul(8f).mul(g).div(r.mul(r).mul(3f));
      FloatVector lden = lsv.mul(lsv).add(lc).lanewise(VectorOperators.SQRT).add(lsv).mul(2f);
      FloatVector la = ZEROS.blend(lc.div(lden), lden.compare(VectorOperators.GT, 0f));
      FloatVector ln = l.add(la);
      ln.intoMemorySegment(lsum, o, ORDER);
      FloatVector wOld = load(w, o);
      FloatVector cden = vhs.add(ln);
      FloatVector ceta = ONES.div(cden);
      wOld.blend(wOld.sub(ceta.mul(g.add(la.mul(wOld)))).max(r.neg()).min(r),
          cden.compare(VectorOperators.GT, 0f).and(g.compare(VectorOperators.NE, 0f))).intoMemorySegment(w, o, ORDER);
    }
    FloatAdaptiveOgdScalarKernel.coordinateDenseRadiiRange(w, lsum, radii, x, bound, n, sc, hs);
  }

  @Override
  protected void coordinateUpdateSparseImpl(
      MemorySegment w, MemorySegment lsum, MemorySegment idx, MemorySegment val, int nnz,
      double scale, double hsum, double radius) {
    float sc = (float) scale, hs = (float) hsum, r = (float) radius;
    FloatVector vsc = FloatVector.broadcast(S, sc), vhs = FloatVector.broadcast(S, hs);
    FloatVector vr = FloatVector.broadcast(S, r), vr3r = FloatVector.broadcast(S, 3 * (r * r));
    FloatLaneScratch s = FloatLaneScratch.get();
    float[] ws = s.lanes[0], ls = s.lanes[1];
    int[] ix = s.idx;
    int bound = S.loopBound(nnz);
    for (int j = 0; j < bound; j += L) {
      for (int k = 0; k < L; k++) {
        int i = idx.getAtIndex(I, j + k);
        ix[k] = i;
        ws[k] = w.getAtIndex(E, i);
        ls[k] = lsum.getAtIndex(E, i);
      }
      FloatVector g = vsc.mul(load(val, (long) j * Float.BYTES));
      FloatVector l = FloatVector.fromArray(S, ls, 0);
      // lambda() and coordinateStep() written out (helpers this size are not inlined
      // reliably; a vector passed to a real call is boxed): same operations, same order.
      FloatVector lsv = vhs.add(l);
      FloatVector lc = g.mul(8f).mul(g).div(vr3r);
      FloatVector lden = lsv.mul(lsv).add(lc).lanewise(VectorOperators.SQRT).add(lsv).mul(2f);
      FloatVector la = ZEROS.blend(lc.div(lden), lden.compare(VectorOperators.GT, 0f));
      FloatVector ln = l.add(la);
      ln.intoArray(ls, 0);
      FloatVector wOld = FloatVector.fromArray(S, ws, 0);
      FloatVector cden = vhs.add(ln);
      FloatVector ceta = ONES.div(cden);
      wOld.blend(wOld.sub(ceta.mul(g.add(la.mul(wOld)))).max(vr.neg()).min(vr),
          cden.compare(VectorOperators.GT, 0f).and(g.compare(VectorOperators.NE, 0f))).intoArray(ws, 0);
      for (int k = 0; k < L; k++) {
        lsum.setAtIndex(E, ix[k], ls[k]);
        w.setAtIndex(E, ix[k], ws[k]);
      }
    }
    FloatAdaptiveOgdScalarKernel.coordinateSparseRange(w, lsum, idx, val, bound, nnz, sc, hs, r);
  }

  @Override
  protected void coordinateUpdateSparseRadiiImpl(
      MemorySegment w, MemorySegment lsum, MemorySegment radii,
      MemorySegment idx, MemorySegment val, int nnz, double scale, double hsum) {
    float sc = (float) scale, hs = (float) hsum;
    FloatVector vsc = FloatVector.broadcast(S, sc), vhs = FloatVector.broadcast(S, hs);
    FloatLaneScratch s = FloatLaneScratch.get();
    float[] ws = s.lanes[0], ls = s.lanes[1], rs = s.lanes[2];
    int[] ix = s.idx;
    int bound = S.loopBound(nnz);
    for (int j = 0; j < bound; j += L) {
      for (int k = 0; k < L; k++) {
        int i = idx.getAtIndex(I, j + k);
        ix[k] = i;
        ws[k] = w.getAtIndex(E, i);
        ls[k] = lsum.getAtIndex(E, i);
        rs[k] = radii.getAtIndex(E, i);
      }
      FloatVector g = vsc.mul(load(val, (long) j * Float.BYTES));
      FloatVector r = FloatVector.fromArray(S, rs, 0);
      FloatVector l = FloatVector.fromArray(S, ls, 0);
      // lambda() and coordinateStep() written out (helpers this size are not inlined
      // reliably; a vector passed to a real call is boxed): same operations, same order.
      FloatVector lsv = vhs.add(l);
      FloatVector lc = g.mul(8f).mul(g).div(r.mul(r).mul(3f));
      FloatVector lden = lsv.mul(lsv).add(lc).lanewise(VectorOperators.SQRT).add(lsv).mul(2f);
      FloatVector la = ZEROS.blend(lc.div(lden), lden.compare(VectorOperators.GT, 0f));
      FloatVector ln = l.add(la);
      ln.intoArray(ls, 0);
      FloatVector wOld = FloatVector.fromArray(S, ws, 0);
      FloatVector cden = vhs.add(ln);
      FloatVector ceta = ONES.div(cden);
      wOld.blend(wOld.sub(ceta.mul(g.add(la.mul(wOld)))).max(r.neg()).min(r),
          cden.compare(VectorOperators.GT, 0f).and(g.compare(VectorOperators.NE, 0f))).intoArray(ws, 0);
      for (int k = 0; k < L; k++) {
        lsum.setAtIndex(E, ix[k], ls[k]);
        w.setAtIndex(E, ix[k], ws[k]);
      }
    }
    FloatAdaptiveOgdScalarKernel.coordinateSparseRadiiRange(w, lsum, radii, idx, val, bound, nnz, sc, hs);
  }
}
