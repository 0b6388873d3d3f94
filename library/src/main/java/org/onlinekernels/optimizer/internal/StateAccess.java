package org.onlinekernels.optimizer.internal;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.state.MergePlan;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateStore;

/**
 * An optimizer's state as the library's checkpoints, merges and shared state reach it, beyond the
 * optimizer's public API: the raw buffers and their store, scalars set without the protocol's
 * checks, the pending predict, the invariants and the merge plan. Each library optimizer has one
 * ({@link org.onlinekernels.optimizer.StatefulOptimizer#stateAccess}).
 *
 * <p>Internal: it bypasses the checks of {@code writeState} and {@code writeScalarState}, so only
 * the library's own pieces use it (the build refuses its import elsewhere).
 */
public interface StateAccess {
  /** The optimizer's class: a merge combines optimizers of one class only. */
  Class<?> optimizerClass();

  /** The algorithm's name. */
  String algorithm();

  /** Model dimension. */
  int dimension();

  /** Precision of the buffers. */
  Precision precision();

  /**
   * The parameters as text, as a checkpoint records and compares them: {@code params()} of the
   * concrete optimizer, with the arrays of a record spelled out.
   */
  String params();

  /** Throws once closed, or when called from a thread other than the owner. */
  void checkOpen();

  /** Whether a predict waits for its update. */
  boolean hasPending();

  /** The state was replaced from outside the protocol: a pending predict is void. */
  void stateReplaced();

  /** The state buffers and variables. */
  StateStore store();

  /** Raw state buffers by name (writable: the buffers themselves). */
  Map<String, MemorySegment> buffers();

  /** Element type of state variable or buffer {@code name}. */
  ElementType stateType(String name);

  /** Scalar state by name. */
  Map<String, Double> scalarState();

  /** Stores scalar {@code name} (one of {@link #scalarState}'s keys) without any check. */
  void setScalar(String name, double value);

  /** The invariant {@code value} would break as element or scalar {@code name}, or null. */
  String brokenInvariant(String name, double value);

  /**
   * The first invariant a part of an image of buffer {@code name} breaks, or null: {@code image}
   * holds the buffer's bytes from byte {@code offset} on (a multiple of the element size).
   */
  String checkBufferImage(String name, MemorySegment image, long offset);

  /** The algorithm's merge rules, or null for none. */
  MergePlan mergePlan();

  /** Recomputes what the optimizer derives from its state, after a merge wrote it. */
  void afterMerge();

  /** Whether a sparse round writes the state of its row's coordinates only (and scalars). */
  boolean roundsWriteOnlyTheirRow();
}
