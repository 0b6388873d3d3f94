package org.onlinekernels.optimizer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.internal.StateAccess;
import org.onlinekernels.optimizer.merge.MergeCompatibility;
import org.onlinekernels.optimizer.merge.StateMerger;
import org.onlinekernels.optimizer.state.AdoptingArena;
import org.onlinekernels.optimizer.state.Invariants;
import org.onlinekernels.optimizer.state.MergePlan;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.optimizer.state.StateStore;

/**
 * What an optimizer is apart from its update protocol: its configuration, its owner thread and
 * arena, and its state: read-only views, validated writes against the rule's invariants, and the
 * hooks of checkpoints and merges. {@link AbstractOptimizer} adds predict, update and rounds.
 *
 * <p>Threads: an optimizer is confined to its owner thread (the creating one, see {@link
 * #transferOwnership}); every entry checks the caller first, whatever arena holds the state.
 */
public abstract class StatefulOptimizer implements LinearModelOptimizer {
  private final String algorithm;

  /** Model dimension. */
  protected final int d;

  /**
   * Element type of the inputs, the weights and (unless {@link Precision#MIXED}) of every buffer.
   */
  protected final ElementType type;

  /** Precision of the buffers: {@code MIXED} keeps the accumulators in double. */
  protected final Precision precision;

  /** Kernel implementation in use. */
  protected final KernelProvider kernels;

  /** The state buffers. */
  protected final StateStore store;

  private final Arena arena;
  private final boolean ownsArena;
  private Thread owner = Thread.currentThread();
  private boolean closed;
  private final StateAccess access = new Access();

  /**
   * @param arena where the state lives; {@code null} makes a confined arena owned (and closed) by
   *     this optimizer
   * @param kernels implementation; {@code null} means {@link KernelProvider#get()}
   */
  StatefulOptimizer(
      String algorithm, int d, Precision precision, Arena arena, KernelProvider kernels) {
    if (d < 1) {
      throw new IllegalArgumentException("dimension d must be >= 1, got " + d);
    }
    if (precision == null) {
      throw new IllegalArgumentException("precision must be FLOAT, DOUBLE or MIXED, got null");
    }
    this.algorithm = algorithm;
    this.d = d;
    this.precision = precision;
    this.type = precision.inputType();
    this.kernels = kernels == null ? KernelProvider.get() : kernels;
    // An adopting arena is the new optimizer's own: it closes it (its inner arena, if its own).
    this.ownsArena = arena == null || arena instanceof AdoptingArena;
    this.arena = arena == null ? Arena.ofConfined() : arena;
    this.store = new StateStore(algorithm, d, this.arena, ownsArena);
  }

  @Override
  public final String algorithm() {
    return algorithm;
  }

  @Override
  public final int dimension() {
    return d;
  }

  @Override
  public final ElementType elementType() {
    return type;
  }

  /** The precision of the buffers ({@link Precision#MIXED}: float weights, double accumulators). */
  public final Precision precision() {
    return precision;
  }

  /** The kernel implementation this optimizer uses ({@code vector} or {@code scalar}). */
  public final KernelProvider kernels() {
    return kernels;
  }

  /**
   * The layout of the state: {@link StateLayout#PLANAR} unless created {@link
   * StateLayout#INTERLEAVED}.
   */
  public StateLayout layout() {
    return StateLayout.PLANAR;
  }

  // ---------------------------------------------------------------- owner thread and closing

  /** The thread allowed to call this optimizer. */
  public final Thread owner() {
    return owner;
  }

  /**
   * Hands the optimizer to {@code newOwner}; only the current owner may call it. Afterwards every
   * call from another thread, the old owner included, throws {@link WrongThreadException}. Refused
   * when the state lives in a confined arena that {@code newOwner} cannot access (an optimizer
   * created without an arena owns such an arena, so it can never change threads).
   */
  public final void transferOwnership(Thread newOwner) {
    checkOpen();
    if (newOwner == null) {
      throw new IllegalArgumentException("newOwner must not be null");
    }
    if (!store.accessibleBy(newOwner)) {
      throw new IllegalStateException(
          "the state lives in a confined arena of "
              + owner.getName()
              + "; create the optimizer with a shared arena to move it between threads");
    }
    owner = newOwner;
  }

