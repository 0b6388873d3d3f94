package org.onlinekernels.optimizer;

import java.lang.foreign.MemorySegment;
import org.onlinekernels.kernel.ElementType;

/**
 * A stateful online learner in linear-model form (ALGORITHMS.md): {@link #predict} an instance
 * {@code x}, get {@code yhat = <w, x>}, then {@link #update} with {@code g = dLoss/dyhat}.
 *
 * <p>Buffers are segments of {@link #elementType()} in native byte order at any offset; dense
 * {@code x} holds {@link #dimension()} elements; sparse input is a strictly increasing
 * {@code int} index segment, a value segment and a count. The instance passed to {@code predict}
 * is referenced, not copied, until the matching {@code update}: do not change it in between.
 *
 * <p>Thread confinement: an optimizer is not thread-safe. One that owns its arena (created
 * without one) is confined to the creating thread and throws {@link WrongThreadException} when
 * used from another.
 */
public interface LinearModelOptimizer extends AutoCloseable {
  /** Name of the algorithm, e.g. {@code adagrad}. */
  String algorithm();

  /** Number of coordinates {@code d}. */
  int dimension();

  /** Element type of state and input buffers. */
  ElementType elementType();

  /** Dense predict: {@code yhat = <w_t, x>}; may advance per-coordinate statistics (ScInOL, DFEG). */
  double predict(MemorySegment x);

  /** Sparse predict over {@code nnz} entries; O(nnz) except for the ball form of Adaptive OGD. */
  double predictSparse(MemorySegment indices, MemorySegment values, int nnz);

  /**
   * Applies the update for the instance of the last predict with scalar gradient {@code g}.
   *
   * @throws IllegalStateException if no predict is pending
   */
  void update(double g);

  /** Writes the current weights (read-out per ALGORITHMS.md) into {@code into} ({@code d} elements). */
  void readWeights(MemorySegment into);

  /** Returns every buffer and scalar to its initial value. */
  void reset();

  /** Frees the state if this optimizer owns its arena; later calls throw {@link IllegalStateException}. */
  @Override
  void close();
}
