package org.onlinekernels.optimizer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.LinkedHashMap;
import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.scalar.RecordTouch;
import org.onlinekernels.kernel.KernelChecks;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.LinearAlgebraKernel;
import org.onlinekernels.loss.Loss;

/**
 * What every optimizer shares: arena ownership, state allocation, the predict/update pairing and
 * entry validation. Subclasses hold the algorithm's buffers and call its kernels.
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
  /** State buffers start on a cache-line boundary. */
  private static final long ALIGN = 64;

  private final String algorithm;
  /** Model dimension. */
  protected final int d;
  /** Element type of the inputs, the weights and (unless {@link Precision#MIXED}) of every buffer. */
  protected final ElementType type;
  /** Precision of the buffers: {@code MIXED} keeps the accumulators in double. */
  protected final Precision precision;
  /** Kernel implementation in use. */
  protected final KernelProvider kernels;
  private final Arena arena;
  private final boolean ownsArena;
  /** Physical buffers, as a checkpoint stores them. */
  private final Map<String, MemorySegment> buffers = new LinkedHashMap<>();
  /** State variables by name, where they live in the buffers. */
  private final Map<String, Field> fields = new LinkedHashMap<>();
  /**
   * Scratch, grown to the longest row seen (heap, so growth is left to the GC): a row copy
   * ({@code rowIdx} and the values of the element type, with segment views for the kernels) and
   * two per-entry arrays for the fused bodies ({@code w_j}, {@code M_j}).
   */
  private int[] rowIdx;
  private float[] rowF;
  private float[] aF;
  private float[] bF;
  private double[] rowD;
  private double[] aD;
  private double[] bD;
  private MemorySegment rowIdxSeg;
  private MemorySegment rowValSeg;
  private int scratchCapacity = -1;

  /**
   * State variable {@code i} is element {@code offset + i * stride} of {@code segment} (planar:
   * offset 0, stride 1).
   */
  private record Field(MemorySegment segment, long offset, long stride, ElementType type) {
    double get(int i) {
      long at = offset + i * stride;
      return type == ElementType.FLOAT
          ? segment.getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, at)
          : segment.getAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, at);
    }

    void set(int i, double v) {
      long at = offset + i * stride;
      if (type == ElementType.FLOAT) {
        segment.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, at, (float) v);
      } else {
        segment.setAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, at, v);
      }
    }
  }
  /** For the input scan. */
  private final LinearAlgebraKernel scan;
  private InputPolicy policy = InputPolicy.CHECKED;
  private Thread owner = Thread.currentThread();
  /** {@code max |x_i|} of the pending instance (for the {@code g * x} bound at update). */
  private double pendingMaxAbs;

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
    this(algorithm, d, Precision.of(type), arena, kernels);
  }

  /**
   * As {@link #AbstractOptimizer(String, int, ElementType, Arena, KernelProvider)} with a
   * {@link Precision}; the element type of inputs and weights is {@link Precision#inputType()}.
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
    this.scan = this.kernels.linearAlgebra(type);
  }

  /** The current input policy ({@link InputPolicy#CHECKED} unless set otherwise). */
  public final InputPolicy inputPolicy() {
    return policy;
  }

  /** Chooses whether vector input is scanned before each call; see {@link InputPolicy}. */
  public final void setInputPolicy(InputPolicy policy) {
    checkOpen();
    if (policy == null) {
      throw new IllegalArgumentException("input policy must be CHECKED or TRUSTED, got null");
    }
    this.policy = policy;
  }

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
    for (MemorySegment s : buffers.values()) {
      if (!s.isAccessibleBy(newOwner)) {
        throw new IllegalStateException("the state lives in a confined arena of " + owner.getName()
            + "; create the optimizer with a shared arena to move it between threads");
      }
    }
    owner = newOwner;
  }

  /**
   * Test seam run before every state buffer allocation with the arena and the size (it may throw
   * to simulate a failed allocation); null in production.
   */
  static volatile java.util.function.BiConsumer<Arena, Long> beforeAllocate;

  /**
   * State blocks larger than this get their records touched before each fused round where the
   * algorithm asks for it ({@link #touchRecordsFirst}; {@link RecordTouch}). Measured on ScInOL2
   * float, interleaved, 16 uniform nonzeros per row (Intel Xeon, thread CPU time): 20.0 / 19.3 ns
   * per nonzero without / with the touch at 1 MiB of state, 26.6 / 20.6 at 4 MiB, 40.6 / 30.4 at
   * 16 MiB, 67.4 / 36.4 at 64 MiB, 81.7 / 40.7 at 256 MiB; on heart_scale's 224 bytes it cost
   * about 2 ns per nonzero.
   */
  static final long TOUCH_MIN_BYTES = 1L << 20;

  /** The block whose records a fused round touches first, or null (small or no block). */
  private MemorySegment touchBlock;
  private long touchStepBytes;
  private int touchFields;
  private long touchStrideBytes;

  /** The most elements a state block on the heap may have (a Java array's practical limit). */
  private static final long MAX_HEAP_ELEMENTS = Integer.MAX_VALUE - 8;

  /** Allocates a zeroed state buffer of {@code d} elements, registered under {@code name}. */
  protected final MemorySegment allocate(String name) {
    return allocate(name, type);
  }

  /**
   * Allocates a zeroed state buffer of {@code d} elements of {@code bufferType} (a mixed-precision
   * accumulator), registered under {@code name}.
   */
  protected final MemorySegment allocate(String name, ElementType bufferType) {
    MemorySegment s = allocateRaw(name, (long) d * bufferType.bytes());
    buffers.put(name, s);
    fields.put(name, new Field(s, 0, 1, bufferType));
    return s;
  }

  /**
   * {@code bytes} zeroed bytes from the arena. On failure, an arena this optimizer owns is closed
   * first: without that, the buffers allocated so far would stay resident for good (a confined
   * arena is freed by close() only, and the caller never gets the optimizer to close).
   */
  private MemorySegment allocateRaw(String name, long bytes) {
    return allocateRaw(name, bytes, null);
  }

  /**
   * {@code bytes} zeroed bytes: on the Java heap, as an array of {@code heapType} viewed as a
   * segment, if {@code heapType} is not null and the elements fit in one array; else from the arena.
   */
  private MemorySegment allocateRaw(String name, long bytes, ElementType heapType) {
    try {
      java.util.function.BiConsumer<Arena, Long> hook = beforeAllocate;
      if (hook != null) {
        hook.accept(arena, bytes);
      }
      if (heapType != null && bytes / heapType.bytes() <= MAX_HEAP_ELEMENTS) {
        int n = (int) (bytes / heapType.bytes());
        return heapType == ElementType.FLOAT ? MemorySegment.ofArray(new float[n]) : MemorySegment.ofArray(new double[n]);
      }
      return arena.allocate(bytes, ALIGN);
    } catch (OutOfMemoryError | RuntimeException e) {
      long held = 0;
      for (MemorySegment b : buffers.values()) {
        held += b.byteSize();
      }
      if (ownsArena) {
        arena.close();
      }
      OutOfMemoryError oom = new OutOfMemoryError(algorithm + " with d = " + d + ": cannot allocate state buffer '"
          + name + "' of " + bytes + " bytes (" + (held + bytes) + " bytes of state so far)"
          + (ownsArena ? "; what was allocated is freed" : "; what was allocated stays in the caller's arena"));
      oom.initCause(e);
      throw oom;
    }
  }

  /**
   * Allocates the state variables {@code names} (zeroed, {@code d} elements each) as one segment
   * in {@code layout}, for the fused round bodies that address variable {@code f} of coordinate
   * {@code i} as element {@code f * step + i * stride} ({@link #step}, {@link #stride}). Planar:
   * each variable is a {@code d}-element slice registered under its name, so checkpoints are those
   * of separately allocated buffers; interleaved: one buffer named {@code "G+S2+M+eta
   * (interleaved)"} (the variables joined), which is how a checkpoint records the layout.
   */
  protected final MemorySegment allocateBlock(String[] names, ElementType bufferType, StateLayout layout) {
    int f = names.length;
    this.layout = layout;
    // Interleaved state lives on the heap where it fits one array: the fused round bodies read a
    // heap segment faster than a native one (heart_scale, ScInOL2 float, thread CPU time: 213
    // against 232 ns per row in a confined arena, 226 in a shared one; a plain float[] 206).
    // Planar state stays in the arena: the dense vector kernels stream it, and merges and
    // ownership transfers rely on the arena.
    long bytes = (long) f * d * bufferType.bytes();
    MemorySegment s = allocateRaw(String.join("+", names), bytes, layout == StateLayout.INTERLEAVED ? bufferType : null);
    if (bytes > TOUCH_MIN_BYTES && touchRecordsFirst()) {
      touchBlock = s;
      touchStepBytes = step(layout) * bufferType.bytes();
      touchFields = layout == StateLayout.PLANAR ? f : 1;
      touchStrideBytes = stride(layout, f) * bufferType.bytes();
    }
    if (layout == StateLayout.PLANAR) {
      for (int k = 0; k < f; k++) {
        MemorySegment slice = s.asSlice((long) k * d * bufferType.bytes(), (long) d * bufferType.bytes());
        buffers.put(names[k], slice);
        fields.put(names[k], new Field(slice, 0, 1, bufferType));
      }
    } else {
      buffers.put(String.join("+", names) + " (interleaved)", s);
      for (int k = 0; k < f; k++) {
        fields.put(names[k], new Field(s, k, f, bufferType));
      }
    }
    return s;
  }

  /** Element distance between two state variables of one coordinate in a block of {@code fields}. */
  protected final long step(StateLayout layout) {
    return layout == StateLayout.PLANAR ? d : 1;
  }

  /** Element distance between two coordinates of one state variable in a block of {@code fields}. */
  protected static long stride(StateLayout layout, int fields) {
    return layout == StateLayout.PLANAR ? 1 : fields;
  }

  /** The precision of the buffers ({@link Precision#MIXED}: float weights, double accumulators). */
  public final Precision precision() {
    return precision;
  }

  /**
   * Element type of the state buffer {@code name} (one of {@link #state()}'s keys): the
   * {@link #elementType()} for every buffer unless {@link Precision#MIXED}, where the
   * accumulators ({@code Q}; {@code G}, {@code S2}, {@code eta}) are {@link ElementType#DOUBLE}.
   */
  public final ElementType stateType(String name) {
    Field f = fields.get(name);
    if (f == null) {
      throw new IllegalArgumentException("no state buffer '" + name + "'; this optimizer has " + fields.keySet());
    }
    return f.type();
  }

  /**
   * Read-only views of the state buffers, by the names of ALGORITHMS.md (e.g. {@code w}, {@code Q}).
   * Each holds {@code d} elements of {@link #stateType(String)}: under {@link Precision#MIXED} the
   * accumulators are double buffers while {@code w}, {@code M} are float. Under
   * {@link StateLayout#INTERLEAVED} they are read-only copies taken now (a variable is not
   * contiguous there), not views.
   */
  public final Map<String, MemorySegment> state() {
    checkOpen();
    Map<String, MemorySegment> views = new LinkedHashMap<>();
    fields.forEach((k, f) -> {
      if (f.stride() == 1) {
        views.put(k, f.segment().asSlice(f.offset() * f.type().bytes(), (long) d * f.type().bytes()).asReadOnly());
      } else {
        MemorySegment copy = f.type() == ElementType.FLOAT
            ? MemorySegment.ofArray(new float[d]) : MemorySegment.ofArray(new double[d]);
        Field out = new Field(copy, 0, 1, f.type());
        for (int i = 0; i < d; i++) {
          out.set(i, f.get(i));
        }
        views.put(k, copy.asReadOnly());
      }
    });
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
    Field s = fields.get(name);
    if (s == null) {
      throw new IllegalArgumentException("no state buffer '" + name + "'; this optimizer has " + fields.keySet());
    }
    if (values == null || values.length != d) {
      throw new IllegalArgumentException("state '" + name + "' needs " + d + " values");
    }
    for (int i = 0; i < d; i++) {
      if (Double.isNaN(values[i])) {
        throw new IllegalArgumentException("state '" + name + "'[" + i + "] is NaN");
      }
      if (s.type() == ElementType.FLOAT && Double.isFinite(values[i]) && Float.isInfinite((float) values[i])) {
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
      s.set(i, values[i]);
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
    String broken = brokenInvariant(name, value);
    if (broken != null) {
      throw new IllegalArgumentException("scalar state '" + name + "' = " + value + " breaks its invariant: " + broken);
    }
    setScalar(name, value);
    cancelPending();
  }

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
    if (Double.isFinite(value) && Math.abs(value) > limit) {
      throw new ParameterRangeException(name, algorithm + ": " + name + " = " + value + " is too large for "
          + type.name().toLowerCase() + " elements (" + why + "); |" + name + "| must be at most " + limit
          + (type == ElementType.FLOAT ? ", or use double elements" : ""));
    }
  }

  /**
   * The invariant that {@code value} would break as an element of state buffer {@code name} or
   * as scalar {@code name}, as a phrase naming the quantity and the rule (e.g. {@code "S2 (sum of
   * squared gradients) is finite and >= 0"}), or {@code null} if it holds. {@link #writeState},
   * {@link #writeScalarState} and {@link Checkpoint#load} refuse a value that breaks one, so no
   * state the algorithm could never reach (a negative sum of squares, an infinite accumulator, a
   * round counter of 0) gets in. The default allows anything but NaN.
   */
  protected String brokenInvariant(String name, double value) {
    return Double.isNaN(value) ? name + " is not NaN" : null;
  }

  /** {@code null} if {@code v} is finite, else the phrase "{@code what} is finite". */
  protected static String finite(double v, String what) {
    return Double.isFinite(v) ? null : what + " is finite";
  }

  /** {@code null} if {@code v} is finite and {@code >= 0}. */
  protected static String nonNegative(double v, String what) {
    return Double.isFinite(v) && v >= 0 ? null : what + " is finite and >= 0";
  }

  /** {@code null} if {@code v} is finite and {@code > 0}. */
  protected static String positive(double v, String what) {
    return Double.isFinite(v) && v > 0 ? null : what + " is finite and > 0";
  }

  /** {@code null} if {@code v} is finite and {@code >= 1} (a round counter). */
  protected static String atLeastOne(double v, String what) {
    return Double.isFinite(v) && v >= 1 ? null : what + " is finite and >= 1";
  }

  /**
   * Checks every element of a buffer image about to replace state buffer {@code name} (raw bytes
   * in native order, of the buffer's element type).
   *
   * @return {@code null}, or the first broken invariant as {@code "name[i] = v breaks ..."}
   */
  final String checkBufferImage(String name, MemorySegment image) {
    // A buffer is one state variable, or an interleaved block "G+S2+M+eta (interleaved)" whose
    // element k belongs to variable k mod (number of variables).
    String[] names = fields.containsKey(name) ? new String[] {name} : name.replace(" (interleaved)", "").split("\\+");
    boolean isFloat = fields.get(names[0]).type() == ElementType.FLOAT;
    long n = image.byteSize() / (isFloat ? Float.BYTES : Double.BYTES);
    for (long i = 0; i < n; i++) {
      double v = isFloat ? image.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i)
          : image.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
      String field = names[(int) (i % names.length)];
      String broken = Double.isNaN(v) ? field + " is not NaN" : brokenInvariant(field, v);
      if (broken != null) {
        return field + "[" + (i / names.length) + "] = " + v + " breaks its invariant: " + broken;
      }
    }
    return null;
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
    double maxAbs = scanInput("x", x, d);
    double yhat = predictDense(x);
    pending = true;
    pendingSparse = false;
    px = x;
    pendingMaxAbs = maxAbs;
    return yhat;
  }

  @Override
  public final double predictSparse(MemorySegment indices, MemorySegment values, int nnz) {
    checkOpen();
    KernelChecks.sparse(indices, values, nnz, d, type);
    double maxAbs = scanInput("values", values, nnz);
    double yhat = predictSparseImpl(indices, values, nnz);
    pending = true;
    pendingSparse = true;
    pidx = indices;
    pval = values;
    pnnz = nnz;
    pendingMaxAbs = maxAbs;
    return yhat;
  }

  @Override
  public final void update(double g) {
    checkOpen();
    if (!pending) {
      throw new IllegalStateException("update(g) needs a pending predict: call predict or predictSparse first");
    }
    KernelChecks.finite("g", g);
    checkGradientScale(g);
    if (pendingSparse) {
      updateSparse(pidx, pval, pnnz, g);
    } else {
      updateDense(px, g);
    }
    cancelPending();
  }

  /**
   * The fused round ({@link LinearModelOptimizer#round}): validation in O(1) (the rows were
   * validated when built: here only their element type, that they fit the dimension, the row
   * number, the label and, under {@link InputPolicy#CHECKED}, the row's recorded {@code max|x_j|}
   * and the gradient bound), then {@link #roundPredict}, the loss derivative, {@link
   * #roundUpdate}. Allocates nothing once the scratch has grown to the longest row.
   *
   * <p>ScInOL2 and AdaGrad (scalar box) run a fused body whose predict half writes nothing, so a
   * refused gradient (a non-finite {@code g}, or one over the CHECKED bound) leaves the state
   * bit-identical. The other algorithms run their {@code predictSparse} and {@code update} on a
   * copy of the row; there a refused gradient leaves what their predict advanced (e.g. ScInOL1's
   * {@code M}), as a refused {@code update} after {@code predictSparse} does.
   */
  @Override
  public final double round(SparseRows rows, int row, double y, Loss loss) {
    checkOpen();
    checkRows(rows, loss);
    if (row < 0 || row >= rows.size()) {
      throw new IllegalArgumentException("row " + row + " is outside 0.." + (rows.size() - 1));
    }
    cancelPending();
    ensureScratch(rows.maxNnz());
    return roundOn(rows, row, y, loss, null, 0);
  }

  /**
   * {@link LinearModelOptimizer#rounds}: the block's arguments and row numbers are checked once,
   * then one loop runs {@link #round}'s per-row part (the loop alone measured no faster than a
   * {@code round} call per row on heart_scale; what a block gains is the loss computed with the
   * derivative, {@link Loss#derivativeAndValue}). A refusal stops the block as {@link #round}
   * would refuse that row, and says where.
   */
  @Override
  public final void rounds(
      SparseRows rows, int[] order, int from, int to, double[] y, Loss loss, double[] yhat, double[] losses) {
    checkOpen();
    checkRows(rows, loss);
    RoundBlocks.check(rows, order, from, to, y, yhat, losses);
    cancelPending();
    ensureScratch(rows.maxNnz());
    int q = from;
    try {
      for (; q < to; q++) {
        yhat[q - from] = roundOn(rows, order[q], y[q - from], loss, losses, q - from);
      }
    } catch (IllegalArgumentException e) {
      throw new RefusedRoundException(q, e);
    }
  }

  /** The checks of a round's arguments that hold for a whole block of rows. */
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

  /**
   * A round's per-row part, on a row known to be in {@code rows}, with the scratch grown; with
   * {@code losses}, the loss goes to {@code losses[at]}.
   */
  private double roundOn(SparseRows rows, int row, double y, Loss loss, double[] losses, int at) {
    KernelChecks.finite("y", y);
    double maxAbs = rows.maxAbs(row);
    if (policy == InputPolicy.CHECKED && !(maxAbs <= InputPolicy.magnitudeLimit(type))) {
      throw new IllegalArgumentException("row " + row + ": max |x_j| = " + maxAbs + " exceeds the input magnitude limit "
          + InputPolicy.magnitudeLimit(type) + " for " + type.name().toLowerCase() + "; rescale the input");
    }
    double yhat = roundPredict(rows, row);
    double g = losses == null ? loss.derivative(y, yhat) : loss.derivativeAndValue(y, yhat, losses, at);
    KernelChecks.finite("g", g);
    pendingMaxAbs = maxAbs;
    checkGradientScale(g);
    roundUpdate(rows, row, g);
    return yhat;
  }

  /**
   * Predict half of a round on row {@code row} (validated): the fused body where there is one,
   * else a copy of the row through {@link #predictSparseImpl}.
   */
  protected double roundPredict(SparseRows rows, int row) {
    int from = rows.offset(row);
    int nnz = rows.nnz(row);
    if (fusedRound()) {
      if (touchBlock != null) {
        RecordTouch.touch(touchBlock, touchStepBytes, touchFields, touchStrideBytes, rows.indices(), from, nnz);
      }
      return fusedPredict(rows.indices(), from, nnz, rows.floats(), rows.doubles());
    }
    System.arraycopy(rows.indices(), from, rowIdx, 0, nnz);
    if (type == ElementType.FLOAT) {
      System.arraycopy(rows.floats(), from, rowF, 0, nnz);
    } else {
      System.arraycopy(rows.doubles(), from, rowD, 0, nnz);
    }
    return predictSparseImpl(rowIdxSeg, rowValSeg, nnz);
  }

  /** Update half of a round, after {@link #roundPredict} of the same row: the fused body or {@link #updateSparse}. */
  protected void roundUpdate(SparseRows rows, int row, double g) {
    if (fusedRound()) {
      fusedUpdate(rows.indices(), rows.offset(row), rows.nnz(row), rows.floats(), rows.doubles(), g);
      return;
    }
    updateSparse(rowIdxSeg, rowValSeg, rows.nnz(row), g);
  }

  /**
   * Whether a fused round on a large state should load the row's records before computing
   * ({@link RecordTouch}): worth it where the compute per nonzero is long enough to keep few
   * misses in flight (ScInOL2: a square root and a division). AdaGrad's predict is a product per
   * nonzero, its misses already overlap, and the touch measured no gain (18.7-28 against 19.9-28
   * ns per nonzero at 64-256 MiB). Called by the constructor's {@link #allocateBlock}: a constant.
   */
  protected boolean touchRecordsFirst() {
    return false;
  }

  /** Whether this optimizer runs a fused round body ({@link #fusedPredict}, {@link #fusedUpdate}). */
  protected boolean fusedRound() {
    return false;
  }

  /**
   * The fused body's predict half on entries {@code [from, from + nnz)} of {@code idx} and of the
   * values ({@code vf} for float, {@code vd} for double): writes only the per-entry scratch.
   */
  protected double fusedPredict(int[] idx, int from, int nnz, float[] vf, double[] vd) {
    throw new UnsupportedOperationException(algorithm + " has no fused round body");
  }

  /** The fused body's update half, after {@link #fusedPredict} of the same entries. */
  protected void fusedUpdate(int[] idx, int from, int nnz, float[] vf, double[] vd, double g) {
    throw new UnsupportedOperationException(algorithm + " has no fused round body");
  }

  /** Grows the scratch to at least {@code n} entries. */
  protected final void ensureScratch(int n) {
    if (n <= scratchCapacity) {
      return;
    }
    int cap = Math.max(Math.max(n, 16), (int) Math.min(Integer.MAX_VALUE - 8, 2L * scratchCapacity));
    rowIdx = new int[cap];
    rowIdxSeg = MemorySegment.ofArray(rowIdx);
    if (type == ElementType.FLOAT) {
      rowF = new float[cap];
      aF = new float[cap];
      bF = new float[cap];
      rowValSeg = MemorySegment.ofArray(rowF);
    } else {
      rowD = new double[cap];
      aD = new double[cap];
      bD = new double[cap];
      rowValSeg = MemorySegment.ofArray(rowD);
    }
    scratchCapacity = cap;
  }

  /**
   * Copies a row given as segments ({@code nnz} indices and values, validated) into the scratch
   * row, for the fused bodies, which take arrays.
   */
  protected final void copyRow(MemorySegment idx, MemorySegment val, int nnz) {
    ensureScratch(nnz);
    MemorySegment.copy(idx, 0, rowIdxSeg, 0, (long) nnz * Integer.BYTES);
    copyValues(val, nnz);
  }

  /** Copies {@code n} values of the element type into the scratch row. */
  protected final void copyValues(MemorySegment val, int n) {
    ensureScratch(n);
    MemorySegment.copy(val, 0, rowValSeg, 0, (long) n * type.bytes());
  }

  /** Indices of the scratch row. */
  protected final int[] scratchIdx() {
    return rowIdx;
  }

  /** Values of the scratch row (float optimizers). */
  protected final float[] scratchRowF() {
    return rowF;
  }

  /** Values of the scratch row (double optimizers). */
  protected final double[] scratchRowD() {
    return rowD;
  }

  /** First per-entry array of the fused bodies (float). */
  protected final float[] scratchAF() {
    return aF;
  }

  /** Second per-entry array of the fused bodies (float). */
  protected final float[] scratchBF() {
    return bF;
  }

  /** First per-entry array of the fused bodies (double). */
  protected final double[] scratchAD() {
    return aD;
  }

  /** Second per-entry array of the fused bodies (double). */
  protected final double[] scratchBD() {
    return bD;
  }

  /**
   * The indices {@code 0 .. d-1} as a sparse index segment, made on first use: dense input on
   * interleaved state runs the sparse round body over it.
   */
  protected final int[] identityIndex() {
    if (identity == null) {
      identity = new int[d];
      for (int i = 0; i < d; i++) {
        identity[i] = i;
      }
    }
    return identity;
  }

  private int[] identity;
  private StateLayout layout = StateLayout.PLANAR;

  /**
   * The layout of the state: {@link StateLayout#PLANAR} unless the optimizer was created
   * {@link StateLayout#INTERLEAVED} (ScInOL2, AdaGrad).
   */
  public final StateLayout layout() {
    return layout;
  }

  /** Whether the state is interleaved. */
  protected final boolean interleaved() {
    return layout == StateLayout.INTERLEAVED;
  }

  /** Sets element {@code i} of the state variable {@code name}, in whatever layout it lives. */
  protected final void setField(String name, int i, double v) {
    fields.get(name).set(i, v);
  }

  /** Sets every element of the state variable {@code name} to {@code v}. */
  protected final void fillField(String name, double v) {
    Field f = fields.get(name);
    for (int i = 0; i < d; i++) {
      f.set(i, v);
    }
  }

  @Override
  public final void readWeights(MemorySegment into) {
    checkOpen();
    KernelChecks.state("into", into, d, type);
    readWeightsImpl(into);
    // A post-check of the output only: the state was not touched, a saturated or overflowed
    // weight must not reach the caller as infinity without notice.
    if (!Double.isFinite(scan.maxAbs(into, d))) {
      throw new ArithmeticException(algorithm + ": a weight is not representable as " + type.name().toLowerCase()
          + " (overflow in the read-out); the state is unchanged, the contents of 'into' are unspecified");
    }
  }

  /**
   * Under {@link InputPolicy#CHECKED}: {@code max |v_i|} over {@code n} elements, refusing a NaN,
   * an infinity or a magnitude above {@link InputPolicy#magnitudeLimit}; under TRUSTED: 0.
   */
  private double scanInput(String name, MemorySegment v, int n) {
    if (policy == InputPolicy.TRUSTED) {
      return 0;
    }
    double m = scan.maxAbs(v, n);
    double limit = InputPolicy.magnitudeLimit(type);
    if (!(m <= limit)) {
      // Slow path, only on failure: name the first offending element.
      for (int i = 0; i < n; i++) {
        double e = type == ElementType.FLOAT
            ? v.getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, i)
            : v.getAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
        if (!(Math.abs(e) <= limit)) {
          throw new IllegalArgumentException(name + "[" + i + "] = " + e + (Double.isFinite(e)
              ? " exceeds the input magnitude limit " + limit + " for " + type.name().toLowerCase() + "; rescale the input"
              : " is not finite; clean the input, or use InputPolicy.TRUSTED to skip this check at your own risk"));
        }
      }
    }
    return m;
  }

  /** Under CHECKED, {@code |g|} and {@code |g| * max|x|} of the pending instance within the limit. */
  private void checkGradientScale(double g) {
    if (policy == InputPolicy.TRUSTED) {
      return;
    }
    double limit = InputPolicy.magnitudeLimit(type);
    if (!(Math.abs(g) <= limit) || !(Math.abs(g) * pendingMaxAbs <= limit)) {
      throw new IllegalArgumentException("g = " + g + ": |g| and |g| * max|x_i| (max|x_i| = " + pendingMaxAbs
          + ") must be <= " + limit + " for " + type.name().toLowerCase() + "; rescale the loss or the input");
    }
  }

  /**
   * Entry check of a gradient-form dense step: open, owner thread, size, and under CHECKED the
   * input scan. For subclasses' {@code step} methods.
   */
  protected final void checkGradient(MemorySegment gradient) {
    checkOpen();
    KernelChecks.input("gradient", gradient, d, type);
    scanInput("gradient", gradient, d);
  }

  /** Entry check of a gradient-form sparse step, like {@link #checkGradient}. */
  protected final void checkSparseGradient(MemorySegment indices, MemorySegment values, int nnz) {
    checkOpen();
    KernelChecks.sparse(indices, values, nnz, d, type);
    scanInput("values", values, nnz);
  }

  /** Raw state buffers by name, for {@link Checkpoint}. */
  final Map<String, MemorySegment> buffers() {
    return buffers;
  }

  /**
   * The parameters as text, compared by {@link Checkpoint#load}: {@code params().toString()} of
   * the concrete optimizer (every one has a public {@code params()}), so any difference in a
   * parameter is a mismatch.
   */
  String checkpointParams() {
    try {
      Object p = getClass().getMethod("params").invoke(this);
      if (p instanceof Record r) {
        // Record.toString prints arrays by identity; spell their contents out instead.
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
   * algorithm's rule: for AdaGrad and Adaptive OGD the step-size accumulators summed (by
   * increments) and the weights averaged, weighted by each learner's increment of its step-size
   * accumulator; for ScInOL and DFEG the whole state averaged over the learners that changed it,
   * with {@code M} the maximum.
   *
   * <p>Exact where the rule allows: one learner gives its own state; learners whose state equals
   * the start change nothing; the learners are combined in one canonical order (the lexicographic
   * order of their state bits), so the result is bit for bit the same in whatever order they are
   * given. Every learner must be of the same algorithm, dimension, precision and parameters, open,
   * owned by the calling thread and without a pending predict; a pending predict of this
   * optimizer is cancelled. A merged value the element type cannot hold is refused with
   * {@link ArithmeticException} before anything is written.
   *
   * @param learners the learners, at least one; they are read, never changed
   * @throws UnsupportedOperationException for an algorithm without a merge rule
   */
  public final void merge(java.util.List<? extends AbstractOptimizer> learners) {
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
    source.buffers.forEach((name, seg) -> MemorySegment.copy(seg, 0, buffers.get(name), 0, seg.byteSize()));
    scalars.forEach(this::setScalar);
  }

  /** The merge rules of this algorithm, or null for none (then {@link #merge} is refused). */
  MergePlan mergePlan() {
    return null;
  }

  /** Runs after a merge has written the merged state (e.g. DFEG recomputes its norm). */
  void afterMerge() {}

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

  @Override
  public final void reset() {
    checkOpen();
    cancelPending();
    buffers.values().forEach(s -> s.fill((byte) 0));
    resetImpl();
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

  private boolean closed;

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

  /** Sets every element of {@code s} to {@code v}. */
  protected final void fill(MemorySegment s, double v) {
    for (int i = 0; i < d; i++) {
      set(s, i, v);
    }
  }

  /**
   * Writes element {@code i} of one of this optimizer's state buffers (all hold {@code d}
   * elements, so the byte size tells a float from a double buffer).
   */
  protected final void set(MemorySegment s, int i, double v) {
    if (s.byteSize() == (long) d * Float.BYTES) {
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
