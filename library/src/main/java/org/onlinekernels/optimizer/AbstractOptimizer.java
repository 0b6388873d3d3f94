package org.onlinekernels.optimizer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelChecks;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.loss.Loss;

/**
 * The protocol every optimizer shares: the owner thread and closing, input checks, the pairing of
 * a predict with its update, fused rounds and blocks of rounds, read-out, reset, state access and
 * the checkpoint and merge hooks. Storage is a {@link StateStore}; the rule's arithmetic is a
 * subclass's ({@link RuleOptimizer} runs any generated rule).
 *
 * <p>Every public entry validates all of its arguments before it writes anything, so a call that
 * throws leaves every buffer and scalar bit-identical to before: {@link IllegalArgumentException}
 * for a bad argument (size, sparse index order or range, NaN/infinite scalar, and under
 * {@link InputPolicy#CHECKED} a non-finite or too large input element), {@link
 * IllegalStateException} for a closed optimizer, a closed input segment or an update without a
 * pending predict, {@link WrongThreadException} for a call from a thread other than the owner, and
 * {@link ArithmeticException} where an algorithm's own arithmetic would overflow (DFEG's {@code
 * exp}, global AdaGrad's sum, Adaptive OGD's {@code Hsum}, a weight read-out not representable in
 * the element type).
 *
 * <p>Threads: an optimizer is confined to its owner thread (the creating one, see {@link
 * #transferOwnership}); every entry checks the caller first, whatever arena holds the state.
 */
public abstract class AbstractOptimizer implements LinearModelOptimizer {
  private final String algorithm;
  /** Model dimension. */
  protected final int d;
  /** Element type of the inputs, the weights and (unless {@link Precision#MIXED}) of every buffer. */
  protected final ElementType type;
  /** Precision of the buffers: {@code MIXED} keeps the accumulators in double. */
  protected final Precision precision;
  /** Kernel implementation in use. */
  protected final KernelProvider kernels;
  /** The state buffers. */
  protected final StateStore store;
  private final Arena arena;
  private final boolean ownsArena;
  private final InputGuard guard;
  private Thread owner = Thread.currentThread();
  private boolean closed;

  // The pending instance between predict and update: references, never copies.
  private boolean pending;
  private boolean pendingSparse;
  private MemorySegment px;
  private MemorySegment pidx;
  private MemorySegment pval;
  private int pnnz;

  /**
   * @param arena where the state lives; {@code null} makes a confined arena owned (and closed) by
   *     this optimizer
   * @param kernels implementation; {@code null} means {@link KernelProvider#get()}
   */
  protected AbstractOptimizer(String algorithm, int d, Precision precision, Arena arena, KernelProvider kernels) {
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
    this.ownsArena = arena == null;
    this.arena = arena == null ? Arena.ofConfined() : arena;
    this.store = new StateStore(algorithm, d, this.arena, ownsArena);
    this.guard = new InputGuard(type, this.kernels);
  }

  // ---------------------------------------------------------------- identity and configuration

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

  /** The current input policy ({@link InputPolicy#CHECKED} unless set otherwise). */
  public final InputPolicy inputPolicy() {
    return guard.policy();
  }

  /** Chooses whether vector input is scanned before each call; see {@link InputPolicy}. */
  public final void setInputPolicy(InputPolicy policy) {
    checkOpen();
    guard.setPolicy(policy);
  }

