package org.onlinekernels.optimizer.rounds;

import java.lang.foreign.MemorySegment;
import java.util.List;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.lanes.RecordTouch;
import org.onlinekernels.kernel.lanes.RuleShape;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.optimizer.state.StateStore;

/**
 * Where a {@link org.onlinekernels.optimizer.RuleOptimizer}'s fields live: float and double state
 * without per-coordinate buffers as one block, planar (one slice per field) or interleaved (a
 * coordinate's fields adjacent); mixed precision and the per-coordinate variant as one buffer per
 * field, then the per-coordinate parameters. Allocated once, from the optimizer's store.
 */
public final class RuleStorage {
  /** The fields as one block (float and double without per-coordinate buffers), else null. */
  public final MemorySegment block;

  /** Elements from one field to the next within the block (planar: {@code d}; interleaved: 1). */
  public final long step;

  /** Elements from one coordinate to the next within the block. */
  public final long stride;

  /** One segment per field, then the per-coordinate buffers; null when interleaved. */
  public final MemorySegment[] segments;

  private final ElementType type;
  private final int records;
  private Object touchArray;

  public RuleStorage(
      StateStore store,
      RuleShape shape,
      int d,
      ElementType type,
      Precision precision,
      StateLayout layout,
      boolean perCoordinate) {
    boolean mixed = precision == Precision.MIXED;
    List<String> fields = shape.fields();
    this.type = type;
    this.records = layout == StateLayout.PLANAR ? fields.size() : 1;
    if (mixed || perCoordinate) {
      this.block = null;
      this.segments =
          new MemorySegment[fields.size() + (perCoordinate ? shape.perCoordinate().size() : 0)];
      for (int k = 0; k < fields.size(); k++) {
        String f = fields.get(k);
        segments[k] =
            store.allocate(
                f, mixed && !shape.mixedFloatFields().contains(f) ? ElementType.DOUBLE : type);
      }
      if (perCoordinate) {
        for (int k = 0; k < shape.perCoordinate().size(); k++) {
          // Per-coordinate parameters in the arithmetic type (double under MIXED, like the
          // accumulators).
          segments[fields.size() + k] =
              store.allocate(shape.perCoordinate().get(k), precision.accumulatorType());
        }
      }
      this.step = 0;
      this.stride = 1;
    } else {
      this.block = store.allocateBlock(fields.toArray(String[]::new), type, layout);
      this.step = layout == StateLayout.PLANAR ? d : 1;
      this.stride = layout == StateLayout.PLANAR ? 1 : fields.size();
      // One field is one contiguous segment in either layout.
      if (layout == StateLayout.PLANAR || fields.size() == 1) {
        this.segments = new MemorySegment[fields.size()];
        long bytes = (long) d * type.bytes();
        for (int k = 0; k < fields.size(); k++) {
          segments[k] = block.asSlice(k * bytes, bytes);
        }
      } else {
        this.segments = null;
      }
    }
  }

  /**
   * The {@code float[]} or {@code double[]} the whole block is, for hardware gathers; null when
   * there is no block or it is off-heap (native memory, or elements past one array's reach).
   */
  public Object heapArray() {
    if (block == null || block.address() != 0) {
      return null;
    }
    Object base = block.heapBase().orElse(null);
    long bytes = block.byteSize();
    if (base instanceof float[] a && (long) a.length * Float.BYTES == bytes) {
      return a;
    }
    if (base instanceof double[] a && (long) a.length * Double.BYTES == bytes) {
      return a;
    }
    return null;
  }

  /**
   * Loads the block's records of entries {@code [from, from + nnz)} of {@code idx} ahead of their
   * use ({@link RecordTouch}).
   */
  public void touchRecords(int[] idx, int from, int nnz) {
    if (touchArray != null) {
      RecordTouch.touch(touchArray, (int) stride, idx, from, nnz);
    } else {
      RecordTouch.touch(block, step * type.bytes(), records, stride * type.bytes(), idx, from, nnz);
    }
  }

  /**
   * Makes {@link #touchRecords} load from the heap array behind an interleaved block ({@link
   * #heapArray}) instead of through the segment, or through the segment again ({@code false}).
   */
  public void touchThroughArray(boolean on) {
    touchArray = on && records == 1 ? heapArray() : null;
  }

  /**
   * Refuses a layout or mode the rule cannot hold: no layout, mixed precision without a mixed form,
   * or the interleaved layout with mixed precision, per-coordinate parameters or stored weights.
   */
  public static void checkLayout(
      String algorithm,
      Precision precision,
      StateLayout layout,
      boolean perCoordinate,
      boolean storeWeights,
      RuleShape shape) {
    if (layout == null) {
      throw new IllegalArgumentException("layout must be PLANAR or INTERLEAVED, got null");
    }
    boolean mixed = precision == Precision.MIXED;
    if (mixed && !shape.hasMixed()) {
      throw new IllegalArgumentException(algorithm + " has no mixed-precision form");
    }
    if (layout == StateLayout.INTERLEAVED && (mixed || perCoordinate || storeWeights)) {
      throw new IllegalArgumentException(
          "the interleaved layout takes float or double state"
              + (mixed
                  ? "; MIXED keeps its accumulators in separate double buffers"
                  : perCoordinate
                      ? " with one value per parameter for all coordinates; per-coordinate parameters keep buffers of their own"
                      : " in recompute mode"));
    }
  }

  /** The index in {@link #segments} of field or per-coordinate buffer {@code name}. */
  public static int segmentIndex(RuleShape shape, String name) {
    int k = shape.fields().indexOf(name);
    if (k < 0) {
      k = shape.fields().size() + shape.perCoordinate().indexOf(name);
    }
    return k;
  }
}
