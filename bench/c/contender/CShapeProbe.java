import jdk.incubator.vector.*;
import java.util.*;
/**
 * Issue #21: can the Vector API take the C contender's shape? ScInOL2 float rounds on 16-byte
 * interleaved records, two ways over the same rows, alternating in one JVM:
 *
 * <ul>
 *   <li>{@code current}: the library's gathered round as generated (a scalar gather of each field
 *       into an array, the predict and update lane-wise over those arrays in the preferred species,
 *       the four partial sums, a scalar scatter);
 *   <li>{@code c-shape}: the C contender's SIMD body (rules.h {@code s2_four}): four records loaded
 *       whole (128-bit), transposed in registers into G, S2, M, eta with two-input rearranges, the
 *       predict on 4 lanes; the update transposes back and stores whole records.
 * </ul>
 *
 * Both compute the same lane operations as {@code FloatScInOL2Vectors} (the loss derivative is a
 * stand-in, {@code 1 / (1 + exp(yhat)) - 1/2}, the same in both), and the run ends by comparing the
 * two states bit for bit. Rows: {@code 8,000,000 / NNZ} Zipf rows over {@code d}, generated here.
 *
 * <p>{@code java --add-modules jdk.incubator.vector bench/c/contender/CShapeProbe.java D NNZ}
 */
public final class CShapeProbe {
  static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED, S4 = FloatVector.SPECIES_128;
  static final int L = S.length();
  static final float W_MAX = Float.MAX_VALUE, CAP = 1e30f;
  static final VectorShuffle<Float> LO = VectorShuffle.fromValues(S4, 0, 4, 1, 5), HI = VectorShuffle.fromValues(S4, 2, 6, 3, 7);
  static final VectorShuffle<Float> LO2 = VectorShuffle.fromValues(S4, 0, 1, 4, 5), HI2 = VectorShuffle.fromValues(S4, 2, 3, 6, 7);
  float[] rG, rS, rM, rE, oM, oW, con;
  CShapeProbe(int n) { rG = new float[n]; rS = new float[n]; rM = new float[n]; rE = new float[n]; oM = new float[n]; oW = new float[n]; con = new float[n]; }

  // One copy per species: a species passed as an argument is a constant to C2 only where the
  // call is inlined, and elsewhere every vector is boxed.
  static FloatVector weight8(FloatVector G0, FloatVector S20, FloatVector M1, FloatVector eta0) {
    FloatVector w_s_0 = S20.add(M1.mul(M1)).lanewise(VectorOperators.SQRT);
    FloatVector th = G0.div(w_s_0);
    FloatVector c = th.abs().min(1f).reinterpretAsInts().lanewise(VectorOperators.AND, 0x7fffffff).lanewise(VectorOperators.OR, th.reinterpretAsInts().lanewise(VectorOperators.AND, 0x80000000)).reinterpretAsFloats();
    FloatVector w3 = c.mul(eta0).div(w_s_0.mul(2f));
    return w3.blend(FloatVector.broadcast(S, W_MAX).reinterpretAsInts().lanewise(VectorOperators.AND, 0x7fffffff).lanewise(VectorOperators.OR, w3.reinterpretAsInts().lanewise(VectorOperators.AND, 0x80000000)).reinterpretAsFloats(), w3.abs().compare(VectorOperators.GT, W_MAX)).blend(0f, w_s_0.compare(VectorOperators.EQ, 0f));
  }
  static FloatVector weight4(FloatVector G0, FloatVector S20, FloatVector M1, FloatVector eta0) {
    FloatVector w_s_0 = S20.add(M1.mul(M1)).lanewise(VectorOperators.SQRT);
    FloatVector th = G0.div(w_s_0);
    FloatVector c = th.abs().min(1f).reinterpretAsInts().lanewise(VectorOperators.AND, 0x7fffffff).lanewise(VectorOperators.OR, th.reinterpretAsInts().lanewise(VectorOperators.AND, 0x80000000)).reinterpretAsFloats();
    FloatVector w3 = c.mul(eta0).div(w_s_0.mul(2f));
    return w3.blend(FloatVector.broadcast(S4, W_MAX).reinterpretAsInts().lanewise(VectorOperators.AND, 0x7fffffff).lanewise(VectorOperators.OR, w3.reinterpretAsInts().lanewise(VectorOperators.AND, 0x80000000)).reinterpretAsFloats(), w3.abs().compare(VectorOperators.GT, W_MAX)).blend(0f, w_s_0.compare(VectorOperators.EQ, 0f));
  }
  static FloatVector eta8(FloatVector eta0, FloatVector gx, FloatVector w) {
    FloatVector e = eta0.sub(gx.mul(w));
    return e.blend(FloatVector.broadcast(S, CAP).reinterpretAsInts().lanewise(VectorOperators.AND, 0x7fffffff).lanewise(VectorOperators.OR, e.reinterpretAsInts().lanewise(VectorOperators.AND, 0x80000000)).reinterpretAsFloats(), e.abs().compare(VectorOperators.GT, CAP)).blend(eta0, gx.compare(VectorOperators.EQ, 0f));
  }
  static FloatVector eta4(FloatVector eta0, FloatVector gx, FloatVector w) {
    FloatVector e = eta0.sub(gx.mul(w));
    return e.blend(FloatVector.broadcast(S4, CAP).reinterpretAsInts().lanewise(VectorOperators.AND, 0x7fffffff).lanewise(VectorOperators.OR, e.reinterpretAsInts().lanewise(VectorOperators.AND, 0x80000000)).reinterpretAsFloats(), e.abs().compare(VectorOperators.GT, CAP)).blend(eta0, gx.compare(VectorOperators.EQ, 0f));
  }

