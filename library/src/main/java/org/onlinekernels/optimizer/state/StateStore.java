package org.onlinekernels.optimizer.state;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import org.onlinekernels.kernel.ElementType;

/**
 * An optimizer's state buffers: where each state variable lives (its own buffer, a slice of a
 * planar block, or every {@code fields}-th element of an interleaved block), allocation with
 * cleanup on failure, and element access by name. Buffers are registered by the names a checkpoint
 * stores; variables by the names of docs/ALGORITHMS.md.
 */
public final class StateStore {
  /** State buffers in the arena start on a cache-line boundary. */
  private static final long ALIGN = 64;

  /** The most elements a state block on the heap may have (a Java array's practical limit). */
  private static final long MAX_HEAP_ELEMENTS = Integer.MAX_VALUE - 8;

  /**
   * Test seam run before every state buffer allocation with the arena and the size (it may throw to
   * simulate a failed allocation); null in production.
   */
  static volatile BiConsumer<Arena, Long> beforeAllocate;

  private final String algorithm;
  private final int d;
  private final Arena arena;
  private final boolean ownsArena;

  /** Physical buffers, as a checkpoint stores them. */
  private final Map<String, MemorySegment> buffers = new LinkedHashMap<>();

  private final Map<String, MemorySegment> raw = new LinkedHashMap<>();

  /** State variables by name, where they live in the buffers. */
  private final Map<String, Field> fields = new LinkedHashMap<>();

