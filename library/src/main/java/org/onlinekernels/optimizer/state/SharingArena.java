package org.onlinekernels.optimizer.state;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The arena through which the optimizers of one {@link
 * org.onlinekernels.optimizer.parallel.SharedState} get their state buffers: the first optimizer
 * made through it allocates them (on the heap or in a shared arena, as any optimizer does) and the
 * buffers are recorded by name; every optimizer made after {@link #adopt} gets the recorded buffers
 * instead of new ones, so all of them hold one state.
 */
public final class SharingArena implements Arena {
  private final Arena inner = Arena.ofShared();
  private final Map<String, MemorySegment> recorded = new LinkedHashMap<>();
  private boolean adopting;

  /**
   * Buffer {@code name} of {@code bytes} bytes: allocated and recorded, or (adopting) the recorded
   * one.
   */
  MemorySegment share(String name, long bytes, Supplier<MemorySegment> allocate) {
    if (!adopting) {
      MemorySegment s = allocate.get();
      recorded.put(name, s);
      return s;
    }
    MemorySegment s = recorded.get(name);
    if (s == null || s.byteSize() != bytes) {
      throw new IllegalStateException(
          "a view asked for state buffer '"
              + name
              + "' of "
              + bytes
              + " bytes; the shared state has "
              + recorded.keySet()
              + " (the views must be made as the owner was)");
    }
    return s;
  }

  /** From now on, optimizers made through this arena get the recorded buffers. */
  public void adopt() {
    adopting = true;
  }

  /** The recorded buffers by name. */
  Map<String, MemorySegment> recorded() {
    return recorded;
  }

  @Override
  public MemorySegment allocate(long byteSize, long byteAlignment) {
    return inner.allocate(byteSize, byteAlignment);
  }

  @Override
  public MemorySegment.Scope scope() {
    return inner.scope();
  }

  @Override
  public void close() {
    inner.close();
  }
}
