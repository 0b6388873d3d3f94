package org.onlinekernels.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.onlinekernels.rules.adagrad.AdaGradKernel;

/** Vector AdaGrad performs the scalar fallback's operations lane for lane: bit-identical state. */
class AdaGradVectorScalarTest {
  @ParameterizedTest
  @CsvSource({
    "FLOAT,1,0",
    "FLOAT,7,3",
    "FLOAT,8,0",
    "FLOAT,9,1",
    "FLOAT,31,5",
    "FLOAT,33,0",
    "FLOAT,1023,7",
    "FLOAT,4097,2",
    "DOUBLE,1,0",
    "DOUBLE,7,3",
    "DOUBLE,9,1",
    "DOUBLE,33,5",
    "DOUBLE,1023,7",
    "DOUBLE,4097,1"
  })
  void denseAndSparseAgreeBitForBit(ElementType t, int n, int byteOffset) {
    SplittableRandom r = new SplittableRandom(n * 31L + byteOffset);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment[] w = new MemorySegment[2], q = new MemorySegment[2];
      long bytes = (long) n * t.bytes();
      for (int k = 0; k < 2; k++) {
        w[k] = arena.allocate(bytes + byteOffset).asSlice(byteOffset);
        q[k] = arena.allocate(bytes + byteOffset).asSlice(byteOffset);
      }
      MemorySegment x = arena.allocate(bytes + byteOffset).asSlice(byteOffset);
      MemorySegment idx = arena.allocate(4L * n);
      MemorySegment val = arena.allocate(bytes);
      AdaGradKernel[] k = {
        AdaGradKernel.of(KernelProvider.vector(), t), AdaGradKernel.of(KernelProvider.scalar(), t)
      };
      for (int round = 0; round < 20; round++) {
        int nnz = 0;
        for (int i = 0; i < n; i++) {
          double v =
              r.nextInt(4) == 0 ? 0.0 : r.nextGaussian() * Math.scalb(1.0, r.nextInt(-20, 21));
          set(x, t, i, v);
          if (r.nextBoolean()) {
            idx.setAtIndex(java.lang.foreign.ValueLayout.JAVA_INT, nnz, i);
            set(val, t, nnz++, v);
          }
        }
        double g = r.nextGaussian();
        for (int j = 0; j < 2; j++) {
          if (round % 2 == 0) {
            k[j].updateDense(w[j], q[j], x, n, g, 0.5, round % 4 == 0 ? 0 : 1e-3, -2, 3);
          } else {
            k[j].updateSparse(w[j], q[j], n, idx, val, nnz, g, 0.5, 0, Double.NEGATIVE_INFINITY, 1);
          }
        }
        for (int i = 0; i < n; i++) {
          assertEquals(
              Double.valueOf(get(w[1], t, i)),
              Double.valueOf(get(w[0], t, i)),
              "w[" + i + "] round " + round);
          assertEquals(
              Double.valueOf(get(q[1], t, i)),
              Double.valueOf(get(q[0], t, i)),
              "q[" + i + "] round " + round);
        }
      }
    }
  }

  static void set(MemorySegment m, ElementType t, int i, double v) {
    if (t == ElementType.FLOAT)
      m.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, i, (float) v);
    else m.setAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, i, v);
  }

  static double get(MemorySegment m, ElementType t, int i) {
    return t == ElementType.FLOAT
        ? m.getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, i)
        : m.getAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
  }
}