  @Override
  public void close() {
    if (!closed && Thread.currentThread() != owner) {
      throw new WrongThreadException(
          algorithm
              + " optimizer belongs to thread "
              + owner.getName()
              + "; close it there (or transferOwnership first)");
    }
    if (ownsArena && arena.scope().isAlive()) {
      arena.close();
    }
    closed = true;
  }

  /**
   * Throws {@link IllegalStateException} once closed and {@link WrongThreadException} for a caller
   * other than the owner: the first thing every entry does, so neither can change state.
   */
  protected final void checkOpen() {
    if (closed || !arena.scope().isAlive()) {
      throw new IllegalStateException(algorithm + " optimizer is closed; create a new one");
    }
    if (Thread.currentThread() != owner) {
      throw new WrongThreadException(
          algorithm
              + " optimizer is confined to thread "
              + owner.getName()
              + " and was called from "
              + Thread.currentThread().getName()
              + "; use one optimizer per thread, or transferOwnership from the owner");
    }
  }

  // ---------------------------------------------------------------- parameters and invariants

  /** The largest finite value of the element type of inputs and weights. */
  protected final double maxFinite() {
    return type == ElementType.FLOAT ? Float.MAX_VALUE : Double.MAX_VALUE;
  }

  /** {@link ParameterRangeException#check} for this optimizer's algorithm and element type. */
  protected final void checkParamRange(String name, double value, double limit, String why) {
    ParameterRangeException.check(algorithm, type, name, value, limit, why);
  }

  /**
   * The invariant {@code value} would break as an element of state buffer {@code name} or as scalar
   * {@code name}, as a phrase naming the quantity and the rule ({@link Invariants}), or {@code
   * null} if it holds. {@link #writeState}, {@link #writeScalarState} and {@link
   * org.onlinekernels.optimizer.checkpoint.Checkpoint#load} refuse a value that breaks one, so no
   * state the algorithm could never reach gets in. The default allows anything but NaN.
   */
  protected String brokenInvariant(String name, double value) {
    return Double.isNaN(value) ? name + " is not NaN" : null;
  }

  // ---------------------------------------------------------------- state access

  /**
   * Element type of the state buffer {@code name} (one of {@link #state()}'s keys): the {@link
   * #elementType()} unless {@link Precision#MIXED}, where the accumulators are double.
   */
  public final ElementType stateType(String name) {
    return store.type(name);
  }

  /**
   * Read-only views of the state buffers, by the names of docs/ALGORITHMS.md (e.g. {@code w},
   * {@code Q}), each {@code d} elements of {@link #stateType(String)}; under {@link
   * StateLayout#INTERLEAVED} read-only copies taken now (a variable is not contiguous there).
   */
  public final Map<String, MemorySegment> state() {
    checkOpen();
    return store.views();
  }

  /** Scalar state by name (e.g. {@code Hsum}); empty for algorithms without any. */
  public Map<String, Double> scalarState() {
    return Map.of();
  }

  /**
   * Overwrites the state buffer {@code name} (one of {@link #state()}'s keys) with {@code values},
   * rounded to the element type: for restoring a checkpoint, and for tests that start kernel and
   * reference from the same state. Refuses NaN, values the element type cannot hold and values that
   * break the buffer's invariant, before writing anything. Cancels a pending predict.
   */
  public final void writeState(String name, double[] values) {
    checkOpen();
    store.write(name, values, this::brokenInvariant);
    stateReplaced();
  }