  /** The layout of the state: {@link StateLayout#PLANAR} unless created {@link StateLayout#INTERLEAVED}. */
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
      throw new IllegalStateException("the state lives in a confined arena of " + owner.getName()
          + "; create the optimizer with a shared arena to move it between threads");
    }
    owner = newOwner;
  }

  @Override
  public void close() {
    if (!closed && Thread.currentThread() != owner) {
      throw new WrongThreadException(algorithm + " optimizer belongs to thread " + owner.getName()
          + "; close it there (or transferOwnership first)");
    }
    if (ownsArena && arena.scope().isAlive()) {
      arena.close();
    }
    closed = true;
  }

  /**
   * Throws {@link IllegalStateException} once closed and {@link WrongThreadException} for a
   * caller other than the owner: the first thing every entry does, so neither can change state.
   */
  protected final void checkOpen() {
    if (closed || !arena.scope().isAlive()) {
      throw new IllegalStateException(algorithm + " optimizer is closed; create a new one");
    }
    if (Thread.currentThread() != owner) {
      throw new WrongThreadException(algorithm + " optimizer is confined to thread " + owner.getName()
          + " and was called from " + Thread.currentThread().getName()
          + "; use one optimizer per thread, or transferOwnership from the owner");
    }
  }

  // ---------------------------------------------------------------- parameters and invariants

  /** The largest finite value of the element type of inputs and weights. */
  protected final double maxFinite() {
    return type == ElementType.FLOAT ? Float.MAX_VALUE : Double.MAX_VALUE;
  }

  /**
   * Refuses a parameter whose magnitude exceeds {@code limit}, a bound that keeps the algorithm's
   * arithmetic in the element type finite; called by constructors before any state is allocated.
   *
   * @param name the parameter, as named in its params record
   * @param why  what would go wrong beyond it, e.g. {@code "3 R^2 would overflow"}
   * @throws ParameterRangeException if {@code |value| > limit}
   */
  protected final void checkParamRange(String name, double value, double limit, String why) {
    ParameterRangeException.check(algorithm, type, name, value, limit, why);
  }


  /**
   * The invariant {@code value} would break as an element of state buffer {@code name} or as
   * scalar {@code name}, as a phrase naming the quantity and the rule ({@link Invariants}), or
   * {@code null} if it holds. {@link #writeState}, {@link #writeScalarState} and {@link
   * Checkpoint#load} refuse a value that breaks one, so no state the algorithm could never reach
   * gets in. The default allows anything but NaN.
   */
  protected String brokenInvariant(String name, double value) {
    return Double.isNaN(value) ? name + " is not NaN" : null;
  }

  // ---------------------------------------------------------------- state access

  /**
   * Element type of the state buffer {@code name} (one of {@link #state()}'s keys): the
   * {@link #elementType()} unless {@link Precision#MIXED}, where the accumulators are double.
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
   * Overwrites the state buffer {@code name} (one of {@link #state()}'s keys) with
   * {@code values}, rounded to the element type: for restoring a checkpoint, and for tests that
   * start kernel and reference from the same state. Cancels a pending predict.
   */
  public final void writeState(String name, double[] values) {
    checkOpen();
    if (!store.has(name)) {
      throw new IllegalArgumentException("no state buffer '" + name + "'; this optimizer has " + store.names());
    }
    if (values == null || values.length != d) {
      throw new IllegalArgumentException("state '" + name + "' needs " + d + " values");
    }
    boolean isFloat = store.type(name) == ElementType.FLOAT;
    for (int i = 0; i < d; i++) {
      if (Double.isNaN(values[i])) {
        throw new IllegalArgumentException("state '" + name + "'[" + i + "] is NaN");
      }
      if (isFloat && Double.isFinite(values[i]) && Float.isInfinite((float) values[i])) {
        throw new IllegalArgumentException("state '" + name + "'[" + i + "] = " + values[i]
            + " overflows float; pass a value within +-" + Float.MAX_VALUE);
      }
      String broken = brokenInvariant(name, values[i]);
      if (broken != null) {
        throw new IllegalArgumentException("state '" + name + "'[" + i + "] = " + values[i] + " breaks its invariant: "
            + broken);
      }
    }
    for (int i = 0; i < d; i++) {
      store.set(name, i, values[i]);
    }
    cancelPending();
  }

  /** Sets the scalar state {@code name} (one of {@link #scalarState()}'s keys). Cancels a pending predict. */
  public final void writeScalarState(String name, double value) {
    checkOpen();
    if (!scalarState().containsKey(name)) {
      throw new IllegalArgumentException("no scalar state '" + name + "'; this optimizer has " + scalarState().keySet());
    }
    if (Double.isNaN(value)) {
      throw new IllegalArgumentException("scalar state '" + name + "' must not be NaN");
    }
    String broken = brokenInvariant(name, value);
    if (broken != null) {
      throw new IllegalArgumentException("scalar state '" + name + "' = " + value + " breaks its invariant: " + broken);
    }
    setScalar(name, value);
    cancelPending();
  }

  /** Stores a scalar named in {@link #scalarState()}; only called with a known name. */
  protected void setScalar(String name, double value) {
    throw new IllegalArgumentException("no scalar state '" + name + "'");
  }

  // ---------------------------------------------------------------- predict and update

  @Override
  public final double predict(MemorySegment x) {
    checkOpen();
    KernelChecks.input("x", x, d, type);
    double maxAbs = guard.scan("x", x, d);
    double yhat = predictDense(x);
    pending = true;
    pendingSparse = false;
    px = x;
    guard.pending(maxAbs);
    return yhat;
  }

  @Override
  public final double predictSparse(MemorySegment indices, MemorySegment values, int nnz) {
    checkOpen();
    KernelChecks.sparse(indices, values, nnz, d, type);
    double maxAbs = guard.scan("values", values, nnz);
    double yhat = predictSparseImpl(indices, values, nnz);
    pending = true;
    pendingSparse = true;
    pidx = indices;
    pval = values;
    pnnz = nnz;
    guard.pending(maxAbs);
    return yhat;
  }

  @Override
  public final void update(double g) {
    checkOpen();
    if (!pending) {
      throw new IllegalStateException("update(g) needs a pending predict: call predict or predictSparse first");
    }
    KernelChecks.finite("g", g);
    guard.checkGradient(g);
    if (pendingSparse) {
      updateSparse(pidx, pval, pnnz, g);
    } else {
      updateDense(px, g);
    }
    cancelPending();
  }

  private void cancelPending() {
    pending = false;
    px = pidx = pval = null;
  }

  /** Entry check of a gradient-form dense step: open, owner thread, size, and under CHECKED the input scan. */
  protected final void checkGradient(MemorySegment gradient) {
    checkOpen();
    KernelChecks.input("gradient", gradient, d, type);
    guard.scan("gradient", gradient, d);
  }

  /** Entry check of a gradient-form sparse step, like {@link #checkGradient}. */
  protected final void checkSparseGradient(MemorySegment indices, MemorySegment values, int nnz) {
    checkOpen();
    KernelChecks.sparse(indices, values, nnz, d, type);
    guard.scan("values", values, nnz);
  }

  // ---------------------------------------------------------------- fused rounds

  /**
   * The fused round ({@link LinearModelOptimizer#round}): validation in O(1) (the rows were
   * validated when built: here only their element type, that they fit the dimension, the row
   * number, the label and, under {@link InputPolicy#CHECKED}, the row's recorded {@code max|x_j|}
   * and the gradient bound), then {@link #roundPredict}, the loss derivative, {@link #roundUpdate}.
   * The predict half writes nothing but per-entry scratch, so a refused gradient (non-finite, or
   * over the CHECKED bound) leaves the state bit-identical. Allocates nothing once the scratch has
   * grown to the longest row.
   */
  @Override
  public final double round(SparseRows rows, int row, double y, Loss loss) {
    checkOpen();
    checkRows(rows, loss);
    if (row < 0 || row >= rows.size()) {
      throw new IllegalArgumentException("row " + row + " is outside 0.." + (rows.size() - 1));
    }
    cancelPending();
    prepareRounds(rows.maxNnz());
    return roundOn(rows, row, y, loss, null, 0);
  }

  /**
   * {@link LinearModelOptimizer#rounds}: the block's arguments and row numbers are checked once,
   * then one loop runs {@link #round}'s per-row part; the loss comes with the derivative ({@link
   * Loss#derivativeAndValue}: one {@code exp} for both). A refusal stops the block as {@link
   * #round} would refuse that row, and says where.
   */
  @Override
  public final void rounds(
      SparseRows rows, int[] order, int from, int to, double[] y, Loss loss, double[] yhat, double[] losses) {
    checkOpen();
    checkRows(rows, loss);
    RoundBlocks.check(rows, order, from, to, y, yhat, losses);
    cancelPending();
    prepareRounds(rows.maxNnz());
    int q = from;
    try {
      for (; q < to; q++) {
        yhat[q - from] = roundOn(rows, order[q], y[q - from], loss, losses, q - from);
      }
    } catch (IllegalArgumentException e) {
      throw new RefusedRoundException(q, e);
    }
  }

  private void checkRows(SparseRows rows, Loss loss) {
    if (rows == null || loss == null) {
      throw new IllegalArgumentException("rows and loss must not be null");
    }
    if (rows.elementType() != type) {
      throw new IllegalArgumentException("rows hold " + rows.elementType().name().toLowerCase()
          + " values; this optimizer takes " + type.name().toLowerCase());
    }
    if (rows.dimension() > d) {
      throw new IllegalArgumentException("rows have indices up to " + (rows.dimension() - 1)
          + "; this optimizer has dimension " + d);
    }
  }

  /** A round's per-row part on a row known to be in {@code rows}; with {@code losses}, the loss goes to {@code losses[at]}. */
  private double roundOn(SparseRows rows, int row, double y, Loss loss, double[] losses, int at) {
    KernelChecks.finite("y", y);
    double maxAbs = rows.maxAbs(row);
    guard.checkRow(row, maxAbs);
    double yhat = roundPredict(rows, row);
    double g = losses == null ? loss.derivative(y, yhat) : loss.derivativeAndValue(y, yhat, losses, at);
    KernelChecks.finite("g", g);
    guard.pending(maxAbs);
    guard.checkGradient(g);
    roundUpdate(rows, row, g);
    return yhat;
  }

  /** Grows per-entry scratch to rows of {@code maxNnz} entries before a round or a block of rounds. */
  protected abstract void prepareRounds(int maxNnz);

  /** Predict half of a round on row {@code row} (validated): writes only per-entry scratch. */
  protected abstract double roundPredict(SparseRows rows, int row);

  /** Update half of a round, after {@link #roundPredict} of the same row. */
  protected abstract void roundUpdate(SparseRows rows, int row, double g);

  // ---------------------------------------------------------------- read-out, reset

  @Override
  public final void readWeights(MemorySegment into) {
    checkOpen();
    KernelChecks.state("into", into, d, type);
    readWeightsImpl(into);
    // A post-check of the output only: a saturated or overflowed weight must not reach the
    // caller as infinity without notice.
    if (!guard.allFinite(into, d)) {
      throw new ArithmeticException(algorithm + ": a weight is not representable as " + type.name().toLowerCase()
          + " (overflow in the read-out); the state is unchanged, the contents of 'into' are unspecified");
    }
  }

  @Override
  public final void reset() {
    checkOpen();
    cancelPending();
    store.clear();
    resetImpl();
  }

  // ---------------------------------------------------------------- checkpoints and merges

  /** Raw state buffers by name, for {@link Checkpoint}. */
  final Map<String, MemorySegment> buffers() {
    return store.buffers();
  }

  /** Checks a buffer image about to replace buffer {@code name}: null, or the first broken invariant. */
  final String checkBufferImage(String name, MemorySegment image) {
    return store.checkImage(name, image, this::brokenInvariant);
  }

  /**
   * The parameters as text, compared by {@link Checkpoint#load}: {@code params().toString()} of
   * the concrete optimizer (every one has a public {@code params()}), with arrays spelled out.
   */
  String checkpointParams() {
    try {
      Object p = getClass().getMethod("params").invoke(this);
      if (p instanceof Record r) {
        StringBuilder sb = new StringBuilder(r.getClass().getSimpleName()).append('[');
        for (java.lang.reflect.RecordComponent c : r.getClass().getRecordComponents()) {
          Object v = c.getAccessor().invoke(r);
          sb.append(c.getName()).append('=')
              .append(v instanceof double[] a ? java.util.Arrays.toString(a) : String.valueOf(v)).append(';');
        }
        return sb.append(']').toString();
      }
      return String.valueOf(p);
    } catch (ReflectiveOperationException e) {
      return "";
    }
  }

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
  public final void merge(List<? extends AbstractOptimizer> learners) {
    StateMerger.merge(this, learners);
  }

  /**
   * Makes this optimizer's state a copy of {@code source}'s (every buffer and scalar, bit for
   * bit): how a learner starts from a merged state. Cancels a pending predict.
   *
   * @param source an optimizer of the same algorithm, dimension, precision and parameters, owned
   *     by the calling thread
   */
  public final void copyStateFrom(AbstractOptimizer source) {
    checkOpen();
    StateMerger.checkCompatible(this, source, "source");
    if (source == this) {
      return;
    }
    Map<String, Double> scalars = source.scalarState();
    cancelPending();
    source.buffers().forEach((name, seg) -> MemorySegment.copy(seg, 0, buffers().get(name), 0, seg.byteSize()));
    scalars.forEach(this::setScalar);
  }

  /** The merge rules of this algorithm, or null for none (then {@link #merge} is refused). */
  protected MergePlan mergePlan() {
    return null;
  }

  /** Runs after a merge has written the merged state (e.g. DFEG recomputes its norm). */
  protected void afterMerge() {}

  /** A merge replaces the state: a pending predict of the old state is void. */
  final void cancelPendingForMerge() {
    cancelPending();
  }

  /** Whether a predict waits for its update (a checkpoint is refused then). */
  final boolean hasPending() {
    return pending;
  }

  /** Sets a scalar without the NaN check and without cancelling anything, for {@link Checkpoint}. */
  final void restoreScalar(String name, double value) {
    setScalar(name, value);
  }

  // ---------------------------------------------------------------- the rule's bodies

  /** Dense predict body (input already validated). */
  protected abstract double predictDense(MemorySegment x);

  /** Sparse predict body (input already validated). */
  protected abstract double predictSparseImpl(MemorySegment idx, MemorySegment val, int nnz);

  /** Dense update body. */
  protected abstract void updateDense(MemorySegment x, double g);

  /** Sparse update body. */
  protected abstract void updateSparse(MemorySegment idx, MemorySegment val, int nnz, double g);

  /** Weight read-out body. */
  protected abstract void readWeightsImpl(MemorySegment into);

  /** Restores initial values after every buffer has been zeroed. */
  protected abstract void resetImpl();
}
