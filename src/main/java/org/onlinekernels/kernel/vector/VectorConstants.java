package org.onlinekernels.kernel.vector;

import java.nio.ByteOrder;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vector API statics in one place (as Lucene's {@code PanamaVectorConstants}), so every kernel
 * sees the same species and byte order and C2 can treat them as constants.
 */
public final class VectorConstants {
  private VectorConstants() {}

  /** The widest float species this CPU prefers (8 lanes on AVX2, 16 on AVX-512). */
  public static final VectorSpecies<Float> FLOAT_SPECIES = FloatVector.SPECIES_PREFERRED;

  /** The widest double species this CPU prefers (4 lanes on AVX2, 8 on AVX-512). */
  public static final VectorSpecies<Double> DOUBLE_SPECIES = DoubleVector.SPECIES_PREFERRED;

  /** Buffers are native order: see {@link org.onlinekernels.kernel.ElementType}. */
  public static final ByteOrder ORDER = ByteOrder.nativeOrder();

  /**
   * Lanes per float vector, as a value C2 does not see as a constant: the dense reduction loops
   * (LinearAlgebra's dot, sums of squares, Gram triple, maxAbs) step by {@link #floatStride()}
   * rather than by {@code FLOAT_SPECIES.length()} on purpose. With a
   * constant stride C2 unrolls a small loop body up to 16 times and schedules the unrolled loads
   * out of address order (measured by disassembly: offsets 0, 0x3c0, 0x380, ..., 0x40 in a
   * sum-of-squares loop); from DRAM that order streams at less than half the rate of ascending
   * loads (the same C code with C2's load order: 0.49 against 0.19 ns per float at 16M floats).
   * A stride read from a non-final field keeps the loop a plain loop in program order: the
   * reductions then stream at the rate of the ascending C loop. In cache, dot and
   * dotAndSumOfSquares lose nothing measurable; sumOfSquares and gramTriple, with one accumulator
   * chain each, are about 25 % slower (bench/report-notes.md). The update loops keep the constant
   * stride: on them the change measured no faster. Never written; not {@code final} for that
   * reason only.
   */
  private static int floatStride = FLOAT_SPECIES.length();

  /** See {@link #floatStride}. */
  private static int doubleStride = DOUBLE_SPECIES.length();

  /** {@link #FLOAT_SPECIES}'s length, hidden from C2's constant folding (see {@code floatStride}). */
  static int floatStride() {
    return floatStride;
  }

  /** {@link #DOUBLE_SPECIES}'s length, hidden from C2's constant folding (see {@code floatStride}). */
  static int doubleStride() {
    return doubleStride;
  }

  /** Independent accumulators in reduction main loops (hides add latency). */
  public static final int ACCUMULATORS = 4;
}