  /**
   * Sets the scalar state {@code name} (one of {@link #scalarState()}'s keys). Cancels a pending
   * predict.
   */
  public final void writeScalarState(String name, double value) {
    checkOpen();
    if (!scalarState().containsKey(name)) {
      throw new IllegalArgumentException(
          "no scalar state '" + name + "'; this optimizer has " + scalarState().keySet());
    }
    if (Double.isNaN(value)) {
      throw new IllegalArgumentException("scalar state '" + name + "' must not be NaN");
    }
    String broken = brokenInvariant(name, value);
    if (broken != null) {
      throw new IllegalArgumentException(
          "scalar state '" + name + "' = " + value + " breaks its invariant: " + broken);
    }
    setScalar(name, value);
    stateReplaced();
  }

  /** Stores a scalar named in {@link #scalarState()}; only called with a known name. */
  protected void setScalar(String name, double value) {
    throw new IllegalArgumentException("no scalar state '" + name + "'");
  }

  /**
   * The state was replaced from outside the protocol: a pending predict of the old state is void.
   */
  abstract void stateReplaced();

  /** Whether a predict waits for its update (a checkpoint is refused then). */
  abstract boolean hasPending();

  // ---------------------------------------------------------------- merges

  /**
   * Merges learners into this optimizer (parameter mixing, docs/MERGING.md): every learner started
   * from this optimizer's current state (e.g. by {@link #copyStateFrom}) and processed its own,
   * disjoint part of the stream; afterwards this optimizer holds the merged state, by the
   * algorithm's rule ({@link #mergePlan}). Exact where the rule allows: one learner gives its own
   * state; learners whose state equals the start change nothing; the learners are combined in one
   * canonical order, so the result does not depend on the order they are given. Every learner must
   * be of the same algorithm, dimension, precision and parameters, open, owned by the calling
   * thread and without a pending predict; a pending predict of this optimizer is cancelled. A
   * merged value the element type cannot hold is refused with {@link ArithmeticException} before
   * anything is written.
   *
   * @param learners the learners, at least one; they are read, never changed
   * @throws UnsupportedOperationException for an algorithm without a merge rule
   */
  public final void merge(List<? extends StatefulOptimizer> learners) {
    StateMerger.merge(access, stateAccess(learners));
  }

  /**
   * Makes this optimizer's state a copy of {@code source}'s (every buffer and scalar, bit for bit):
   * how a learner starts from a merged state. Cancels a pending predict.
   *
   * @param source an optimizer of the same algorithm, dimension, precision and parameters, owned by
   *     the calling thread
   */
  public final void copyStateFrom(StatefulOptimizer source) {
    checkOpen();
    MergeCompatibility.checkCompatible(
        access, source == null ? null : source.stateAccess(), "source");
    if (source == this) {
      return;
    }
    Map<String, Double> scalars = source.scalarState();
    stateReplaced();
    Map<String, MemorySegment> into = store.buffers();
    source
        .store
        .buffers()
        .forEach(
            (name, seg) -> {
              MemorySegment to = into.get(name);
              if (!to.equals(seg)) { // the same buffer where this one adopted the source's
                MemorySegment.copy(seg, 0, to, 0, seg.byteSize());
              }
            });
    scalars.forEach(this::setScalar);
  }

  /**
   * An arena through which the next optimizer made of this one's algorithm, dimension, precision,
   * layout and parameters (e.g. on other kernels: a kernel handover) takes over this optimizer's
   * state buffers in place instead of allocating and initializing its own; then {@link
   * #copyStateFrom} this optimizer gives it the scalars (the buffers are already the same), and
   * this optimizer must be closed and no longer used. Null where a state buffer lives off the Java
   * heap (it would be freed with this optimizer's arena): copy the state instead.
   *
   * @param inner where the new optimizer's other allocations go; null for an arena of its own
   */
  public final AdoptingArena stateDonor(Arena inner) {
    checkOpen();
    return store.donor(inner);
  }

  /** The merge rules of this algorithm, or null for none (then {@link #merge} is refused). */
  protected MergePlan mergePlan() {
    return null;
  }