  /** The library's shape: scalar gather, 8-lane predict over scratch, sum, 8-lane update, scalar scatter (nnz a multiple of 8 here). */
  float rowCurrent(float[] st, int[] idx, float[] val, int from, int nnz) {
    for (int j = 0; j < nnz; j++) { int p = idx[from + j] * 4; rG[j] = st[p]; rS[j] = st[p + 1]; rM[j] = st[p + 2]; rE[j] = st[p + 3]; }
    for (int j = 0; j < nnz; j += L) {
      FloatVector xv = FloatVector.fromArray(S, val, from + j);
      FloatVector M1 = FloatVector.fromArray(S, rM, j).max(xv.abs());
      FloatVector w = weight8(FloatVector.fromArray(S, rG, j), FloatVector.fromArray(S, rS, j), M1, FloatVector.fromArray(S, rE, j));
      M1.intoArray(oM, j); w.intoArray(oW, j);
      xv.mul(w).blend(0f, xv.compare(VectorOperators.EQ, 0f)).intoArray(con, j);
    }
    float a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (int j = 0; j < nnz; j += 4) { a0 += con[j]; a1 += con[j + 1]; a2 += con[j + 2]; a3 += con[j + 3]; }
    float yhat = (a0 + a1) + (a2 + a3);
    float g = 1f / (1f + (float) Math.exp(yhat)) - 0.5f;
    for (int j = 0; j < nnz; j += L) {
      FloatVector xv = FloatVector.fromArray(S, val, from + j);
      FloatVector gx = xv.mul(g);
      FloatVector G0 = FloatVector.fromArray(S, rG, j);
      G0.sub(gx).intoArray(rG, j);
      FloatVector.fromArray(S, rS, j).add(gx.mul(gx)).intoArray(rS, j);
      eta8(FloatVector.fromArray(S, rE, j), gx, FloatVector.fromArray(S, oW, j)).intoArray(rE, j);
    }
    for (int j = 0; j < nnz; j++) { int p = idx[from + j] * 4; st[p] = rG[j]; st[p + 1] = rS[j]; st[p + 2] = oM[j]; st[p + 3] = rE[j]; }
    return yhat;
  }

