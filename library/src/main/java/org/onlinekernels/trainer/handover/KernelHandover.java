package org.onlinekernels.trainer.handover;

import java.lang.foreign.Arena;
import java.util.Locale;
import java.util.Objects;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.optimizer.state.AdoptingArena;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.SharingArena;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * When a trainer moves its optimizers from the scalar kernels to the vector kernels.
 *
 * <p>Why: Vector API code runs boxed, about 100 times slower, in the interpreter and in C1, until
 * C2 has compiled it, which takes seconds; plain Java is fast much sooner. A short run on the
 * vector kernels is therefore slower than on the scalar ones. So a trainer whose JVM chose the
 * vector kernels starts on the scalar kernels (unless its rows are dense: see the property below).
 * Once it has run for 0.2 s (shorter runs finish on the scalar kernels, the faster choice for
 * them), a background thread ({@code VectorWarmup}) races both implementations on a small private
 * problem of the same configuration; once the vector kernels win (clearly faster), the trainer
 * copies each optimizer's state, bit for bit, into a vector optimizer between two examples and goes
 * on there. A tie (both as fast) leaves it on the scalar kernels. Sparse rows race too: the vector
 * kernels' fused rounds compute a row's gathered records in lanes (the scalar kernels, one by one),
 * which wins once compiled, and their compilation is what the race waits for. The two
 * implementations compute the same bits (the lanes run the rule's scalar operations in the same
 * order; dense kernels and reductions agree bit for bit once every kernel does, see docs/USING.md),
 * so <em>when</em> the handover happens never changes a result, only the speed; tests force it at
 * chosen examples to hold that.
 *
 * <p>The system property {@value #PROPERTY} chooses: {@code auto} (the default, when the JVM chose
 * the vector kernels: sparse rows race; dense rows, measured fastest on the vector kernels from the
 * first example, get no handover), {@code off} (the chosen kernels from the first example, as
 * before), or a number {@code N} (switch after exactly {@code N} examples, without a race: for
 * tests and measurements; 0 is the vector kernels from the start through a handover). Once a race
 * has been decided in a JVM for a configuration (algorithm, precision, sparse or dense), later
 * trainers of that configuration start on its winner directly, without a race.
 *
 * <p>A JVM that trains many short fits of one configuration (a benchmark's fresh trainer per pass,
 * a server or a Spark executor retraining small models) never has a fit with {@link
 * #RACE_IF_AHEAD_NANOS} ahead, yet its fits together have. So the scalar time that the
 * configuration's earlier fits spent in this JVM ({@link ConfigHistory}) counts toward it, as the
 * estimate of the work still to come: once the earlier fits have run {@link #AHEAD_AFTER_NANOS} and
 * they and the current fit's rest (once its rate is known, as above) reach {@link
 * #RACE_IF_AHEAD_NANOS}, the race starts, as the JVM's (it runs on when the fit that started it
 * ends; the configuration's trainers follow it), and the fits after it is won start on the vector
 * kernels. A JVM's first fit has no earlier fits: a single run keeps the rule of one fit's time
 * ahead. AdaGrad never races, in one run or in a JVM of many fits ({@link #vectorRoundsDoNotPay}).
 * A race's first tie in a JVM is raced again after as much work again (a race can meet the vector
 * code half compiled); a second tie keeps the JVM on the scalar kernels.
 */
public final class KernelHandover {
  /** What a look at the handover found ({@link #look}). */
  public enum Look {
    /** Hand over now. */
    NOW,
    /** Not yet: look again later. */
    LATER,
    /** Never: stay on the scalar kernels. */
    NEVER
  }

  /** System property: {@code auto | off | N}. */
  public static final String PROPERTY = "onlinekernels.handover";

  /** Examples between two looks at the clock or at the race's outcome. */
  public static final int CHECK_EVERY = 64;

  /** How long a trainer runs on the scalar kernels before the race starts: 0.2 s. */
  public static final long RACE_AFTER_NANOS = 200_000_000L;

  /**
   * The least time a run must still have ahead, at its rate so far, for a race of {@link
   * #forConfig} to start: 5 s. Measured on the Zipf stream (2 cores): while the race runs (about
   * 1-1.5 s until the vector kernels have compiled and won), the trainer ran at about half speed,
   * and the vector kernels' fused rounds then save about a quarter per row, so the race pays for
   * itself after about 4 s; shorter runs finish on the scalar kernels without one.
   */
  public static final long RACE_IF_AHEAD_NANOS = 5_000_000_000L;

  /**
   * How long a run has lasted before its time ahead is estimated: 1 s. Earlier the rate is that of
   * the cold start (the JIT still compiling the loops), which overstates the time ahead: 3-epoch
   * runs of about 1.5 s started races they could not repay.
   */
  public static final long AHEAD_AFTER_NANOS = 1_000_000_000L;

  /**
   * The shortest run, in seconds, that a race can start in ({@link #RACE_IF_AHEAD_NANOS}): a
   * shorter run ends on the scalar kernels by design, which is nothing to explain to its user.
   */
  public static final double SHORTEST_RACED_RUN_SECONDS = RACE_IF_AHEAD_NANOS / 1e9;

  private final KernelProvider target;
  private final long at;

  /** The JVM's record of the configuration; null for a handover outside it (tests). */
  private final ConfigHistory history;

  /** The least time ahead for the race to start ({@link #RACE_IF_AHEAD_NANOS}, or 0). */
  private final long ahead;

  /** The race, once started or joined. */
  private VectorWarmup warmup;

  /** Whether this handover's trainer started {@link #warmup} and stops it when it closes. */
  private boolean ownsRace;

  /** The configuration's scalar time in this JVM ({@link ConfigHistory}) before the current fit. */
  private long earlierNanos;

  /** The last look at the clock, or the current fit's start ({@link System#nanoTime}). */
  private long lastLookNanos;

  /** When the trainer's first fit started ({@link System#nanoTime}); 0: none yet. */
  private long firstFitNanos;

  /** When the current fit started, and its examples in all. */
  private long fitNanos;

  private long fitTotal;

  private KernelHandover(KernelProvider target, long at, ConfigHistory history, long ahead) {
    this.target = target;
    this.at = at;
    this.history = history;
    this.ahead = ahead;
  }

  /**
   * The handover for a trainer of {@code config} in this JVM, from {@value #PROPERTY}, or null when
   * the trainer should run the chosen kernels from the start (the JVM chose the scalar kernels, the
   * property is {@code off}, or the configuration has already been warmed up).
   */
  public static KernelHandover forConfig(TrainerConfig config) {
    return forConfig(config, ConfigHistory.of(key(config)));
  }

  /**
   * {@link #forConfig(TrainerConfig)} with {@code history} as the JVM's record of the configuration
   * (tests and measurements give a {@link ConfigHistory#fresh} one).
   */
  public static KernelHandover forConfig(TrainerConfig config, ConfigHistory history) {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(history, "history");
    String mode = System.getProperty(PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
    long at = parse(mode);
    KernelProvider chosen = KernelProvider.get();
    if (mode.equals("off") || chosen == KernelProvider.scalar()) {
      return null;
    }
    if (at >= 0) {
      return new KernelHandover(chosen, at, null, 0);
    }
    if (config.dense()) {
      // Measured (bench-report/coldstart.md): dense rows on the scalar kernels are no faster cold,
      // their per-element segment accesses are slow in the interpreter too, and the race's
      // compilations delay them further; the vector kernels from the first example win there.
      return null;
    }
    if (vectorRoundsDoNotPay(config)) {
      // Measured: no gain to race for (see vectorRoundsDoNotPay); the whole run on the scalar
      // kernels, which never loads the Vector API.
      return new KernelHandover(chosen, Long.MAX_VALUE, null, 0);
    }
    if (history.warm()) {
      return null;
    }
    if (history.noGain()) {
      // Stays on the scalar kernels: a handover after more examples than a trainer can count.
      return new KernelHandover(chosen, Long.MAX_VALUE, null, 0);
    }
    return new KernelHandover(chosen, -1, history, RACE_IF_AHEAD_NANOS);
  }

  /**
   * Whether sparse training of this configuration gains nothing from the vector kernels: AdaGrad
   * (not mixed precision), whose per-coordinate step is one square root and one division. Measured
   * on the Zipf stream: its vector rounds ran no faster than the scalar ones once compiled, and
   * racing cost a single run more than it won (bench-report/threads-handover-2026-11-26.md); in a
   * JVM of many short fits, where the race is cheap, the fits after a won race ran slower than the
   * scalar ones (bench-report/native-trainer-2026-11-29.md, section 8).
   */
  public static boolean vectorRoundsDoNotPay(TrainerConfig c) {
    return !c.dense() && c.algorithm().name().equals("adagrad") && c.precision() != Precision.MIXED;
  }

  /** The fixed example count of a mode, or -1 for {@code auto} and {@code off}. */
  public static long parse(String mode) {
    if (mode.equals("auto") || mode.equals("off") || mode.isEmpty()) {
      return -1;
    }
    try {
      long n = Long.parseLong(mode);
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // Falls through to the error below.
    }
    throw new IllegalArgumentException(
        PROPERTY + " must be auto, off or a number of examples >= 0, got '" + mode + "'");
  }

  /**
   * A handover to {@code target} decided by the race (as {@code auto} does, without the JVM-wide
   * memory).
   */
  public static KernelHandover race(KernelProvider target) {
    return new KernelHandover(target, -1, null, 0);
  }

  /**
   * A race as {@link #forConfig} makes it in {@code auto} (started only with {@link
   * #RACE_IF_AHEAD_NANOS} ahead), without the JVM-wide memory (tests).
   */
  public static KernelHandover raceIfAhead(KernelProvider target) {
    return new KernelHandover(target, -1, null, RACE_IF_AHEAD_NANOS);
  }

  /** A handover after exactly {@code examples} examples (no race) to {@code target}. */
  public static KernelHandover after(long examples, KernelProvider target) {
    if (examples < 0) {
      throw new IllegalArgumentException("examples must be >= 0, got " + examples);
    }
    return new KernelHandover(target, examples, null, 0);
  }

  private static String key(TrainerConfig c) {
    return c.algorithm().name() + '/' + c.precision() + '/' + (c.dense() ? "dense" : "sparse");
  }

  /** The kernels to hand over to. */
  public KernelProvider target() {
    return target;
  }

  /** Whether the moment is a fixed number of examples ({@link #at()}), rather than a race. */
  public boolean fixed() {
    return at >= 0;
  }

  /** The fixed moment: after this many examples. */
  public long at() {
    return at;
  }

  /**
   * A look at the handover by a trainer of {@code config} and dimension {@code d} that has trained
   * {@code seen} examples, whose first training call started at {@code firstFitNanos} ({@link
   * System#nanoTime}) and whose current call has {@code aheadNanos} still to run at its rate so far
   * (an estimate). A fixed moment ({@link #fixed()}) says {@link Look#NOW} from {@link #at()}
   * examples on. A race starts once the trainer has run {@link #RACE_AFTER_NANOS} with at least
   * {@link #RACE_IF_AHEAD_NANOS} ahead (a handover of {@link #forConfig}; {@link #race} starts it
   * whatever is ahead), or, for a handover of {@link #forConfig}, once the configuration's earlier
   * fits in this JVM have run {@link #AHEAD_AFTER_NANOS} on the scalar kernels and that time and
   * the time ahead (counted once the run has lasted {@link #AHEAD_AFTER_NANOS}) make {@link
   * #RACE_IF_AHEAD_NANOS}; a trainer joins the race that runs for its configuration instead. The
   * look says {@link Look#NOW} once the vector kernels have won it, {@link Look#NEVER} once it
   * ended without a winner. Called from one thread at a time.
   */
  public Look look(TrainerConfig config, int d, long seen, long firstFitNanos, long aheadNanos) {
    if (fixed()) {
      return seen >= at ? Look.NOW : Look.LATER;
    }
    if (warmup == null) {
      warmup = history == null ? null : history.race();
      if (warmup == null) {
        startRaceIfDue(config, d, firstFitNanos, aheadNanos);
        return Look.LATER;
      }
    }
    if (warmup.won()) {
      markWarm();
      return Look.NOW;
    }
    if (warmup.over()) {
      if (history != null && warmup.tied()) {
        history.raceTied(warmup);
      } else if (history != null) {
        history.raceLost(warmup);
      }
      return Look.NEVER;
    }
    return Look.LATER;
  }

  /**
   * Short runs finish on the scalar kernels, the faster choice for them in every configuration: the
   * race (a second busy thread) starts only once the run has lasted, and only when what is ahead
   * can pay for it; in a JVM that has trained the configuration before, what its earlier fits spent
   * counts as the work still to come.
   */
  private void startRaceIfDue(TrainerConfig config, int d, long firstFitNanos, long aheadNanos) {
    long now = System.nanoTime();
    long lasted = now - firstFitNanos;
    if (ahead == 0) {
      if (lasted >= RACE_AFTER_NANOS) {
        warmup = VectorWarmup.start(config, d, target);
        ownsRace = true;
      }
      return;
    }
    // A fit's rate is known once it has lasted AHEAD_AFTER_NANOS: before, the JIT and a fresh
    // state's first touches (page faults) inflate its time ahead many times over.
    long known = lasted >= AHEAD_AFTER_NANOS ? aheadNanos : 0;
    boolean oneFit = known >= ahead;
    boolean jvm =
        history != null
            && earlierNanos >= AHEAD_AFTER_NANOS
            && earlierNanos >= ahead - Math.min(ahead, known);
    if (history != null && lastLookNanos != 0) {
      history.addScalarNanos(now - lastLookNanos);
    }
    lastLookNanos = now;
    if (!oneFit && !jvm) {
      return;
    }
    VectorWarmup mine = VectorWarmup.unstarted(config, d, target);
    if (history == null) {
      mine.begin();
      warmup = mine;
    } else {
      warmup = history.race(mine);
    }
    // A race that one fit's time ahead started is that trainer's, as before (stopped when it
    // closes); one that the JVM's work started runs on to its end for the trainers to come.
    ownsRace = warmup == mine && !jvm;
  }

  /**
   * A fit of {@code total} examples starts now: the clock of {@link #lookInFit} (the first fit's
   * start, this fit's rate so far).
   */
  public void fitStarts(long total) {
    fitNanos = System.nanoTime();
    fitTotal = total;
    if (firstFitNanos == 0) {
      firstFitNanos = fitNanos;
    }
    lastLookNanos = fitNanos;
    earlierNanos = history == null ? 0 : history.scalarNanos();
  }

  /**
   * A new estimate of the current fit's examples in all: a trainer reading a stream of unknown
   * length announces {@link Long#MAX_VALUE} (a long stream) and narrows it as it learns how much of
   * its input it has read.
   */
  public void fitTotal(long total) {
    fitTotal = total;
  }

  /**
   * {@link #look} by a trainer that has trained {@code seen} examples, {@code done} of them in the
   * fit that {@link #fitStarts} announced last: the time ahead is that fit's rest at its rate so
   * far.
   */
  public Look lookInFit(TrainerConfig config, int d, long seen, long done) {
    return look(config, d, seen, firstFitNanos, ahead(fitNanos, done, fitTotal));
  }

  /**
   * The time a run still has ahead at its rate so far: {@code done} of its {@code total} examples
   * in the time since {@code startNanos}; 0 before the first example.
   */
  public static long ahead(long startNanos, long done, long total) {
    if (done <= 0) {
      return 0;
    }
    double perExample = (double) (System.nanoTime() - startNanos) / done;
    return (long) Math.min(Long.MAX_VALUE, perExample * Math.max(0, total - done));
  }

  /**
   * Stops the race and moves every optimizer of {@code opt} to a fresh optimizer on {@link
   * #target()}'s kernels (state in {@code arena}, or its own with {@code null}) with a bit-for-bit
   * copy of its state, and frees the old one. A state on the Java heap is not copied: the new
   * optimizer takes over the old one's buffers in place ({@link AbstractOptimizer#stateDonor}), so
   * a handover needs no second state. If a move fails (e.g. no memory for a second state off the
   * heap), {@code opt} is left as it was, on kernels that compute the same. Several threads may
   * each move optimizers of their own at once (the parallel trainer's learners); the new optimizers
   * belong to the calling thread.
   *
   * @return whether the optimizers were moved
   * @throws IllegalArgumentException if an argument is null or an optimizer is not one of the
   *     library's of {@code config}'s algorithm and dimension {@code d} (nothing is moved)
   */
  public boolean moveAll(
      LinearModelOptimizer[] opt, TrainerConfig config, int d, StateLayout layout, Arena arena) {
    checkMovable(opt, config, d, layout);
    stop();
    LinearModelOptimizer[] next = new LinearModelOptimizer[opt.length];
    int wrong = -1;
    try {
      for (int c = 0; c < opt.length; c++) {
        // Not into a shared state's arena, whose views must get the buffers it records.
        AdoptingArena donor =
            arena instanceof SharingArena ? null : ((AbstractOptimizer) opt[c]).stateDonor(arena);
        next[c] =
            config
                .algorithm()
                .create(d, config.precision(), layout, donor == null ? arena : donor, target);
        if (donor != null && !donor.allTaken()) {
          // Made otherwise than the old one (the algorithm check below says how): adopting a part
          // of a state is no move.
          wrong = c;
          break;
        }
        if (!next[c].algorithm().equals(opt[c].algorithm())) {
          wrong = c;
          break;
        }
        AbstractOptimizer a = (AbstractOptimizer) next[c];
        a.setInputPolicy(config.inputPolicy());
        a.copyStateFrom((AbstractOptimizer) opt[c]);
      }
    } catch (IllegalStateException e) {
      // An adopting arena's refusal: the new optimizer asked for buffers the old one does not
      // have, i.e. another algorithm or layout (reported as such below, with nothing moved).
      closeAll(next);
      throw new IllegalArgumentException(
          "the configuration's optimizer is not made as the one to move: " + e.getMessage(), e);
    } catch (RuntimeException | OutOfMemoryError e) {
      // The second state did not fit (StateStore's OutOfMemoryError: one large allocation refused,
      // nothing else touched): training goes on with the optimizers it has.
      closeAll(next);
      return false;
    }
    if (wrong >= 0) {
      String made = next[wrong].algorithm();
      closeAll(next);
      throw new IllegalArgumentException(
          "opt[" + wrong + "] is " + opt[wrong].algorithm() + "; the configuration makes " + made);
    }
    for (int c = 0; c < opt.length; c++) {
      opt[c].close();
      opt[c] = next[c];
    }
    return true;
  }

  private static void closeAll(LinearModelOptimizer[] made) {
    for (LinearModelOptimizer x : made) {
      if (x != null) {
        x.close();
      }
    }
  }

  /**
   * A programming error in {@link #moveAll}'s arguments is refused, not taken for a failed move.
   */
  private static void checkMovable(
      LinearModelOptimizer[] opt, TrainerConfig config, int d, StateLayout layout) {
    if (opt == null || config == null || layout == null) {
      throw new IllegalArgumentException(
          "moveAll needs the optimizers, a configuration and a layout");
    }
    for (int c = 0; c < opt.length; c++) {
      if (!(opt[c] instanceof AbstractOptimizer a) || a.dimension() != d) {
        throw new IllegalArgumentException(
            "opt["
                + c
                + "] is "
                + (opt[c] == null
                    ? "null"
                    : opt[c].algorithm() + " of dimension " + opt[c].dimension())
                + "; moveAll moves the library's optimizers of dimension "
                + d);
      }
    }
  }

  /** Whether the race has been started, by this handover or for the JVM (tests). */
  public boolean raceStarted() {
    return warmup != null;
  }

  /**
   * Whether this handover's trainer follows a race that it does not stop when it closes: one that
   * the JVM's work on the configuration started, or another trainer's (tests).
   */
  public boolean followsTheJvmsRace() {
    return warmup != null && !ownsRace;
  }

  /**
   * Stops a running race that this handover's trainer started for itself (the trainer handed over
   * or closes); does not wait. A race that the JVM's work started runs on ({@link ConfigHistory}).
   */
  public void stop() {
    if (warmup != null && ownsRace) {
      warmup.stop();
    }
  }

  /** Remembers that the vector kernels won the race for this configuration in this JVM. */
  private void markWarm() {
    if (history != null) {
      history.markWarm();
    }
  }
}