  /** Runs after a merge has written the merged state (e.g. DFEG recomputes its norm). */
  protected void afterMerge() {}

  /** {@link StateAccess#roundsWriteOnlyTheirRow}, as the protocol's rounds define it. */
  abstract boolean writesOnlyTheirRow();

  // ---------------------------------------------------------------- the library's own access

  /**
   * This optimizer's state as the library's checkpoints, merges and shared state reach it.
   * Internal: {@link StateAccess} bypasses the checks of {@link #writeState} and {@link
   * #writeScalarState}; it is not for users.
   */
  public final StateAccess stateAccess() {
    return access;
  }

  /**
   * {@link #stateAccess} of each optimizer, in order ({@code null} for a null element, and for a
   * null list): what a merge of {@code optimizers} works on.
   */
  public static List<StateAccess> stateAccess(List<? extends StatefulOptimizer> optimizers) {
    if (optimizers == null) {
      return null;
    }
    List<StateAccess> out = new ArrayList<>(optimizers.size());
    for (StatefulOptimizer o : optimizers) {
      out.add(o == null ? null : o.access);
    }
    return out;
  }

  /**
   * The parameters as text, compared by checkpoints and merges: {@code params()} of the concrete
   * optimizer (every one has a public {@code params()}), with the arrays of a record spelled out (a
   * record's {@code toString} prints them by identity).
   */
  private String paramsText() {
    try {
      Object p = getClass().getMethod("params").invoke(this);
      if (p instanceof Record r) {
        StringBuilder sb = new StringBuilder(r.getClass().getSimpleName()).append('[');
        for (RecordComponent c : r.getClass().getRecordComponents()) {
          Object v = c.getAccessor().invoke(r);
          sb.append(c.getName())
              .append('=')
              .append(v instanceof double[] a ? Arrays.toString(a) : String.valueOf(v))
              .append(';');
        }
        return sb.append(']').toString();
      }
      return String.valueOf(p);
    } catch (ReflectiveOperationException e) {
      return "";
    }
  }

  /** The optimizer's hooks, as {@link StateAccess} names them. */
  private final class Access implements StateAccess {
    @Override
    public Class<?> optimizerClass() {
      return StatefulOptimizer.this.getClass();
    }

    @Override
    public String algorithm() {
      return algorithm;
    }

    @Override
    public int dimension() {
      return d;
    }

    @Override
    public Precision precision() {
      return precision;
    }

    @Override
    public String params() {
      return paramsText();
    }

    @Override
    public void checkOpen() {
      StatefulOptimizer.this.checkOpen();
    }

    @Override
    public boolean hasPending() {
      return StatefulOptimizer.this.hasPending();
    }

    @Override
    public void stateReplaced() {
      StatefulOptimizer.this.stateReplaced();
    }

    @Override
    public StateStore store() {
      return store;
    }

    @Override
    public Map<String, MemorySegment> buffers() {
      return store.buffers();
    }

    @Override
    public ElementType stateType(String name) {
      return store.type(name);
    }

    @Override
    public Map<String, Double> scalarState() {
      return StatefulOptimizer.this.scalarState();
    }

    @Override
    public void setScalar(String name, double value) {
      StatefulOptimizer.this.setScalar(name, value);
    }

    @Override
    public String brokenInvariant(String name, double value) {
      return StatefulOptimizer.this.brokenInvariant(name, value);
    }

    @Override
    public String checkBufferImage(String name, MemorySegment image, long offset) {
      return store.checkImage(name, image, offset, StatefulOptimizer.this::brokenInvariant);
    }

    @Override
    public MergePlan mergePlan() {
      return StatefulOptimizer.this.mergePlan();
    }

    @Override
    public void afterMerge() {
      StatefulOptimizer.this.afterMerge();
    }

    @Override
    public boolean roundsWriteOnlyTheirRow() {
      return writesOnlyTheirRow();
    }
  }
}