  /** State variable {@code i} is element {@code offset + i * stride} of {@code segment}. */
  public record Field(MemorySegment segment, long offset, long stride, ElementType type) {
    /** Variable element {@code i}, widened to double. */
    public double get(long i) {
      long at = offset + i * stride;
      return type == ElementType.FLOAT
          ? segment.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, at)
          : segment.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, at);
    }

    /** Sets variable element {@code i}, rounded to the element type. */
    public void set(long i, double v) {
      long at = offset + i * stride;
      if (type == ElementType.FLOAT) {
        segment.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, at, (float) v);
      } else {
        segment.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, at, v);
      }
    }
  }

  public StateStore(String algorithm, int d, Arena arena, boolean ownsArena) {
    this.algorithm = algorithm;
    this.d = d;
    this.arena = arena;
    this.ownsArena = ownsArena;
  }

  /**
   * A zeroed buffer of {@code d} elements of {@code type}, registered as variable and buffer {@code
   * name}.
   */
  public MemorySegment allocate(String name, ElementType type) {
    MemorySegment s = allocateRaw(name, (long) d * type.bytes(), null);
    buffers.put(name, s);
    fields.put(name, new Field(s, 0, 1, type));
    return s;
  }

  /**
   * The variables {@code names} (zeroed, {@code d} elements each) as one segment in {@code layout}:
   * variable {@code f} of coordinate {@code i} at element {@code f * step + i * stride}. Planar:
   * each variable a slice registered under its name (checkpoints as of separate buffers);
   * interleaved: one buffer named {@code "G+S2+M+eta (interleaved)"}, which is how a checkpoint
   * records the layout, kept on the Java heap where it fits one array (the row bodies read a heap
   * segment faster than a native one).
   */
  public MemorySegment allocateBlock(String[] names, ElementType type, StateLayout layout) {
    int f = names.length;
    long bytes = (long) f * d * type.bytes();
    MemorySegment s =
        allocateRaw(
            String.join("+", names), bytes, layout == StateLayout.INTERLEAVED ? type : null);
    if (layout == StateLayout.PLANAR) {
      for (int k = 0; k < f; k++) {
        MemorySegment slice = s.asSlice((long) k * d * type.bytes(), (long) d * type.bytes());
        buffers.put(names[k], slice);
        fields.put(names[k], new Field(slice, 0, 1, type));
      }
    } else {
      buffers.put(String.join("+", names) + " (interleaved)", s);
      for (int k = 0; k < f; k++) {
        fields.put(names[k], new Field(s, k, f, type));
      }
    }
    return s;
  }

  /**
   * {@code bytes} zeroed bytes: on the heap as an array of {@code heapType} viewed as a segment if
   * that type is given and the elements fit one array, else from the arena. On failure an owned
   * arena is closed first: the buffers allocated so far would otherwise stay resident for good.
   * Through a {@link SharingArena} the first optimizer allocates and the later ones get the same
   * buffers (shared-state training, {@link org.onlinekernels.optimizer.parallel.SharedState}).
   */
  private MemorySegment allocateRaw(String name, long bytes, ElementType heapType) {
    MemorySegment s;
    if (arena instanceof AdoptingArena adopting) {
      s = adopting.take(name, bytes);
    } else if (arena instanceof SharingArena sharing) {
      s = sharing.share(name, bytes, () -> allocateOwn(name, bytes, heapType));
    } else {
      s = allocateOwn(name, bytes, heapType);
    }
    raw.put(name, s);
    return s;
  }

  /** The blocks as allocated, by the name each was asked for under (for {@link AdoptingArena}). */
  Map<String, MemorySegment> rawBlocks() {
    return raw;
  }

  /**
   * Whether the buffers are another optimizer's, taken over in place ({@link AdoptingArena}): their
   * content is that optimizer's state, not to be initialized.
   */
  public boolean adopted() {
    return arena instanceof AdoptingArena;
  }

  /**
   * An arena through which one new optimizer takes over these buffers in place, or null where one
   * lives off the heap ({@link AdoptingArena#of}).
   *
   * @param inner where the new optimizer's other allocations go; null for an arena of its own
   */
  public AdoptingArena donor(Arena inner) {
    // A shared state's buffers are its views' too: never handed to a single new optimizer.
    return arena instanceof SharingArena ? null : AdoptingArena.of(this, inner);
  }

  private MemorySegment allocateOwn(String name, long bytes, ElementType heapType) {
    try {
      BiConsumer<Arena, Long> hook = beforeAllocate;
      if (hook != null) {
        hook.accept(arena, bytes);
      }
      if (heapType != null && bytes / heapType.bytes() <= MAX_HEAP_ELEMENTS) {
        int n = (int) (bytes / heapType.bytes());
        return heapType == ElementType.FLOAT
            ? MemorySegment.ofArray(new float[n])
            : MemorySegment.ofArray(new double[n]);
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
      OutOfMemoryError oom =
          new OutOfMemoryError(
              algorithm
                  + " with d = "
                  + d
                  + ": cannot allocate state buffer '"
                  + name
                  + "' of "
                  + bytes
                  + " bytes ("
                  + (held + bytes)
                  + " bytes of state so far)"
                  + (ownsArena
                      ? "; what was allocated is freed"
                      : "; what was allocated stays in the caller's arena"));
      oom.initCause(e);
      throw oom;
    }
  }

  /**
   * Where variable {@code name} lives (null for none): for merges, which read and write single
   * elements.
   */
  public Field field(String name) {
    return fields.get(name);
  }

  /** Whether {@code name} is a state variable. */
  public boolean has(String name) {
    return fields.containsKey(name);
  }

  /** Element type of variable {@code name}. */
  public ElementType type(String name) {
    Field f = fields.get(name);
    if (f == null) {
      throw new IllegalArgumentException(
          "no state buffer '" + name + "'; this optimizer has " + fields.keySet());
    }
    return f.type();
  }

  /** The variable names, in allocation order. */
  public java.util.Set<String> names() {
    return fields.keySet();
  }

  /** Element {@code i} of variable {@code name}. */
  public double get(String name, int i) {
    return fields.get(name).get(i);
  }

  /** Sets element {@code i} of variable {@code name}, rounded to its element type. */
  public void set(String name, int i, double v) {
    fields.get(name).set(i, v);
  }

  /** Sets every element of variable {@code name} to {@code v}, rounded to its element type. */
  public void fill(String name, double v) {
    Field f = fields.get(name);
    // On the heap, a plain strided loop over the array behind the buffer: the JIT compiles it on
    // the stack almost at once, where element-wise segment access runs through var handles in the
    // interpreter first (an optimizer's start-up in a cold JVM: one call per coordinate).
    long bytes = f.type().bytes();
    long last = f.offset() + (d - 1L) * f.stride();
    Object base = f.segment().heapBase().orElse(null);
    if (d > 0
        && f.segment().address() % bytes == 0
        && (last + 1) * bytes <= f.segment().byteSize()) {
      long start = f.segment().address() / bytes + f.offset();
      if (base instanceof float[] a && f.type() == ElementType.FLOAT) {
        fillStrided(a, (int) start, (int) f.stride(), d, (float) v);
        return;
      }
      if (base instanceof double[] a && f.type() == ElementType.DOUBLE) {
        fillStrided(a, (int) start, (int) f.stride(), d, v);
        return;
      }
    }
    for (int i = 0; i < d; i++) {
      f.set(i, v);
    }
  }

  private static void fillStrided(float[] a, int start, int stride, int n, float v) {
    for (int i = 0, at = start; i < n; i++, at += stride) {
      a[at] = v;
    }
  }

  private static void fillStrided(double[] a, int start, int stride, int n, double v) {
    for (int i = 0, at = start; i < n; i++, at += stride) {
      a[at] = v;
    }
  }

  /**
   * Writes {@code values} into variable {@code name}, rounded to its element type, after checking
   * every value (not NaN, representable, within its invariant): a refused write changes nothing.
   */
  public void write(String name, double[] values, Invariants.Check invariants) {
    Field f = fields.get(name);
    if (f == null) {
      throw new IllegalArgumentException(
          "no state buffer '" + name + "'; this optimizer has " + fields.keySet());
    }
    if (values == null || values.length != d) {
      throw new IllegalArgumentException("state '" + name + "' needs " + d + " values");
    }
    boolean isFloat = f.type() == ElementType.FLOAT;
    for (int i = 0; i < d; i++) {
      if (Double.isNaN(values[i])) {
        throw new IllegalArgumentException("state '" + name + "'[" + i + "] is NaN");
      }
      if (isFloat && Double.isFinite(values[i]) && Float.isInfinite((float) values[i])) {
        throw new IllegalArgumentException(
            "state '"
                + name
                + "'["
                + i
                + "] = "
                + values[i]
                + " overflows float; pass a value within +-"
                + Float.MAX_VALUE);
      }
      String broken = invariants.broken(name, values[i]);
      if (broken != null) {
        throw new IllegalArgumentException(
            "state '" + name + "'[" + i + "] = " + values[i] + " breaks its invariant: " + broken);
      }
    }
    for (int i = 0; i < d; i++) {
      f.set(i, values[i]);
    }
  }

  /** Zeroes every buffer. */
  public void clear() {
    buffers.values().forEach(s -> s.fill((byte) 0));
  }

  /** Read-only views of the variables; copies where a variable is not contiguous (interleaved). */
  public Map<String, MemorySegment> views() {
    Map<String, MemorySegment> views = new LinkedHashMap<>();
    fields.forEach(
        (k, f) -> {
          if (f.stride() == 1) {
            views.put(
                k,
                f.segment()
                    .asSlice(f.offset() * f.type().bytes(), (long) d * f.type().bytes())
                    .asReadOnly());
          } else {
            MemorySegment copy =
                f.type() == ElementType.FLOAT
                    ? MemorySegment.ofArray(new float[d])
                    : MemorySegment.ofArray(new double[d]);
            Field out = new Field(copy, 0, 1, f.type());
            for (int i = 0; i < d; i++) {
              out.set(i, f.get(i));
            }
            views.put(k, copy.asReadOnly());
          }
        });
    return views;
  }

  /** Raw buffers by name, for checkpoints and merges. */
  public Map<String, MemorySegment> buffers() {
    return buffers;
  }

  /** Whether every buffer may be accessed by {@code thread}. */
  public boolean accessibleBy(Thread thread) {
    for (MemorySegment s : buffers.values()) {
      if (!s.isAccessibleBy(thread)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The first element of a buffer image (raw bytes in native order of the buffer's element type,
   * about to replace buffer {@code name}) that breaks an invariant, as {@code "name[i] = v breaks
   * ..."}, or null. A buffer is one variable or an interleaved block whose element {@code k}
   * belongs to variable {@code k mod (number of variables)}. The image may be a part of the whole,
   * from byte {@code offset} of the buffer on (a multiple of the element size), so that an image
   * read in chunks is checked with the indices of the whole.
   */
  public String checkImage(
      String name, MemorySegment image, long offset, Invariants.Check invariants) {
    String[] names =
        fields.containsKey(name)
            ? new String[] {name}
            : name.replace(" (interleaved)", "").split("\\+");
    boolean isFloat = fields.get(names[0]).type() == ElementType.FLOAT;
    int bytes = isFloat ? Float.BYTES : Double.BYTES;
    long n = image.byteSize() / bytes;
    for (long k = 0, i = offset / bytes; k < n; k++, i++) {
      double v =
          isFloat
              ? image.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, k)
              : image.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, k);
      String field = names[(int) (i % names.length)];
      String broken = Double.isNaN(v) ? field + " is not NaN" : invariants.broken(field, v);
      if (broken != null) {
        return field + "[" + (i / names.length) + "] = " + v + " breaks its invariant: " + broken;
      }
    }
    return null;
  }
}
