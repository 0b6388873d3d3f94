package org.onlinekernels.optimizer.state;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The arena through which one new optimizer takes over another's state buffers in place (a kernel
 * handover, {@link org.onlinekernels.optimizer.StatefulOptimizer#stateDonor}): every state buffer
 * it asks for is the donor's buffer of the same name and size, so no second state is allocated; the
 * new optimizer then neither zeroes nor initializes them. Only for a donor whose state lives on the
 * Java heap, which outlives the donor's arena. Other allocations (none of the state) go to {@code
 * inner}.
 */
public final class AdoptingArena implements Arena {
  private final Map<String, MemorySegment> donor;
  private final Arena inner;
  private final boolean ownsInner;

  private AdoptingArena(Map<String, MemorySegment> donor, Arena inner) {
    this.donor = new LinkedHashMap<>(donor);
    this.ownsInner = inner == null;
    this.inner = inner == null ? Arena.ofConfined() : inner;
  }

  /**
   * An arena that hands {@code store}'s buffers to the next optimizer made through it, or null when
   * a buffer of {@code store} is off the heap (it would die with its arena: copy it instead).
   *
   * @param inner where other allocations go; null for a confined arena of its own, closed with it
   */
  static AdoptingArena of(StateStore store, Arena inner) {
    Map<String, MemorySegment> blocks = store.rawBlocks();
    if (blocks.isEmpty()) {
      return null;
    }
    for (MemorySegment s : blocks.values()) {
      if (s.isNative()) {
        return null;
      }
    }
    return new AdoptingArena(blocks, inner);
  }

  /** The donor's buffer {@code name}, which must have {@code bytes} bytes; handed out once. */
  MemorySegment take(String name, long bytes) {
    MemorySegment s = donor.remove(name);
    if (s == null || s.byteSize() != bytes) {
      throw new IllegalStateException(
          "the new optimizer asked for state buffer '"
              + name
              + "' of "
              + bytes
              + " bytes; the donor has "
              + donor.keySet()
              + " (it must be made as the donor was)");
    }
    return s;
  }

  /** Whether every buffer of the donor has been taken. */
  public boolean allTaken() {
    return donor.isEmpty();
  }

  @Override
  public MemorySegment allocate(long byteSize, long byteAlignment) {
    return inner.allocate(byteSize, byteAlignment);
  }

  @Override
  public MemorySegment.Scope scope() {
    return inner.scope();
  }

  /** Closes the inner arena where it is this arena's own; the adopted buffers are the heap's. */
  @Override
  public void close() {
    if (ownsInner && inner.scope().isAlive()) {
      inner.close();
    }
  }
}
