package org.onlinekernels.kernel.vector;

import static org.onlinekernels.kernel.vector.VectorConstants.DOUBLE_SPECIES;
import static org.onlinekernels.kernel.vector.VectorConstants.ORDER;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;
import org.onlinekernels.kernel.MixedAdaGradKernel;
import org.onlinekernels.kernel.scalar.DoubleVirtualLanes;
import org.onlinekernels.kernel.scalar.MixedAdaGradScalarKernel;

/**
 * Vector mixed-precision AdaGrad. Works in double-width chunks: {@code LD} = lanes of the
 * preferred double species (4 on AVX2, 8 on AVX-512); the float buffers are read with a float
 * species of the same lane count (half the bit size) and widened with {@code F2D} (exact), the
 * results narrowed with {@code D2F} (round to nearest, as the scalar {@code (float)} cast). Every
 * lane performs exactly {@link MixedAdaGradScalarKernel#step}'s double operations in the same order
 * (no FMA in the update), so vector and scalar agree bit for bit. Tails run the scalar range methods.
 */
public final class MixedAdaGradVectorKernel extends MixedAdaGradKernel {
  /** The one instance. */
  public static final MixedAdaGradVectorKernel INSTANCE = new MixedAdaGradVectorKernel();

  private static final VectorSpecies<Double> DS = DOUBLE_SPECIES;
  private static final int LD = DS.length();
  private static final int P = VectorConstants.PARTS;
  private static final int V = DoubleVirtualLanes.LANES;
  /** Float species with as many lanes as {@link #DS}. */
  private static final VectorSpecies<Float> FS = VectorSpecies.of(float.class, VectorShape.forBitSize(LD * Float.SIZE));
  private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;

  private MixedAdaGradVectorKernel() {}

  /** {@code LD} floats at {@code byteOffset}, widened to double (exact). */
  private static DoubleVector loadF(MemorySegment m, long byteOffset) {
    return (DoubleVector) FloatVector.fromMemorySegment(FS, m, byteOffset, ORDER).convertShape(VectorOperators.F2D, DS, 0);
  }

  private static DoubleVector loadD(MemorySegment m, long byteOffset) {
    return DoubleVector.fromMemorySegment(DS, m, byteOffset, ORDER);
  }

  /** Narrows {@code v} to float (round to nearest) and stores it at {@code byteOffset}. */
  private static void storeF(DoubleVector v, MemorySegment m, long byteOffset) {
    ((FloatVector) v.convertShape(VectorOperators.D2F, FS, 0)).intoMemorySegment(m, byteOffset, ORDER);
  }

  @Override
  protected void updateDenseImpl(
      MemorySegment w, MemorySegment q, MemorySegment x, int n,
      double scale, double eta, double delta, double lo, double hi) {
    double a = (float) lo, b = (float) hi;
    DoubleVector vsc = DoubleVector.broadcast(DS, scale), vet = DoubleVector.broadcast(DS, eta);
    DoubleVector vde = DoubleVector.broadcast(DS, delta);
    DoubleVector vlo = DoubleVector.broadcast(DS, a), vhi = DoubleVector.broadcast(DS, b);
    int bound = DS.loopBound(n);
    for (int i = 0; i < bound; i += LD) {
      long of = (long) i * Float.BYTES, od = (long) i * Double.BYTES;
      DoubleVector g = vsc.mul(loadF(x, of));
      DoubleVector qn = loadD(q, od).add(g.mul(g));
      qn.intoMemorySegment(q, od, ORDER);
      DoubleVector wd = loadF(w, of);
      DoubleVector denom = vde.add(qn.lanewise(VectorOperators.SQRT));
      DoubleVector moved = wd.sub(vet.mul(g).div(denom)).max(vlo).min(vhi);
      storeF(wd.blend(moved, denom.compare(VectorOperators.GT, 0.0)), w, of);
    }
    MixedAdaGradScalarKernel.denseRange(w, q, x, bound, n, scale, eta, delta, a, b);
  }

