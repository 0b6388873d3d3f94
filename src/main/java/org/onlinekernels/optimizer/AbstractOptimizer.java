package org.onlinekernels.optimizer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelChecks;
import org.onlinekernels.kernel.KernelProvider;

/**
 * What every optimizer shares: arena ownership, state allocation, the predict/update pairing and
 * entry validation. Subclasses hold the algorithm's buffers and call its kernels.
 */
public abstract class AbstractOptimizer implements LinearModelOptimizer {
  /** State buffers start on a cache-line boundary. */
  private static final long ALIGN = 64;

  private final String algorithm;
  /** Model dimension. */
  protected final int d;
  /** Element type of all buffers. */
  protected final ElementType type;
  /** Kernel implementation in use. */
  protected final KernelProvider kernels;
  private final Arena arena;
  private final boolean ownsArena;
  private final Map<String, MemorySegment> buffers = new LinkedHashMap<>();

  // The pending instance between predict and update: references, never copies.
  private boolean pending;
  private boolean pendingSparse;
  /** Dense instance of the pending round. */
  protected MemorySegment px;
  /** Sparse indices of the pending round. */
  protected MemorySegment pidx;
  /** Sparse values of the pending round. */
  protected MemorySegment pval;
  /** Sparse count of the pending round. */
  protected int pnnz;

  /**
   * @param arena where the state lives; {@code null} makes a confined arena owned (and closed) by
   *     this optimizer
   * @param kernels implementation; {@code null} means {@link KernelProvider#get()}
   */
  protected AbstractOptimizer(String algorithm, int d, ElementType type, Arena arena, KernelProvider kernels) {
    if (d < 1) {
      throw new IllegalArgumentException("dimension d must be >= 1, got " + d);
    }
    if (type == null) {
      throw new IllegalArgumentException("element type must be FLOAT or DOUBLE, got null");
    }
    this.algorithm = algorithm;
    this.d = d;
    this.type = type;
    this.kernels = kernels == null ? KernelProvider.get() : kernels;
    this.ownsArena = arena == null;
    this.arena = arena == null ? Arena.ofConfined() : arena;
  }

  /** Allocates a zeroed state buffer of {@code d} elements, registered under {@code name}. */
  protected final MemorySegment allocate(String name) {
    MemorySegment s = arena.allocate((long) d * type.bytes(), ALIGN);
    buffers.put(name, s);
    return s;
  }

  /** Read-only views of the state buffers, by the names of ALGORITHMS.md (e.g. {@code w}, {@code Q}). */
  public final Map<String, MemorySegment> state() {
    checkOpen();
    Map<String, MemorySegment> views = new LinkedHashMap<>();
    buffers.forEach((k, v) -> views.put(k, v.asReadOnly()));
    return views;
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
    MemorySegment s = buffers.get(name);
    if (s == null) {
      throw new IllegalArgumentException("no state buffer '" + name + "'; this optimizer has " + buffers.keySet());
    }
    if (values == null || values.length != d) {
      throw new IllegalArgumentException("state '" + name + "' needs " + d + " values");
    }
    for (int i = 0; i < d; i++) {
      if (Double.isNaN(values[i])) {
        throw new IllegalArgumentException("state '" + name + "'[" + i + "] is NaN");
      }
    }
    for (int i = 0; i < d; i++) {
      set(s, i, values[i]);
    }
    cancelPending();
  }

  /**
   * Sets the scalar state {@code name} (one of {@link #scalarState()}'s keys). Cancels a pending
   * predict.
   */
  public final void writeScalarState(String name, double value) {
    checkOpen();
    if (!scalarState().containsKey(name)) {
      throw new IllegalArgumentException("no scalar state '" + name + "'; this optimizer has " + scalarState().keySet());
    }
    if (Double.isNaN(value)) {
      throw new IllegalArgumentException("scalar state '" + name + "' must not be NaN");
    }
    setScalar(name, value);
    cancelPending();
  }

  /** Stores a scalar named in {@link #scalarState()}; only called with a known name. */
  protected void setScalar(String name, double value) {
    throw new IllegalArgumentException("no scalar state '" + name + "'");
  }

  private void cancelPending() {
    pending = false;
    px = pidx = pval = null;
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

  /** The kernel implementation this optimizer uses ({@code vector} or {@code scalar}). */
  public final KernelProvider kernels() {
    return kernels;
  }

  @Override
  public final double predict(MemorySegment x) {
    checkOpen();
    KernelChecks.input("x", x, d, type);
    double yhat = predictDense(x);
    pending = true;
    pendingSparse = false;
    px = x;
    return yhat;
  }

  @Override
  public final double predictSparse(MemorySegment indices, MemorySegment values, int nnz) {
    checkOpen();
    KernelChecks.sparse(indices, values, nnz, d, type);
    double yhat = predictSparseImpl(indices, values, nnz);
    pending = true;
    pendingSparse = true;
    pidx = indices;
    pval = values;
    pnnz = nnz;
    return yhat;
  }

  @Override
  public final void update(double g) {
    checkOpen();
    if (!pending) {
      throw new IllegalStateException("update(g) needs a pending predict: call predict or predictSparse first");
    }
    KernelChecks.finite("g", g);
    if (pendingSparse) {
      updateSparse(pidx, pval, pnnz, g);
    } else {
      updateDense(px, g);
    }
    cancelPending();
  }

  @Override
  public final void readWeights(MemorySegment into) {
    checkOpen();
    KernelChecks.state("into", into, d, type);
    readWeightsImpl(into);
  }

  @Override
  public final void reset() {
    checkOpen();
    cancelPending();
    buffers.values().forEach(s -> s.fill((byte) 0));
    resetImpl();
  }

  @Override
  public void close() {
    if (ownsArena && arena.scope().isAlive()) {
      arena.close();
    }
    closed = true;
  }

  private boolean closed;

  /** Throws {@link IllegalStateException} once closed. */
  protected final void checkOpen() {
    if (closed || !arena.scope().isAlive()) {
      throw new IllegalStateException(algorithm + " optimizer is closed; create a new one");
    }
  }

  /** Sets every element of {@code s} to {@code v}. */
  protected final void fill(MemorySegment s, double v) {
    for (int i = 0; i < d; i++) {
      set(s, i, v);
    }
  }

  /** Writes element {@code i} of a buffer of this optimizer's element type. */
  protected final void set(MemorySegment s, int i, double v) {
    if (type == ElementType.FLOAT) {
      s.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, i, (float) v);
    } else {
      s.setAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, i, v);
    }
  }

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