  /** C's shape: four records per step loaded whole, transposed in registers, 4-lane predict; the update transposes back and stores whole records. */
  float rowCShape(float[] st, int[] idx, float[] val, int from, int nnz) {
    FloatVector acc = FloatVector.zero(S4);
    for (int j = 0; j < nnz; j += 4) {
      FloatVector r0 = FloatVector.fromArray(S4, st, idx[from + j] * 4), r1 = FloatVector.fromArray(S4, st, idx[from + j + 1] * 4);
      FloatVector r2 = FloatVector.fromArray(S4, st, idx[from + j + 2] * 4), r3 = FloatVector.fromArray(S4, st, idx[from + j + 3] * 4);
      FloatVector t0 = r0.rearrange(LO, r1), t1 = r0.rearrange(HI, r1), t2 = r2.rearrange(LO, r3), t3 = r2.rearrange(HI, r3);
      FloatVector G0 = t0.rearrange(LO2, t2), S20 = t0.rearrange(HI2, t2), M0 = t1.rearrange(LO2, t3), E0 = t1.rearrange(HI2, t3);
      FloatVector xv = FloatVector.fromArray(S4, val, from + j);
      FloatVector M1 = M0.max(xv.abs());
      FloatVector w = weight4(G0, S20, M1, E0);
      G0.intoArray(rG, j); S20.intoArray(rS, j); E0.intoArray(rE, j); M1.intoArray(oM, j); w.intoArray(oW, j);
      acc = acc.add(xv.mul(w).blend(0f, xv.compare(VectorOperators.EQ, 0f)));
    }
    float yhat = (acc.lane(0) + acc.lane(1)) + (acc.lane(2) + acc.lane(3));
    float g = 1f / (1f + (float) Math.exp(yhat)) - 0.5f;
    for (int j = 0; j < nnz; j += 4) {
      FloatVector xv = FloatVector.fromArray(S4, val, from + j);
      FloatVector gx = xv.mul(g);
      FloatVector G1 = FloatVector.fromArray(S4, rG, j).sub(gx);
      FloatVector S21 = FloatVector.fromArray(S4, rS, j).add(gx.mul(gx));
      FloatVector M1 = FloatVector.fromArray(S4, oM, j);
      FloatVector E1 = eta4(FloatVector.fromArray(S4, rE, j), gx, FloatVector.fromArray(S4, oW, j));
      FloatVector t0 = G1.rearrange(LO, S21), t1 = G1.rearrange(HI, S21), t2 = M1.rearrange(LO, E1), t3 = M1.rearrange(HI, E1);
      t0.rearrange(LO2, t2).intoArray(st, idx[from + j] * 4); t0.rearrange(HI2, t2).intoArray(st, idx[from + j + 1] * 4);
      t1.rearrange(LO2, t3).intoArray(st, idx[from + j + 2] * 4); t1.rearrange(HI2, t3).intoArray(st, idx[from + j + 3] * 4);
    }
    return yhat;
  }

  static double pass(CShapeProbe z, boolean fused, float[] st, int[] idx, float[] val, int rows, int nnz) {
    long t0 = System.nanoTime(); float s = fused ? passCShape(z, st, idx, val, rows, nnz) : passCurrent(z, st, idx, val, rows, nnz);
    if (s == 12345.678f) System.out.println();
    return (System.nanoTime() - t0) / (double) rows;
  }
  static float passCShape(CShapeProbe z, float[] st, int[] idx, float[] val, int rows, int nnz) { float s = 0; for (int q = 0; q < rows; q++) s += z.rowCShape(st, idx, val, q * nnz, nnz); return s; }
  static float passCurrent(CShapeProbe z, float[] st, int[] idx, float[] val, int rows, int nnz) { float s = 0; for (int q = 0; q < rows; q++) s += z.rowCurrent(st, idx, val, q * nnz, nnz); return s; }
  public static void main(String[] args) {
    int d = Integer.parseInt(args[0]); int nnz = Integer.parseInt(args[1]); int rows = 8_000_000 / nnz;
    Random r = new Random(1); int[] idx = new int[rows * nnz]; float[] val = new float[rows * nnz];
    for (int q = 0; q < rows; q++) { TreeSet<Integer> s = new TreeSet<>(); while (s.size() < nnz) s.add((int) Math.min(d - 1, Math.floor(Math.pow(d, r.nextDouble())) - 1)); int k = 0; for (int i : s) { idx[q * nnz + k] = i; val[q * nnz + k++] = (1 + r.nextInt(8)) * 0.25f; } }
    float[] a = new float[4 * d], b = new float[4 * d];
    for (int i = 0; i < d; i++) { a[4 * i + 3] = 1; b[4 * i + 3] = 1; }
    CShapeProbe z = new CShapeProbe(nnz);
    for (int rep = 0; rep < 8; rep++) {
      double c = pass(z, false, a, idx, val, rows, nnz), f = pass(z, true, b, idx, val, rows, nnz);
      if (rep >= 5) System.out.printf("d=%d nnz=%d current %.0f  c-shape %.0f ns/row  (current / c-shape %.2f)%n", d, nnz, c, f, c / f);
    }
    if (!Arrays.equals(a, b)) {
      throw new AssertionError("the two shapes left different states");
    }
    System.out.println("same state, bit for bit");
  }
}
