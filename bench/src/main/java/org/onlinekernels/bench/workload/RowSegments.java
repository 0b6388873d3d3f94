package org.onlinekernels.bench.workload;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.onlinekernels.kernel.ElementType;

/**
 * The workload's rows as a user with a row format of their own holds them: per row an index segment
 * and a value segment of the element type (slices of two native segments that hold every row), made
 * once, so that a contender calls the library on them without copying or slicing in the pass.
 */
final class RowSegments implements AutoCloseable {
  private final Arena arena = Arena.ofConfined();

  /** Row {@code r}'s indices. */
  final MemorySegment[] indices;

  /** Row {@code r}'s values. */
  final MemorySegment[] values;

  RowSegments(Workload wl, ElementType type) {
    long nnz = wl.nonzeros();
    MemorySegment idx = arena.allocate(ValueLayout.JAVA_INT, Math.max(1, nnz));
    MemorySegment val = arena.allocate(Math.max(1, nnz) * type.bytes(), 64);
    boolean isFloat = type == ElementType.FLOAT;
    for (int j = 0; j < nnz; j++) {
      idx.setAtIndex(ValueLayout.JAVA_INT, j, wl.idx[j]);
      if (isFloat) {
        val.setAtIndex(ValueLayout.JAVA_FLOAT, j, wl.floatValues[j]);
      } else {
        val.setAtIndex(ValueLayout.JAVA_DOUBLE, j, wl.doubleValues[j]);
      }
    }
    indices = new MemorySegment[wl.n];
    values = new MemorySegment[wl.n];
    for (int r = 0; r < wl.n; r++) {
      long s = wl.start[r];
      long m = wl.start[r + 1] - s;
      indices[r] = idx.asSlice(s * Integer.BYTES, m * Integer.BYTES);
      values[r] = val.asSlice(s * type.bytes(), m * type.bytes());
    }
  }

  @Override
  public void close() {
    if (arena.scope().isAlive()) {
      arena.close();
    }
  }
}
