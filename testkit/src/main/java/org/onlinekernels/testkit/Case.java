package org.onlinekernels.testkit;

import org.onlinekernels.kernel.ElementType;

/**
 * One generated scenario. Everything random inside it (rows, gradients, parameters) is drawn from
 * {@link #seed}, so jqwik shrinks the shape (dimension, rounds, density, ...) and the printed case
 * plus seed reproduces a failure exactly.
 *
 * @param d model dimension
 * @param type element type of the kernel
 * @param sparse feed sparse (index/value) input instead of dense
 * @param heap buffers are heap segments ({@code MemorySegment.ofArray}) rather than native
 * @param byteOffset every input buffer starts this many bytes into its allocation
 * @param density probability that a coordinate of a row is nonzero
 * @param scaleLo smallest binary exponent of a feature's scale
 * @param scaleHi largest binary exponent of a feature's scale
 * @param rounds number of predict/update rounds compared
 * @param warmup rounds run on the reference alone before both start from its state
 * @param seed everything else
 */
public record Case(
    int d,
    ElementType type,
    boolean sparse,
    boolean heap,
    int byteOffset,
    double density,
    int scaleLo,
    int scaleHi,
    int rounds,
    int warmup,
    long seed) {

  /** Caps {@code d * rounds} so a case costs milliseconds, not seconds. */
  public static final int WORK_CAP = 400_000;

  public Case {
    rounds = Math.max(1, Math.min(rounds, WORK_CAP / d));
    warmup = Math.min(warmup, WORK_CAP / d);
  }

  /** The same case fed sparse ({@code s}) or dense input, everything else kept. */
  public Case withSparse(boolean s) {
    return new Case(d, type, s, heap, byteOffset, density, scaleLo, scaleHi, rounds, warmup, seed);
  }

  /** Unit roundoff of the element type: 2^-24 for float, 2^-53 for double. */
  public double unitRoundoff() {
    return type == ElementType.FLOAT ? 0x1p-24 : 0x1p-53;
  }
}
