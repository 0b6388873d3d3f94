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
import org.onlinekernels.kernel.MixedScInOL2Kernel;
import org.onlinekernels.kernel.ScInOL2Kernel;
import org.onlinekernels.kernel.scalar.DoubleVirtualLanes;
import org.onlinekernels.kernel.scalar.MixedScInOL2ScalarKernel;

/**
 * Vector mixed-precision ScInOL2 in double-width chunks (see {@link MixedAdaGradVectorKernel}):
 * float {@code x} and {@code M} are read with a float species of the double species' lane count
 * and widened exactly; every lane performs {@link MixedScInOL2ScalarKernel#weight} and
 * {@link MixedScInOL2ScalarKernel#eta} in the same order, so the state agrees with the scalar
 * kernel bit for bit; only the {@code yhat} sum order differs. The lane math is written in the
 * loop bodies (no vector-taking helpers).
 */
public final class MixedScInOL2VectorKernel extends MixedScInOL2Kernel {
  /** The one instance. */
  public static final MixedScInOL2VectorKernel INSTANCE = new MixedScInOL2VectorKernel();

  private static final VectorSpecies<Double> DS = DOUBLE_SPECIES;
  private static final int P = VectorConstants.PARTS;
  private static final int LD = DS.length();
  private static final VectorSpecies<Float> FS = VectorSpecies.of(float.class, VectorShape.forBitSize(LD * Float.SIZE));
  private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;
  private static final double CAP = ScInOL2Kernel.DOUBLE_WEALTH_CAP;

  /** Lane-wise {@code clamp(w, -bound, bound)}, as the scalar kernel's min and max (NaN stays NaN). */
  private static DoubleVector saturate(DoubleVector w, double bound) {
    return w.blend(bound, w.compare(VectorOperators.GT, bound)).blend(-bound, w.compare(VectorOperators.LT, -bound));
  }

  /** Weights saturate at double's largest finite value, the read-out at float's (MixedScInOL2Kernel). */
  private static final double W_MAX = Double.MAX_VALUE;
  private static final double READ_OUT_MAX = Float.MAX_VALUE;

  private MixedScInOL2VectorKernel() {}

  private static FloatVector loadFloat(MemorySegment m, long byteOffset) {
    return FloatVector.fromMemorySegment(FS, m, byteOffset, ORDER);
  }

  private static DoubleVector widen(FloatVector v) {
    return (DoubleVector) v.convertShape(VectorOperators.F2D, DS, 0);
  }

  private static DoubleVector loadD(MemorySegment m, long byteOffset) {
    return DoubleVector.fromMemorySegment(DS, m, byteOffset, ORDER);
  }

