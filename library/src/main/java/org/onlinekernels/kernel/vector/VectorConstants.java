package org.onlinekernels.kernel.vector;

import java.nio.ByteOrder;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * Vector API statics in one place (as Lucene's {@code PanamaVectorConstants}), so every kernel sees
 * the same species and byte order and C2 can treat them as constants.
 */
public final class VectorConstants {
  private VectorConstants() {}

  /**
   * System property choosing the vector width in bits: {@code preferred} (default), 128, 256 or
   * 512.
   */
  public static final String WIDTH_PROPERTY = "onlinekernels.vectorBits";

  /**
   * The vector width in bits: the CPU's preferred (widest) one unless {@value #WIDTH_PROPERTY} asks
   * for a narrower one. Width is a per-CPU choice: on an Intel Xeon (Sapphire Rapids class) 512-bit
   * division and square root cost more per element than on AMD Zen 4, so a kernel bound by them can
   * run faster at 256 bits there (bench-report: the width comparison). A width above the preferred
   * one would run in emulation, many times slower, so it is refused with a warning and the
   * preferred width used.
   */
  public static final int BITS = chooseBits();

  /** The float species of {@link #BITS} (16 lanes at 512 bits, 8 at 256). */
  public static final VectorSpecies<Float> FLOAT_SPECIES =
      FloatVector.SPECIES_PREFERRED.vectorBitSize() == BITS
          ? FloatVector.SPECIES_PREFERRED
          : VectorSpecies.of(float.class, jdk.incubator.vector.VectorShape.forBitSize(BITS));

  /** The double species of {@link #BITS} (8 lanes at 512 bits, 4 at 256). */
  public static final VectorSpecies<Double> DOUBLE_SPECIES =
      DoubleVector.SPECIES_PREFERRED.vectorBitSize() == BITS
          ? DoubleVector.SPECIES_PREFERRED
          : VectorSpecies.of(double.class, jdk.incubator.vector.VectorShape.forBitSize(BITS));

  private static int chooseBits() {
    // Reductions are defined on 512-bit virtual vectors (VIRTUAL_BITS), so a wider preferred
    // shape (SVE) runs at 512 bits.
    int preferred = Math.min(FloatVector.SPECIES_PREFERRED.vectorBitSize(), VIRTUAL_BITS);
    String v = System.getProperty(WIDTH_PROPERTY, "preferred").trim();
    if (v.isEmpty() || v.equals("preferred")) {
      return preferred;
    }
    int bits;
    try {
      bits = Integer.parseInt(v);
    } catch (NumberFormatException e) {
      bits = -1;
    }
    if (bits != 128 && bits != 256 && bits != 512) {
      System.err.println(
          "WARNING: -D"
              + WIDTH_PROPERTY
              + "="
              + v
              + " is not preferred, 128, 256 or 512; online-kernels uses "
              + preferred
              + " bits, this CPU's preferred width.");
      return preferred;
    }
    if (bits > preferred) {
      System.err.println(
          "WARNING: -D"
              + WIDTH_PROPERTY
              + "="
              + bits
              + " is wider than this CPU's "
              + preferred
              + "-bit vectors (it would run emulated, many times slower); online-kernels uses "
              + preferred
              + " bits.");
      return preferred;
    }
    return bits;
  }

  /** Buffers are native order: see {@link org.onlinekernels.kernel.ElementType}. */
  public static final ByteOrder ORDER = ByteOrder.nativeOrder();

  /**
   * Width in bits of the <em>virtual vector</em> every reduction is defined on, whatever the
   * hardware width: a sum over {@code n} elements is {@code A} accumulators of 512 bits (16 float
   * or 8 double lanes, {@code org.onlinekernels.kernel.lanes.FloatVirtualLanes}), combined and
   * summed in a fixed tree, so every width and the scalar kernels return the same bits. At narrower
   * hardware widths each virtual accumulator is {@link #PARTS} hardware vectors.
   */
  public static final int VIRTUAL_BITS = 512;

  /** Hardware vectors per virtual vector: 1 at 512 bits, 2 at 256, 4 at 128. */
  public static final int PARTS = VIRTUAL_BITS / BITS;

  /**
   * Lanes per virtual float vector ({@link #PARTS} hardware vectors, 16 floats), as a value C2 does
   * not see as a constant: the dense reduction loops (LinearAlgebra's dot, sums of squares, Gram
   * triple) step by {@link #floatStride()} rather than by a constant on purpose. With a constant
   * stride C2 unrolls a small loop body up to 16 times and schedules the unrolled loads out of
   * address order (measured by disassembly: offsets 0, 0x3c0, 0x380, ..., 0x40 in a sum-of-squares
   * loop); from DRAM that order streams at less than half the rate of ascending loads (the same C
   * code with C2's load order, bench-report/kernels-notes.md). A stride read from a non-final field
   * keeps the loop a plain loop in program order: the reductions then stream at the rate of the
   * ascending C loop. In cache, dot and dotAndSumOfSquares lose nothing measurable; sumOfSquares
   * and gramTriple, with one accumulator chain each, are about 25 % slower
   * (bench-report/kernels-notes.md). The update loops keep the constant stride: on them the change
   * measured no faster. Never written; not {@code final} for that reason only.
   */
  private static int floatStride = PARTS * FLOAT_SPECIES.length();

  /** See {@link #floatStride}. */
  private static int doubleStride = PARTS * DOUBLE_SPECIES.length();

  /**
   * Lanes of a virtual float vector (16), hidden from C2's constant folding (see {@code
   * floatStride}).
   */
  static int floatStride() {
    return floatStride;
  }

  /**
   * Lanes of a virtual double vector (8), hidden from C2's constant folding (see {@code
   * floatStride}).
   */
  static int doubleStride() {
    return doubleStride;
  }

  /** Independent (virtual) accumulators in reduction main loops (hides add latency). */
  public static final int ACCUMULATORS = 4;
}
