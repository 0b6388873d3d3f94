package org.onlinekernels.kernel.vector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jdk.incubator.vector.FloatVector;
import org.junit.jupiter.api.Test;
import org.onlinekernels.kernel.lanes.DoubleVirtualLanes;
import org.onlinekernels.kernel.lanes.FloatVirtualLanes;

/**
 * The width the build asks for ({@code -Donlinekernels.vectorBits}, the bit-equality executions of
 * pom.xml) is the width the kernels run at where the CPU has it, so those executions test what they
 * claim (a width the CPU lacks fails, and pom.xml's width executions fail if they match no test);
 * and each virtual vector is a whole number of hardware vectors.
 */
class VectorWidthTest {
  @Test
  void forcedWidthIsInEffect() {
    String asked = System.getProperty(VectorConstants.WIDTH_PROPERTY, "preferred");
    int preferred =
        Math.min(FloatVector.SPECIES_PREFERRED.vectorBitSize(), VectorConstants.VIRTUAL_BITS);
    // A width the CPU lacks is refused and the preferred one runs instead: then the run that asked
    // for it tests another width than it claims, which is a failure here, never a silent pass.
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
            + " bits): run that width on a CPU that has it");
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