  @Override
  protected double predictDenseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int n) {
    // One virtual accumulator: a register at 512 bits, else in the lanes array, as in
    // FloatScInOL2VectorKernel (why: there).
    double[] p = DoubleVirtualLanes.scratch();
    DoubleVirtualLanes.clear(p, 1);
    DoubleVector acc = DoubleVector.zero(DS);
    int bound = n - n % DoubleVirtualLanes.LANES;
    for (int i = 0; i < bound; i += LD) {
      long of = (long) i * Float.BYTES, od = (long) i * Double.BYTES;
      FloatVector xf = loadFloat(x, of);
      FloatVector mf = loadFloat(m, of).max(xf.abs());
      mf.intoMemorySegment(m, of, ORDER);
      DoubleVector md = widen(mf), xd = widen(xf);
      DoubleVector s = loadD(s2, od).add(md.mul(md)).lanewise(VectorOperators.SQRT);
      DoubleVector theta = loadD(bigG, od).div(s);
      DoubleVector w = saturate(theta.blend(1.0, theta.compare(VectorOperators.GT, 1.0)).blend(-1.0, theta.compare(VectorOperators.LT, -1.0)).mul(loadD(eta, od)).div(s.mul(2.0)), W_MAX)
          .blend(0.0, s.compare(VectorOperators.EQ, 0.0));
      if (P == 1) {
        acc = xd.fma(w.blend(0.0, xd.compare(VectorOperators.EQ, 0.0)), acc);
      } else {
        int lane = i % DoubleVirtualLanes.LANES;
        xd.fma(w.blend(0.0, xd.compare(VectorOperators.EQ, 0.0)), DoubleVector.fromArray(DS, p, lane)).intoArray(p, lane);
      }
    }
    if (P == 1) {
      acc.intoArray(p, 0);
    }
    MixedScInOL2ScalarKernel.predictDenseLanes(bigG, s2, m, eta, x, bound, n, p);
    return DoubleVirtualLanes.sum(p);
  }

  /** Sparse rows run the scalar kernel's loop, as in {@link FloatScInOL2VectorKernel} (why: there). */
  @Override
  protected double predictSparseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta,
      MemorySegment idx, MemorySegment val, int nnz) {
    return MixedScInOL2ScalarKernel.predictSparseRange(bigG, s2, m, eta, idx, val, 0, nnz);
  }

  @Override
  protected void updateDenseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int n, double g) {
    DoubleVector vg = DoubleVector.broadcast(DS, g);
    int bound = DS.loopBound(n);
    for (int i = 0; i < bound; i += LD) {
      long of = (long) i * Float.BYTES, od = (long) i * Double.BYTES;
      DoubleVector gv = loadD(bigG, od), sv = loadD(s2, od), ev = loadD(eta, od), md = widen(loadFloat(m, of));
      DoubleVector sq = sv.add(md.mul(md)).lanewise(VectorOperators.SQRT);
      DoubleVector theta = gv.div(sq);
      DoubleVector w = saturate(theta.blend(1.0, theta.compare(VectorOperators.GT, 1.0)).blend(-1.0, theta.compare(VectorOperators.LT, -1.0)).mul(ev).div(sq.mul(2.0)), W_MAX)
          .blend(0.0, sq.compare(VectorOperators.EQ, 0.0));
      DoubleVector gx = vg.mul(widen(loadFloat(x, of)));
      gv.sub(gx).intoMemorySegment(bigG, od, ORDER);
      sv.add(gx.mul(gx)).intoMemorySegment(s2, od, ORDER);
      ev.blend(ev.sub(gx.mul(w)).min(CAP).max(-CAP), gx.compare(VectorOperators.NE, 0.0)).intoMemorySegment(eta, od, ORDER);
    }
    MixedScInOL2ScalarKernel.updateDenseRange(bigG, s2, m, eta, x, bound, n, g);
  }

  @Override
  protected void updateSparseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta,
      MemorySegment idx, MemorySegment val, int nnz, double g) {
    MixedScInOL2ScalarKernel.updateSparseRange(bigG, s2, m, eta, idx, val, 0, nnz, g);
  }

  @Override
  protected void weightsImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment out, int n) {
    int bound = DS.loopBound(n);
    for (int i = 0; i < bound; i += LD) {
      long of = (long) i * Float.BYTES, od = (long) i * Double.BYTES;
      DoubleVector md = widen(loadFloat(m, of));
      DoubleVector s = loadD(s2, od).add(md.mul(md)).lanewise(VectorOperators.SQRT);
      DoubleVector theta = loadD(bigG, od).div(s);
      DoubleVector w = saturate(theta.blend(1.0, theta.compare(VectorOperators.GT, 1.0)).blend(-1.0, theta.compare(VectorOperators.LT, -1.0)).mul(loadD(eta, od)).div(s.mul(2.0)), W_MAX)
          .blend(0.0, s.compare(VectorOperators.EQ, 0.0));
      ((FloatVector) saturate(w, READ_OUT_MAX).convertShape(VectorOperators.D2F, FS, 0)).intoMemorySegment(out, of, ORDER);
    }
    MixedScInOL2ScalarKernel.weightsRange(bigG, s2, m, eta, out, bound, n);
  }
}
