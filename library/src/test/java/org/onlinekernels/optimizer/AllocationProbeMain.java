package org.onlinekernels.optimizer;

import com.sun.management.ThreadMXBean;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.loss.Loss;

/**
 * Warms up every optimizer's predict and update, dense and sparse, for both element types in the
 * order given on the command line, then measures the bytes each call allocates on this thread. Run
 * in a fresh JVM by {@link AllocationFreeTest}: which element type C2 sees first changes its
 * inlining decisions, so only a fresh JVM per order shows what a user would get.
 *
 * <p>Arguments: the element types in warm-up order ({@code FLOAT DOUBLE} or {@code DOUBLE FLOAT}),
 * optionally followed by {@code d=N}, {@code warmup=N}, {@code calls=N}. Prints one line per entry:
 * {@code entry type bytesPerCall nsPerCoordinate}.
 */
public final class AllocationProbeMain {
  private AllocationProbeMain() {}

  private static final ThreadMXBean MX = (ThreadMXBean) ManagementFactory.getThreadMXBean();

  private static final int NNZ = 16;
  private static final int PASSES = 4;

  /** One optimizer under test with its inputs. */
  private record Case(
      String name,
      ElementType type,
      AbstractOptimizer opt,
      MemorySegment x,
      MemorySegment idx,
      MemorySegment val,
      SparseRows rows) {}