  @Override
  protected void updateDenseBoxedImpl(
      MemorySegment w, MemorySegment q, MemorySegment lo, MemorySegment hi, MemorySegment x, int n,
      double scale, double rate, boolean rateFromWidth, double delta) {
    DoubleVector vsc = DoubleVector.broadcast(DS, scale), vra = DoubleVector.broadcast(DS, rate);
    DoubleVector vde = DoubleVector.broadcast(DS, delta);
    int bound = DS.loopBound(n);
    for (int i = 0; i < bound; i += LD) {
      long of = (long) i * Float.BYTES, od = (long) i * Double.BYTES;
      DoubleVector a = loadF(lo, of), b = loadF(hi, of);
      DoubleVector et = rateFromWidth ? vra.mul(b.sub(a)) : vra;
      DoubleVector g = vsc.mul(loadF(x, of));
      DoubleVector qn = loadD(q, od).add(g.mul(g));
      qn.intoMemorySegment(q, od, ORDER);
      DoubleVector wd = loadF(w, of);
      DoubleVector denom = vde.add(qn.lanewise(VectorOperators.SQRT));
      DoubleVector moved = wd.sub(et.mul(g).div(denom)).max(a).min(b);
      storeF(wd.blend(moved, denom.compare(VectorOperators.GT, 0.0)), w, of);
    }
    MixedAdaGradScalarKernel.denseBoxedRange(w, q, lo, hi, x, bound, n, scale, rate, rateFromWidth, delta);
  }

