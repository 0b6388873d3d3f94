package org.onlinekernels.bench;

import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The dense grid without the implementation axis, for code that does not use the library's kernels
 * (the hand-written loops over Java arrays).
 */
@State(Scope.Thread)
public abstract class ArrayParams {
  /** Coordinates per call. */
  @Param({"1024", "16384", "262144", "4194304", "16777216"})
  public int d;

  /** {@code float} or {@code double}. */
  @Param({"float", "double"})
  public String type;
}
