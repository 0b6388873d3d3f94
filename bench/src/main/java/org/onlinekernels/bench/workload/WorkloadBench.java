package org.onlinekernels.bench.workload;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.onlinekernels.bench.workload.hand.HandLoop;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.InputPolicy;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.CompilerControl;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The trainer's real job (issue #10): one measured operation is one full online pass over a {@link
 * Workload} from a fresh model (reset before every pass, untimed: {@code Level.Invocation} on
 * operations of 50 microseconds and more). {@code Mode.SampleTime}, so that the report can take the
 * median of the individual passes: on the shared machine a pass of 0.14 ms was stalled for several
 * milliseconds once in 20-25 passes (load average 11), which moved an iteration's mean 3-5 fold;
 * JMH's mean is reported next to the median. The report command ({@link WorkloadReport}) runs the
 * workloads one after another and, for each, every contender, so drift on the shared machine hits
 * the contenders of a workload alike; ratios are taken between figures of one run.
 *
 * <p>Checks, so that a contender that computes something else cannot post a time: the hand loop's
 * trial first runs {@link Lockstep} (the library's optimizers, fed the hand loop's summation order,
 * must give every row's {@code yhat} within the rounding bound and the hand loop's mean loss bit
 * for bit); a library contender's first pass must equal, bit for bit, a first pass of another of
 * the library's paths ({@link #partner}: the contenders sum in one order on interleaved state) and,
 * for a rule with a hand loop, agree with a free-running hand loop within {@link HandLoop}'s
 * derived bound wherever the trajectory is stable ({@link #stable}). Every timed pass must then
 * reproduce that first loss exactly ({@code @TearDown(Level.Iteration)}). The trainer is also
 * checked against the C contender, bit for bit, by {@link CCheck} (a JVM of its own: see there).
 *
 * <p>Two clocks per pass: JMH's wall clock, and this thread's CPU time ({@link Cpu}, read in the
 * untimed set-up and tear-down around each pass), for a machine so loaded that other jobs take the
 * core away mid-pass; the report takes either ({@code -Dworkload.clock=cpu}, {@link
 * WorkloadReport}).
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-Xmx3g"})
@Warmup(iterations = 1, time = 300, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 300, timeUnit = TimeUnit.MILLISECONDS)
public class WorkloadBench {
  /** Synthetic streams' total nonzeros per pass in the full profile (rows = this / nnz). */
  public static final String FULL_NONZEROS = "2000000";

  /**
   * What the library's, the hand loop's and the peers' states share: the stream size, the warm-up,
   * the contender, and the thread CPU clock around each pass ({@link Cpu}).
   */
  @State(Scope.Thread)
  public abstract static class Passes {
    /** Synthetic streams' nonzeros per pass. */
    @Param({FULL_NONZEROS})
    public long nonzeros;

    /** Warm-up in the trial set-up: rows x outputs (see {@link #warm}). */
    @Param({WARM_ROWS})
    public long warmRows;

    Contender c;
    Cpu cpu;

    /** A fresh model before every pass ({@link Cpu#reset}). */
    @Setup(Level.Invocation)
    public void reset(Cpu k) {
      cpu = k.reset(c);
    }

    /** The CPU clock stops; a trainer's pass that ended on the vector kernels is counted. */
    @TearDown(Level.Invocation)
    public void stop() {
      cpu.stop();
      if (c instanceof TrainerContender t && "vector".equals(t.kernels())) {
        cpu.vectorPasses++;
      }
    }
  }

  /** Library and hand-written contenders. */
  public static class Run extends Passes {
    /** {@link Workload} spec. */
    @Param({"zipf:20:40"})
    public String workload;

    /** {@code hand} or one of {@link #LIBRARY}. */
    @Param({"hand", "trainer-trusted", "trainer-checked", "per-call", "rounds", "rounds-buffers"})
    public String contender;

    /** A rule of {@code Rules.ALL} (the hand loop: {@link HandLoop#RULES} only). */
    @Param({"scinol2", "adagrad"})
    public String algo;

    /** {@code float} or {@code double}. */
    @Param({"float", "double"})
    public String type;

    Workload wl;
    double expected;
    double last = Double.NaN;

    /**
     * Reads or generates the rows, makes the contender and records the loss every timed pass must
     * reproduce: the hand loop's is checked against the library in {@link Lockstep}; a library
     * contender's first pass against a free-running hand loop within {@link HandLoop}'s bound,
     * where the trajectory is stable ({@link #stable}).
     */
    @Setup(Level.Trial)
    public void setUp() {
      wl = Workload.load(workload, nonzeros, Workload.dataFolder());
      ElementType t = ElementType.parse(type);
      c = make(contender, algo, t, wl);
      if (contender.equals("hand")) {
        warm(c, wl, warmRows, LIBRARY_WARM_NONZEROS);
        // Same trajectory, same sums: bit for bit.
        expected = Lockstep.meanLoss(wl, algo, t);
        return;
      }
      expected = warm(c, wl, warmRows, LIBRARY_WARM_NONZEROS);
      if (contender.startsWith("trainer")) {
        warmFor(c, warmSeconds());
      }
      try (Contender p = make(partner(contender), algo, t, wl)) {
        p.reset();
        requireAgreement(
            workload + " " + contender + " " + algo + " " + type + " against " + partner(contender),
            expected,
            p.pass(),
            0);
      }
      if (stable(workload, algo)) {
        HandLoop h = HandLoop.of(algo, t, wl, true);
        double hand = h.pass();
        requireAgreement(
            workload + " " + contender + " " + algo + " " + type + " against the hand loop",
            expected,
            hand,
            h.agreementBound(hand));
      }
    }

    /** The last pass's mean loss must equal the expected one exactly. */
    @TearDown(Level.Iteration)
    public void check() {
      requireAgreement(workload + " " + contender + " " + algo + " " + type, last, expected, 0);
    }

    /** Frees the model. */
    @TearDown(Level.Trial)
    public void tearDown() {
      c.close();
    }
  }

  /** The peers, doubles only, in their own state (no algorithm or type parameter). */
  public static class PeerRun extends Passes {
    /** {@link Workload} spec. */
    @Param({"file:breast_cancer.svm"})
    public String workload;

    /** {@code tribuo} or {@code moa}. */
    @Param({"tribuo", "moa"})
    public String peer;

    Object last;

    /** Reads or generates the rows and builds the peer's own data structures. */
    @Setup(Level.Trial)
    public void setUp() {
      Workload wl = Workload.load(workload, nonzeros, Workload.dataFolder());
      c =
          switch (peer) {
            case "tribuo" -> new TribuoPeer(wl);
            case "moa" -> new MoaPeer(wl);
            default ->
                throw new IllegalArgumentException("peer must be tribuo or moa, got " + peer);
          };
      warm(c, wl, warmRows, PEER_WARM_NONZEROS);
    }

    /** The pass produced a model (Tribuo) or a finite loss (MOA). */
    @TearDown(Level.Iteration)
    public void check() {
      if (last == null || (last instanceof Double d && !Double.isFinite(d))) {
        throw new IllegalStateException(peer + " on " + workload + " produced " + last);
      }
    }
  }

  /**
   * This thread's CPU time over the timed passes of an iteration, as JMH's secondary results {@code
   * cpuMs} and {@code cpuPasses} (sums; the report divides them). Started by the contender's state
   * after its untimed reset, stopped before anything else runs: CPU time counts only what this
   * thread ran, so a pass stalled by another job costs no more than a pass that was not (the caches
   * and the memory bus are still shared).
   */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Cpu {
    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

    /** Milliseconds of thread CPU time in this iteration's timed passes. */
    public double cpuMs;

    /** Timed passes in this iteration. */
    public long cpuPasses;

    /**
     * Timed passes of a trainer in this iteration that ended on the vector kernels (the kernel
     * handover's choice; in the JMH log).
     */
    public long vectorPasses;

    private long started;

    /** Zero at the start of each iteration. */
    @Setup(Level.Iteration)
    public void clear() {
      cpuMs = 0;
      cpuPasses = 0;
      vectorPasses = 0;
    }

    /** Resets {@code c} to a fresh model, untimed, then starts the clock; returns this clock. */
    Cpu reset(Contender c) {
      c.reset();
      started = MX.getCurrentThreadCpuTime();
      return this;
    }

    void stop() {
      cpuMs += (MX.getCurrentThreadCpuTime() - started) / 1e6;
      cpuPasses++;
    }
  }

  /**
   * Rows x outputs every contender trains on in its trial set-up, by default, before JMH's own
   * warm-up.
   */
  public static final String WARM_ROWS = "200000";

  /**
   * ... unless it has seen this many nonzeros x outputs first (library and hand-written: 3
   * full-profile passes).
   */
  static final long LIBRARY_WARM_NONZEROS = 6_000_000;

  /** The same for the peers, whose passes are slower (one full-profile pass). */
  static final long PEER_WARM_NONZEROS = 2_000_000;

  /**
   * Trains from fresh models, pass after pass, until {@code warmRows} rows or {@code nonzeros}
   * nonzeros (times outputs) have gone through: until C2 has compiled the Vector API kernels they
   * run boxed and about 100 times slower (bench-report/kernels-notes.md), and on a small file JMH's
   * short warm-up iterations alone left them half compiled (heart_scale: 62, 26, 14, 7.5 ms per
   * pass in successive iterations for a pass that takes well under 1 ms compiled). Returns the
   * first pass's mean loss.
   */
  static double warm(Contender c, Workload wl, long warmRows, long nonzeros) {
    double first = Double.NaN;
    long rows = 0;
    long nnz = 0;
    do {
      c.reset();
      double l = c.pass();
      if (rows == 0) first = l;
      rows += (long) wl.n * wl.outputs;
      nnz += wl.nonzeros() * wl.outputs;
    } while (rows < warmRows && nnz < nonzeros);
    return first;
  }

  /**
   * The system property that lengthens the trainer contenders' trial set-up, for studies (issue
   * #38): its seconds of passes from fresh trainers, after {@link #warm}, as a JVM that has trained
   * the configuration for that long before (the kernel handover's JVM-wide rule); empty or 0: none.
   */
  public static final String WARM_SECONDS = "workload.warmSeconds";

  /** {@link #WARM_SECONDS}'s value in this JVM: 0 when not set. */
  static double warmSeconds() {
    String s = System.getProperty(WARM_SECONDS, "").trim();
    double x = s.isEmpty() ? 0 : Double.parseDouble(s);
    if (!(x >= 0)) {
      throw new IllegalArgumentException(WARM_SECONDS + " must be at least 0, got " + s);
    }
    return x;
  }

  /** Trains from fresh models, pass after pass, for {@code seconds} (wall). */
  static void warmFor(Contender c, double seconds) {
    long end = System.nanoTime() + (long) (seconds * 1e9);
    while (System.nanoTime() < end) {
      c.reset();
      c.pass();
    }
  }

  /** The library's contenders, in report order. */
  public static final List<String> LIBRARY =
      List.of("trainer-checked", "trainer-trusted", "per-call", "rounds", "rounds-buffers");

  /** Makes a library or hand-written contender. */
  public static Contender make(String contender, String algo, ElementType type, Workload wl) {
    return switch (contender) {
      case "hand" -> HandLoop.of(algo, type, wl, false);
      case "trainer-checked" -> new TrainerContender(wl, algo, type, InputPolicy.CHECKED);
      case "trainer-trusted" -> new TrainerContender(wl, algo, type, InputPolicy.TRUSTED);
      case "per-call" -> new PerCallLoop(wl, algo, type);
      case "rounds" -> new RoundsLoop(wl, algo, type);
      case "rounds-buffers" -> new BufferRoundLoop(wl, algo, type);
      default ->
          throw new IllegalArgumentException(
              "contender must be hand or one of " + LIBRARY + ", got " + contender);
    };
  }

  /**
   * The library path a contender's first pass is checked against, bit for bit: the per-call path
   * (its own predict and update code, not the fused round) for the trainer and the block and buffer
   * rounds; the trainer for the per-call path.
   */
  public static String partner(String contender) {
    return contender.equals("per-call") ? "trainer-trusted" : "per-call";
  }

  /**
   * Whether a free-running comparison with the hand loop is held to {@link HandLoop}'s bound:
   * ScInOL2 everywhere and AdaGrad on the synthetic streams (the other rules have no hand loop).
   * AdaGrad at its default {@code eta = 1} on the unscaled data files is chaotic (mean loss 9-25),
   * and two summation orders drift apart by far more than the bound (measured 0.004-0.36); there
   * the hand loop's {@link Lockstep} check is the one that holds.
   */
  public static boolean stable(String workload, String algo) {
    return algo.equals("scinol2")
        || (HandLoop.RULES.contains(algo) && !workload.startsWith("file:"));
  }

  /** Throws unless {@code |actual - expected| <= bound} (and both are finite). */
  public static void requireAgreement(String what, double actual, double expected, double bound) {
    if (!(Math.abs(actual - expected) <= bound)) {
      throw new IllegalStateException(
          "%s: mean progressive loss %s differs from %s by %s, more than the derived bound %s"
              .formatted(what, actual, expected, Math.abs(actual - expected), bound));
    }
  }

  /**
   * One pass of a library or hand-written contender. Not inlined into JMH's loop, so that the pass
   * is compiled as it is when user code calls {@code fit} (a compile root): inlined into the hot
   * JMH stub, {@code OnlineTrainer}'s pass over heart_scale took 0.68 ms (median) instead of 0.14
   * ms, the hand loop's none slower (see bench/README.md).
   */
  @Benchmark
  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  public double pass(Run r) {
    return r.last = r.c.pass();
  }

  /** One fit of a peer (not inlined into JMH's loop either, like {@link #pass}). */
  @Benchmark
  @CompilerControl(CompilerControl.Mode.DONT_INLINE)
  public Object peer(PeerRun r) {
    double loss = r.c.pass();
    r.last = r.c instanceof TribuoPeer t ? t.model : Double.valueOf(loss);
    return r.last;
  }
}