  @Override
  protected void updateSparseImpl(
      MemorySegment w, MemorySegment q, MemorySegment idx, MemorySegment val, int nnz,
      double scale, double eta, double delta, double lo, double hi) {
    double a = (float) lo, b = (float) hi;
    DoubleVector vsc = DoubleVector.broadcast(DS, scale), vet = DoubleVector.broadcast(DS, eta);
    DoubleVector vde = DoubleVector.broadcast(DS, delta);
    DoubleVector vlo = DoubleVector.broadcast(DS, a), vhi = DoubleVector.broadcast(DS, b);
    DoubleLaneScratch s = DoubleLaneScratch.get();
    double[] ws = s.lanes[0], qs = s.lanes[1];
    int[] ix = s.idx;
    int bound = DS.loopBound(nnz);
    for (int j = 0; j < bound; j += LD) {
      for (int k = 0; k < LD; k++) {
        int i = idx.getAtIndex(I, j + k);
        ix[k] = i;
        ws[k] = w.getAtIndex(F, i);
        qs[k] = q.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
      }
      DoubleVector g = vsc.mul(loadF(val, (long) j * Float.BYTES));
      DoubleVector qn = DoubleVector.fromArray(DS, qs, 0).add(g.mul(g));
      qn.intoArray(qs, 0);
      DoubleVector wd = DoubleVector.fromArray(DS, ws, 0);
      DoubleVector denom = vde.add(qn.lanewise(VectorOperators.SQRT));
      DoubleVector moved = wd.sub(vet.mul(g).div(denom)).max(vlo).min(vhi);
      wd.blend(moved, denom.compare(VectorOperators.GT, 0.0)).intoArray(ws, 0);
      for (int k = 0; k < LD; k++) {
        q.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, ix[k], qs[k]);
        w.setAtIndex(F, ix[k], (float) ws[k]);
      }
    }
    MixedAdaGradScalarKernel.sparseRange(w, q, idx, val, bound, nnz, scale, eta, delta, a, b);
  }

  @Override
  protected void updateSparseBoxedImpl(
      MemorySegment w, MemorySegment q, MemorySegment lo, MemorySegment hi,
      MemorySegment idx, MemorySegment val, int nnz,
      double scale, double rate, boolean rateFromWidth, double delta) {
    DoubleVector vsc = DoubleVector.broadcast(DS, scale), vra = DoubleVector.broadcast(DS, rate);
    DoubleVector vde = DoubleVector.broadcast(DS, delta);
    DoubleLaneScratch s = DoubleLaneScratch.get();
    double[] ws = s.lanes[0], qs = s.lanes[1], as = s.lanes[2], bs = s.lanes[3];
    int[] ix = s.idx;
    int bound = DS.loopBound(nnz);
    for (int j = 0; j < bound; j += LD) {
      for (int k = 0; k < LD; k++) {
        int i = idx.getAtIndex(I, j + k);
        ix[k] = i;
        ws[k] = w.getAtIndex(F, i);
        qs[k] = q.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
        as[k] = lo.getAtIndex(F, i);
        bs[k] = hi.getAtIndex(F, i);
      }
      DoubleVector a = DoubleVector.fromArray(DS, as, 0), b = DoubleVector.fromArray(DS, bs, 0);
      DoubleVector et = rateFromWidth ? vra.mul(b.sub(a)) : vra;
      DoubleVector g = vsc.mul(loadF(val, (long) j * Float.BYTES));
      DoubleVector qn = DoubleVector.fromArray(DS, qs, 0).add(g.mul(g));
      qn.intoArray(qs, 0);
      DoubleVector wd = DoubleVector.fromArray(DS, ws, 0);
      DoubleVector denom = vde.add(qn.lanewise(VectorOperators.SQRT));
      DoubleVector moved = wd.sub(et.mul(g).div(denom)).max(a).min(b);
      wd.blend(moved, denom.compare(VectorOperators.GT, 0.0)).intoArray(ws, 0);
      for (int k = 0; k < LD; k++) {
        q.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, ix[k], qs[k]);
        w.setAtIndex(F, ix[k], (float) ws[k]);
      }
    }
    MixedAdaGradScalarKernel.sparseBoxedRange(w, q, lo, hi, idx, val, bound, nnz, scale, rate, rateFromWidth, delta);
  }

  /**
   * {@code sum w_i x_i} in {@link DoubleVirtualLanes}'s order with two virtual accumulators
   * (registers at 512 and 256 bits, else the lanes array, as in {@link FloatLinearAlgebraVectorKernel}):
   * the scalar kernel's bits at every width.
   */
  @Override
  protected double dotImpl(MemorySegment w, MemorySegment x, int n) {
    // Products of two floats are exact in double, so fma and mul+add give the same sums.
    double[] p = DoubleVirtualLanes.scratch();
    int bound2 = n - n % (2 * V);
    int bound1 = n - n % V;
    if (P <= 2) {
      // The 2 P hardware partial sums in registers, spilled in address order.
      DoubleVector acc0 = DoubleVector.zero(DS), acc1 = acc0, acc2 = acc0, acc3 = acc0;
      int i = 0;
      long vb = (long) LD * Float.BYTES;
      for (; i < bound2; i += 2 * V) {
        long o = (long) i * Float.BYTES;
        acc0 = loadF(w, o).fma(loadF(x, o), acc0);
        acc1 = loadF(w, o + vb).fma(loadF(x, o + vb), acc1);
        if (P == 2) {
          acc2 = loadF(w, o + 2 * vb).fma(loadF(x, o + 2 * vb), acc2);
          acc3 = loadF(w, o + 3 * vb).fma(loadF(x, o + 3 * vb), acc3);
        }
      }
      for (; i < bound1; i += V) {
        long o = (long) i * Float.BYTES;
        acc0 = loadF(w, o).fma(loadF(x, o), acc0);
        if (P == 2) {
          acc1 = loadF(w, o + vb).fma(loadF(x, o + vb), acc1);
        }
      }
      acc0.intoArray(p, 0);
      acc1.intoArray(p, LD);
      if (P == 2) {
        acc2.intoArray(p, 2 * LD);
        acc3.intoArray(p, 3 * LD);
      }
    } else {
      DoubleVirtualLanes.clear(p, 2);
      for (int i = 0; i < bound1; i += LD) {
        int c = i < bound2 ? i % (2 * V) : i % V;
        long o = (long) i * Float.BYTES;
        loadF(w, o).fma(loadF(x, o), DoubleVector.fromArray(DS, p, c)).intoArray(p, c);
      }
    }
    DoubleVirtualLanes.combine(p, 2);
    MixedAdaGradScalarKernel.dotTail(w, x, bound1, n, p);
    return DoubleVirtualLanes.sum(p);
  }

  @Override
  protected double dotSparseImpl(MemorySegment w, MemorySegment idx, MemorySegment val, int nnz) {
    return MixedAdaGradScalarKernel.dotSparseRange(w, idx, val, 0, nnz);
  }
}
