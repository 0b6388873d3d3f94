package org.onlinekernels.kernel.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jdk.incubator.vector.FloatVector;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.onlinekernels.kernel.lanes.DoubleVirtualLanes;
import org.onlinekernels.kernel.lanes.FloatVirtualLanes;

/**
 * The width the build asks for ({@code -Donlinekernels.vectorBits}: the library's {@code
 * vector.bits.default} in the default run, which is the CPU's preferred width unless set, e.g.
 * {@code -Dvector.bits.default=512} on a machine with AVX-512; 256 and 128 in the long stage's
 * width re-runs, the parent pom's profile {@code long}) is the width the kernels run at, so those
 * runs test what they claim: a width the CPU lacks, which VectorConstants refuses in favour of the
 * preferred one, fails here. The width re-runs fail if they match no test, and {@code
 * ReductionDeterminismTest} makes the same check, so each re-run checks its width whichever of the
 * two it runs. Each virtual vector is a whole number of hardware vectors.
 */
@Tag("width")
public class VectorWidthTest {
  @Test
  void forcedWidthIsInEffect() {
    assertAskedWidthRuns();
  }

  /**
   * Fails unless the kernels run at the width {@value VectorConstants#WIDTH_PROPERTY} asks for; an
   * unset property (a run outside Maven) asks for the CPU's preferred width.
   */
  public static void assertAskedWidthRuns() {
    String asked = System.getProperty(VectorConstants.WIDTH_PROPERTY, "preferred");
    int preferred =
        Math.min(FloatVector.SPECIES_PREFERRED.vectorBitSize(), VectorConstants.VIRTUAL_BITS);
    int expected = asked.equals("preferred") ? preferred : Integer.parseInt(asked);
    assertEquals(
        expected,
        VectorConstants.BITS,
        "-D"
            + VectorConstants.WIDTH_PROPERTY
            + "="
            + asked
            + " asked for a width this CPU lacks (its widest: "
            + preferred
            + " bits), so the kernels ran at "
            + VectorConstants.BITS
            + " bits: run that width on a CPU that has it, or leave -Dvector.bits.default and"
            + " the long stage's re-runs to widths this CPU has");
    assertEquals(expected, VectorConstants.FLOAT_SPECIES.vectorBitSize());
    assertEquals(expected, VectorConstants.DOUBLE_SPECIES.vectorBitSize());
  }

  @Test
  void virtualVectorIsWholeHardwareVectors() {
    assertEquals(
        FloatVirtualLanes.LANES, VectorConstants.PARTS * VectorConstants.FLOAT_SPECIES.length());
    assertEquals(
        DoubleVirtualLanes.LANES, VectorConstants.PARTS * VectorConstants.DOUBLE_SPECIES.length());
    assertEquals(FloatVirtualLanes.LANES, VectorConstants.floatStride());
    assertEquals(DoubleVirtualLanes.LANES, VectorConstants.doubleStride());
  }
}
