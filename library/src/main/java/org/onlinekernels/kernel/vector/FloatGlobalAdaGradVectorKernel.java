package org.onlinekernels.kernel.vector;

import static org.onlinekernels.kernel.vector.VectorConstants.FLOAT_SPECIES;
import static org.onlinekernels.kernel.vector.VectorConstants.ORDER;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.GlobalAdaGradKernel;
import org.onlinekernels.kernel.scalar.FloatGlobalAdaGradScalarKernel;

/**
 * Vector float global-rate AdaGrad step. Every lane performs exactly the operations of
 * {@link FloatGlobalAdaGradScalarKernel#step} in the same order (no FMA: {@code w - eta g} must
 * round the product first, as the scalar rule does), so vector and scalar agree bit for bit.
 * Tails run the scalar kernel's range methods. Source of the generated {@code Double} twin: edit
 * only this file.
 */
public final class FloatGlobalAdaGradVectorKernel extends GlobalAdaGradKernel {
  /** The one instance. */
  public static final FloatGlobalAdaGradVectorKernel INSTANCE = new FloatGlobalAdaGradVectorKernel();

  private static final VectorSpecies<Float> S = FLOAT_SPECIES;
  private static final int L = S.length();
  private static final ValueLayout.OfFloat E = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;

  private FloatGlobalAdaGradVectorKernel() {
    super(ElementType.FLOAT);
  }

  private static FloatVector load(MemorySegment m, long byteOffset) {
    return FloatVector.fromMemorySegment(S, m, byteOffset, ORDER);
  }

  /** Lane-wise {@link FloatGlobalAdaGradScalarKernel#step}. */
  private static FloatVector step(FloatVector w, FloatVector g, FloatVector eta, FloatVector lo, FloatVector hi) {
    return w.sub(eta.mul(g)).max(lo).min(hi);
  }

  @Override
  protected void updateDenseImpl(
      MemorySegment w, MemorySegment x, int n, double scale, double eta, double lo, double hi) {
    float sc = (float) scale, et = (float) eta, a = (float) lo, b = (float) hi;
    FloatVector vsc = FloatVector.broadcast(S, sc), vet = FloatVector.broadcast(S, et);
    FloatVector vlo = FloatVector.broadcast(S, a), vhi = FloatVector.broadcast(S, b);
    int bound = S.loopBound(n);
    for (int i = 0; i < bound; i += L) {
      long o = (long) i * Float.BYTES;
      step(load(w, o), vsc.mul(load(x, o)), vet, vlo, vhi).intoMemorySegment(w, o, ORDER);
    }
    FloatGlobalAdaGradScalarKernel.denseRange(w, x, bound, n, sc, et, a, b);
  }

  @Override
  protected void updateDenseBoxedImpl(
      MemorySegment w, MemorySegment lo, MemorySegment hi, MemorySegment x, int n, double scale, double eta) {
    float sc = (float) scale, et = (float) eta;
    FloatVector vsc = FloatVector.broadcast(S, sc), vet = FloatVector.broadcast(S, et);
    int bound = S.loopBound(n);
    for (int i = 0; i < bound; i += L) {
      long o = (long) i * Float.BYTES;
      step(load(w, o), vsc.mul(load(x, o)), vet, load(lo, o), load(hi, o)).intoMemorySegment(w, o, ORDER);
    }
    FloatGlobalAdaGradScalarKernel.denseBoxedRange(w, lo, hi, x, bound, n, sc, et);
  }

  @Override
  protected void updateSparseImpl(
      MemorySegment w, MemorySegment idx, MemorySegment val, int nnz,
      double scale, double eta, double lo, double hi) {
    float sc = (float) scale, et = (float) eta, a = (float) lo, b = (float) hi;
    FloatVector vsc = FloatVector.broadcast(S, sc), vet = FloatVector.broadcast(S, et);
    FloatVector vlo = FloatVector.broadcast(S, a), vhi = FloatVector.broadcast(S, b);
    FloatLaneScratch s = FloatLaneScratch.get();
    float[] ws = s.lanes[0];
    int[] ix = s.idx;
    int bound = S.loopBound(nnz);
    for (int j = 0; j < bound; j += L) {
      for (int k = 0; k < L; k++) {
        int i = idx.getAtIndex(I, j + k);
        ix[k] = i;
        ws[k] = w.getAtIndex(E, i);
      }
      FloatVector g = vsc.mul(load(val, (long) j * Float.BYTES));
      step(FloatVector.fromArray(S, ws, 0), g, vet, vlo, vhi).intoArray(ws, 0);
      for (int k = 0; k < L; k++) {
        w.setAtIndex(E, ix[k], ws[k]);
      }
    }
    FloatGlobalAdaGradScalarKernel.sparseRange(w, idx, val, bound, nnz, sc, et, a, b);
  }

  @Override
  protected void updateSparseBoxedImpl(
      MemorySegment w, MemorySegment lo, MemorySegment hi,
      MemorySegment idx, MemorySegment val, int nnz, double scale, double eta) {
    float sc = (float) scale, et = (float) eta;
    FloatVector vsc = FloatVector.broadcast(S, sc), vet = FloatVector.broadcast(S, et);
    FloatLaneScratch s = FloatLaneScratch.get();
    float[] ws = s.lanes[0], as = s.lanes[1], bs = s.lanes[2];
    int[] ix = s.idx;
    int bound = S.loopBound(nnz);
    for (int j = 0; j < bound; j += L) {
      for (int k = 0; k < L; k++) {
        int i = idx.getAtIndex(I, j + k);
        ix[k] = i;
        ws[k] = w.getAtIndex(E, i);
        as[k] = lo.getAtIndex(E, i);
        bs[k] = hi.getAtIndex(E, i);
      }
      FloatVector g = vsc.mul(load(val, (long) j * Float.BYTES));
      step(FloatVector.fromArray(S, ws, 0), g, vet, FloatVector.fromArray(S, as, 0), FloatVector.fromArray(S, bs, 0))
          .intoArray(ws, 0);
      for (int k = 0; k < L; k++) {
        w.setAtIndex(E, ix[k], ws[k]);
      }
    }
    FloatGlobalAdaGradScalarKernel.sparseBoxedRange(w, lo, hi, idx, val, bound, nnz, sc, et);
  }
}
