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

  /** Independent accumulators in reduction main loops (hides add latency). */
  public static final int ACCUMULATORS = 4;
}
