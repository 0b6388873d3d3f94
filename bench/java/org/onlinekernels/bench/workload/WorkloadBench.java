package org.onlinekernels.bench.workload;

import java.util.concurrent.TimeUnit;
import org.onlinekernels.bench.workload.hand.HandLoop;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.InputPolicy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
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
 * The trainer's real job (issue #10): one measured operation is one full online pass over a
 * {@link Workload} from a fresh model (reset before every pass, untimed: {@code Level.Invocation}
 * on operations of a millisecond and more). The report command ({@link WorkloadReport}) runs the
 * workloads one after another and, for each, every contender, so drift on the shared machine hits
 * the contenders of a workload alike; ratios are taken between figures of one run.
 *
 * <p>Every trial first runs {@link Lockstep}: the library's optimizers, fed the hand loop's
 * summation order, must produce every row's {@code yhat} within the rounding bound and the hand
 * loop's mean loss bit for bit. Every pass is then checked in {@code @TearDown(Level.Iteration)}:
 * the hand loop's mean progressive loss must equal the lockstep's exactly, a library contender's
 * its own first pass (the free-running library and hand loop sum {@code yhat} in different
 * orders; {@code HandLoopAgreementTest} holds those to {@link HandLoop}'s bound where the
 * trajectory is not chaotic). A contender that computes something else cannot post a time.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-Xmx3g"})
@Warmup(iterations = 2, time = 300, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 300, timeUnit = TimeUnit.MILLISECONDS)
public class WorkloadBench {
  /** Synthetic streams' total nonzeros per pass in the full profile (rows = this / nnz). */
  public static final String FULL_NONZEROS = "4000000";

  /** Library and hand-written contenders. */
  @State(Scope.Thread)
  public static class Run {
    /** {@link Workload} spec. */
    @Param({"zipf:20:40"})
    public String workload;
    /** {@code trainer-checked}, {@code trainer-trusted}, {@code optimizers} or {@code hand}. */
    @Param({"hand", "trainer-trusted", "trainer-checked", "optimizers"})
    public String contender;
    /** {@code scinol2} or {@code adagrad}. */
    @Param({"scinol2", "adagrad"})
    public String algo;
    /** {@code float} or {@code double}. */
    @Param({"float", "double"})
    public String type;
    /** Synthetic streams' nonzeros per pass. */
    @Param({FULL_NONZEROS})
    public long nonzeros;

    Workload wl;
    Contender c;
    double expected;
    double last = Double.NaN;

    /**
     * Reads or generates the rows, makes the contender, checks the library's rule against the
     * hand loop's in {@link Lockstep} and records the loss every timed pass must reproduce.
     */
    @Setup(Level.Trial)
    public void setUp() {
      wl = Workload.load(workload, nonzeros, Workload.sharedFolder());
      ElementType t = ElementType.parse(type);
      double lockstep = Lockstep.meanLoss(wl, algo, t);
      c = make(contender, algo, t, wl);
      if (contender.equals("hand")) {
        // Same trajectory, same sums: bit for bit.
        expected = lockstep;
      } else {
        // The library contender's own first pass; every timed pass must reproduce it.
        c.reset();
        expected = c.pass();
      }
    }

    /** A fresh model before every pass. */
    @Setup(Level.Invocation)
    public void reset() {
      c.reset();
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
  @State(Scope.Thread)
  public static class PeerRun {
    /** {@link Workload} spec. */
    @Param({"file:breast_cancer.svm"})
    public String workload;
    /** {@code tribuo} or {@code moa}. */
    @Param({"tribuo", "moa"})
    public String peer;
    /** Synthetic streams' nonzeros per pass. */
    @Param({FULL_NONZEROS})
    public long nonzeros;

    Contender c;
    Object last;

    /** Reads or generates the rows and builds the peer's own data structures. */
    @Setup(Level.Trial)
    public void setUp() {
      Workload wl = Workload.load(workload, nonzeros, Workload.sharedFolder());
      c = switch (peer) {
        case "tribuo" -> new TribuoPeer(wl);
        case "moa" -> new MoaPeer(wl);
        default -> throw new IllegalArgumentException("peer must be tribuo or moa, got " + peer);
      };
    }

    /** A fresh model before every pass. */
    @Setup(Level.Invocation)
    public void reset() {
      c.reset();
    }

    /** The pass produced a model (Tribuo) or a finite loss (MOA). */
    @TearDown(Level.Iteration)
    public void check() {
      if (last == null || (last instanceof Double d && !Double.isFinite(d))) {
        throw new IllegalStateException(peer + " on " + workload + " produced " + last);
      }
    }
  }

  /** Makes a library or hand-written contender. */
  public static Contender make(String contender, String algo, ElementType type, Workload wl) {
    return switch (contender) {
      case "hand" -> HandLoop.of(algo, type, wl, false);
      case "trainer-checked" -> new TrainerContender(wl, algo, type, InputPolicy.CHECKED);
      case "trainer-trusted" -> new TrainerContender(wl, algo, type, InputPolicy.TRUSTED);
      case "optimizers" -> new OptimizerLoop(wl, algo, type);
      default -> throw new IllegalArgumentException(
          "contender must be hand, trainer-checked, trainer-trusted or optimizers, got " + contender);
    };
  }

  /** Throws unless {@code |actual - expected| <= bound} (and both are finite). */
  public static void requireAgreement(String what, double actual, double expected, double bound) {
    if (!(Math.abs(actual - expected) <= bound)) {
      throw new IllegalStateException(what + ": mean progressive loss " + actual + " differs from " + expected
          + " by " + Math.abs(actual - expected) + ", more than the derived bound " + bound);
    }
  }

  /** One pass of a library or hand-written contender. */
  @Benchmark
  public double pass(Run r) {
    return r.last = r.c.pass();
  }

  /** One fit of a peer. */
  @Benchmark
  public Object peer(PeerRun r) {
    double loss = r.c.pass();
    r.last = r.c instanceof TribuoPeer t ? t.model : Double.valueOf(loss);
    return r.last;
  }
}