  /**
   * Entry point; see the class comment for the arguments.
   *
   * @param args element types in warm-up order, then optional {@code key=value} settings
   */
  public static void main(String[] args) {
    List<ElementType> order = new ArrayList<>();
    int d = 1024, warmup = 20_000, calls = 2_000;
    for (String a : args) {
      if (a.startsWith("d=")) {
        d = Integer.parseInt(a.substring(2));
      } else if (a.startsWith("warmup=")) {
        warmup = Integer.parseInt(a.substring(7));
      } else if (a.startsWith("calls=")) {
        calls = Integer.parseInt(a.substring(6));
      } else {
        order.add(ElementType.valueOf(a));
      }
    }
    if (order.isEmpty()) {
      order = List.of(ElementType.FLOAT, ElementType.DOUBLE);
    }
    Arena arena = Arena.ofConfined();
    List<Case> cases = new ArrayList<>();
    for (ElementType t : order) {
      MemorySegment x = arena.allocate((long) d * t.bytes(), 64);
      MemorySegment idx = arena.allocate(4L * NNZ, 64),
          val = arena.allocate((long) NNZ * t.bytes(), 64);
      for (int i = 0; i < d; i++) {
        set(x, t, i, Math.sin(i));
      }
      for (int j = 0; j < NNZ; j++) {
        idx.setAtIndex(ValueLayout.JAVA_INT, j, j * (d / NNZ));
        set(val, t, j, 0.5 - 0.0625 * j);
      }
      int[] rowIdx = new int[NNZ];
      double[] rowVal = new double[NNZ];
      for (int j = 0; j < NNZ; j++) {
        rowIdx[j] = j * (d / NNZ);
        rowVal[j] = 0.5 - 0.0625 * j;
      }
      SparseRows rows = SparseRows.of(new int[] {0, NNZ}, rowIdx, rowVal, t);
      for (AllOptimizers.Named n : AllOptimizers.all()) {
        cases.add(
            new Case(
                n.name(),
                t,
                n.factory().create(d, t, arena, KernelProvider.vector()),
                x,
                idx,
                val,
                rows));
      }
    }
    // The first pass warms every entry of the first type before the second sees any call: the
    // point is the profile and inlining state C2 builds from one type only. Later passes go
    // round the entries again because on a small machine (2 CPUs: one C2 thread) the C2 queue
    // is long during the first pass; a method whose C2 compile waited (or that sits at tier 2,
    // or only has an OSR version) still runs C1 code that boxes every vector, and a user's loop
    // calls it again long after the queue drained, as these passes do.
    for (int pass = 0; pass < PASSES; pass++) {
      for (Case c : cases) {
        run(c, warmup / PASSES, false);
        run(c, warmup / PASSES, true);
        runRounds(c, warmup / PASSES);
      }
    }
    // Diagnosis aid: -Dprobe.jfr=file.jfr records allocation samples of the measured calls only
    // (the warm-up allocates by design: interpreter and C1 box every vector).
    String jfr = System.getProperty("probe.jfr");
    jdk.jfr.Recording recording = null;
    if (jfr != null) {
      recording = new jdk.jfr.Recording();
      recording.enable("jdk.ObjectAllocationSample").with("throttle", "100000/s").withStackTrace();
      recording.start();
    }
    for (Case c : cases) {
      for (int sparse = 0; sparse < 2; sparse++) {
        // Best of several rounds: a steady per-call allocation (boxed vectors in compiled code)
        // shows in every round, while code that C2 has not compiled yet (one compiler thread on
        // a 2-CPU machine, queue full under load) allocates only until it is replaced. So an
        // entry that still allocates is warmed again and re-measured, for up to 20 s; only an
        // allocation that survives all of that is reported.
        long pb = Long.MAX_VALUE, ub = Long.MAX_VALUE, ns = Long.MAX_VALUE;
        long deadline = System.nanoTime() + 20_000_000_000L;
        for (int round = 0;
            round < 3 || ((pb > 0 || ub > 0) && System.nanoTime() < deadline);
            round++) {
          if (round >= 3) {
            run(c, warmup / PASSES, sparse == 1);
          }
          long[] m = measure(c, calls, sparse == 1);
          pb = Math.min(pb, m[0]);
          ub = Math.min(ub, m[1]);
          ns = Math.min(ns, m[2]);
        }
        String kind = sparse == 1 ? "sparse" : "dense";
        double perCoord = ns / (double) calls / (sparse == 1 ? NNZ : d);
        System.out.printf(
            "%s.predict-%s %s %.1f %.3f%n",
            c.name(), kind, c.type(), pb / (double) calls, perCoord);
        System.out.printf(
            "%s.update-%s %s %.1f %.3f%n", c.name(), kind, c.type(), ub / (double) calls, perCoord);
      }
    }
    for (Case c : cases) {
      long best = Long.MAX_VALUE, ns = Long.MAX_VALUE;
      long deadline = System.nanoTime() + 20_000_000_000L;
      for (int round = 0; round < 3 || (best > 0 && System.nanoTime() < deadline); round++) {
        if (round >= 3) {
          runRounds(c, warmup / PASSES);
        }
        long b0 = MX.getCurrentThreadAllocatedBytes();
        long t0 = System.nanoTime();
        runRounds(c, calls);
        ns = Math.min(ns, System.nanoTime() - t0);
        best = Math.min(best, MX.getCurrentThreadAllocatedBytes() - b0);
      }
      System.out.printf(
          "%s.round+rounds %s %.1f %.3f%n",
          c.name(), c.type(), best / (double) calls, ns / (double) calls / NNZ);
    }
    if (recording != null) {
      try {
        recording.dump(java.nio.file.Path.of(jfr));
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      recording.close();
    }
  }

  private static void set(MemorySegment m, ElementType t, int i, double v) {
    if (t == ElementType.FLOAT) {
      m.setAtIndex(ValueLayout.JAVA_FLOAT, i, (float) v);
    } else {
      m.setAtIndex(ValueLayout.JAVA_DOUBLE, i, v);
    }
  }

  private static double grad(int r) {
    return (r & 1) == 0 ? 1e-3 : -1e-3;
  }

  private static final int[] BLOCK_ORDER = {0, 0, 0, 0};
  private static final double[] BLOCK_Y = {1, -1, 1, -1};
  private static final double[] BLOCK_YHAT = new double[4];
  private static final double[] BLOCK_LOSS = new double[4];

  /**
   * {@code round} and {@code rounds} (blocks of 4 rounds on row 0) in turn; a call is one round.
   */
  private static double runRounds(Case c, int calls) {
    double sink = 0;
    for (int r = 0; r < calls; r += 8) {
      for (int k = 0; k < 4; k++) {
        sink += c.opt().round(c.rows(), 0, (k & 1) == 0 ? 1 : -1, Loss.LOGISTIC);
      }
      c.opt().rounds(c.rows(), BLOCK_ORDER, 0, 4, BLOCK_Y, Loss.LOGISTIC, BLOCK_YHAT, BLOCK_LOSS);
      sink += BLOCK_YHAT[3];
    }
    return sink;
  }

  private static double run(Case c, int calls, boolean sparse) {
    double sink = 0;
    for (int r = 0; r < calls; r++) {
      sink += sparse ? c.opt().predictSparse(c.idx(), c.val(), NNZ) : c.opt().predict(c.x());
      c.opt().update(grad(r));
    }
    return sink;
  }

  /** Returns {predict bytes, update bytes, nanoseconds of predict + update} over {@code calls}. */
  private static long[] measure(Case c, int calls, boolean sparse) {
    long predictBytes = 0, updateBytes = 0;
    long t0 = System.nanoTime();
    for (int r = 0; r < calls; r++) {
      long b0 = MX.getCurrentThreadAllocatedBytes();
      if (sparse) {
        c.opt().predictSparse(c.idx(), c.val(), NNZ);
      } else {
        c.opt().predict(c.x());
      }
      long b1 = MX.getCurrentThreadAllocatedBytes();
      c.opt().update(grad(r));
      long b2 = MX.getCurrentThreadAllocatedBytes();
      predictBytes += b1 - b0;
      updateBytes += b2 - b1;
    }
    return new long[] {predictBytes, updateBytes, System.nanoTime() - t0};
  }
}
