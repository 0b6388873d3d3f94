package org.onlinekernels.rules.ogd;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelChecks;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.optimizer.ParameterRangeException;
import org.onlinekernels.optimizer.SparseRows;

/**
 * Plain online gradient descent with the rate {@code eta / sqrt(t)} (Zinkevich 2003; "SGD" in
 * Kempka et al. 2019, "OGD" / "Kernel GD" in Orabona 2013): {@code w <- P(w - eta/sqrt(t) g x)},
 * with {@code P} the projection onto the L2 ball of radius {@code R} (none when infinite).
 *
 * <p>This is the baseline the papers compare against, not one of the library's algorithms, so it
 * has no SIMD kernel: plain loops over the weights, arithmetic in {@code double}, weights stored
 * rounded to the element type like every optimizer's. A sparse step is O(nnz) without a ball and
 * O(d) with one (the projection needs {@code ||w||}).
 */
public final class OgdOptimizer implements LinearModelOptimizer {
  private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;

  private final int d;
  private final ElementType type;
  private final double eta;
  private final double radius;
  private final Arena arena;
  private final boolean ownsArena;
  private final MemorySegment w;
  private long t;
  private boolean pending;
  private boolean pendingSparse;
  private MemorySegment px;
  private MemorySegment pidx;
  private MemorySegment pval;
  private int pnnz;

  /** Row copies for {@link #round}, grown to the longest row. */
  private MemorySegment rowIdx;

  private MemorySegment rowVal;

  /**
   * @param eta base rate, {@code > 0}
   * @param radius ball radius {@code R > 0}, or {@code +inf} for no projection
   * @param arena where the weights live; {@code null}: an owned confined arena
   */
  public OgdOptimizer(int d, ElementType type, double eta, double radius, Arena arena) {
    if (d < 1) {
      throw new IllegalArgumentException("dimension d must be >= 1, got " + d);
    }
    if (type == null) {
      throw new IllegalArgumentException("element type must be FLOAT or DOUBLE, got null");
    }
    if (!(eta > 0) || Double.isInfinite(eta)) {
      throw new IllegalArgumentException("eta must be positive and finite, got " + eta);
    }
    if (!(radius > 0)) {
      throw new IllegalArgumentException(
          "R must be positive (or infinite for no ball), got " + radius);
    }
    // the weights are stored in the element type: a rate beyond its range makes the first step
    // infinite
    ParameterRangeException.check(
        "ogd",
        type,
        "eta",
        eta,
        type == ElementType.FLOAT ? Float.MAX_VALUE : Double.MAX_VALUE,
        "the first step would overflow");
    this.d = d;
    this.type = type;
    this.eta = eta;
    this.radius = radius;
    this.ownsArena = arena == null;
    this.arena = ownsArena ? Arena.ofConfined() : arena;
    this.w = this.arena.allocate((long) d * type.bytes(), 64);
  }

  @Override
  public String algorithm() {
    return "ogd";
  }

  @Override
  public int dimension() {
    return d;
  }

  @Override
  public ElementType elementType() {
    return type;
  }

  private double get(MemorySegment s, long i) {
    return type == ElementType.FLOAT ? s.getAtIndex(F, i) : s.getAtIndex(D, i);
  }

  private void set(MemorySegment s, long i, double v) {
    if (type == ElementType.FLOAT) {
      s.setAtIndex(F, i, (float) v);
    } else {
      s.setAtIndex(D, i, v);
    }
  }

  @Override
  public double predict(MemorySegment x) {
    checkOpen();
    KernelChecks.input("x", x, d, type);
    double s = 0;
    for (int i = 0; i < d; i++) {
      s += get(w, i) * get(x, i);
    }
    pending = true;
    pendingSparse = false;
    px = x;
    return s;
  }

  @Override
  public double predictSparse(MemorySegment indices, MemorySegment values, int nnz) {
    checkOpen();
    KernelChecks.sparse(indices, values, nnz, d, type);
    double s = 0;
    for (int j = 0; j < nnz; j++) {
      s += get(w, indices.getAtIndex(I, j)) * get(values, j);
    }
    pending = true;
    pendingSparse = true;
    pidx = indices;
    pval = values;
    pnnz = nnz;
    return s;
  }

  /** {@link #predictSparse} and {@link #update} on a copy of the row (no allocation once grown). */
  @Override
  public double round(SparseRows rows, int row, double y, Loss loss) {
    checkOpen();
    if (rows.elementType() != type || loss == null || !Double.isFinite(y)) {
      throw new IllegalArgumentException(
          "round needs " + type + " rows, a loss and a finite label");
    }
    int nnz = rows.nnz(row);
    if (rowIdx == null || rowIdx.byteSize() < (long) rows.maxNnz() * Integer.BYTES) {
      rowIdx = arena.allocate((long) Math.max(1, rows.maxNnz()) * Integer.BYTES, 64);
      rowVal = arena.allocate((long) Math.max(1, rows.maxNnz()) * type.bytes(), 64);
    }
    for (int j = 0; j < nnz; j++) {
      rowIdx.setAtIndex(I, j, rows.index(row, j));
      set(rowVal, j, rows.value(row, j));
    }
    double yhat = predictSparse(rowIdx, rowVal, nnz);
    update(loss.derivative(y, yhat));
    return yhat;
  }

  @Override
  public void update(double g) {
    checkOpen();
    if (!pending) {
      throw new IllegalStateException(
          "update(g) needs a pending predict: call predict or predictSparse first");
    }
    KernelChecks.finite("g", g);
    t++;
    double step = eta / Math.sqrt(t) * g;
    if (pendingSparse) {
      for (int j = 0; j < pnnz; j++) {
        int i = pidx.getAtIndex(I, j);
        set(w, i, get(w, i) - step * get(pval, j));
      }
    } else {
      for (int i = 0; i < d; i++) {
        set(w, i, get(w, i) - step * get(px, i));
      }
    }
    if (!Double.isInfinite(radius)) {
      double n2 = 0;
      for (int i = 0; i < d; i++) {
        double v = get(w, i);
        n2 += v * v;
      }
      double n = Math.sqrt(n2);
      if (n > radius) {
        double f = radius / n;
        for (int i = 0; i < d; i++) {
          set(w, i, get(w, i) * f);
        }
      }
    }
    pending = false;
    px = pidx = pval = null;
  }

  @Override
  public void readWeights(MemorySegment into) {
    checkOpen();
    KernelChecks.state("into", into, d, type);
    MemorySegment.copy(w, 0, into, 0, (long) d * type.bytes());
  }

  @Override
  public void reset() {
    checkOpen();
    w.fill((byte) 0);
    t = 0;
    pending = false;
    px = pidx = pval = null;
  }

  @Override
  public void close() {
    if (ownsArena && arena.scope().isAlive()) {
      arena.close();
    }
    closed = true;
  }

  private boolean closed;

  private void checkOpen() {
    if (closed || !arena.scope().isAlive()) {
      throw new IllegalStateException("ogd optimizer is closed; create a new one");
    }
  }
}
