package org.onlinekernels.trainer;

import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.Precision;

/**
 * When a trainer moves its optimizers from the scalar kernels to the vector kernels.
 *
 * <p>Why: Vector API code runs boxed, about 100 times slower, in the interpreter and in C1, until
 * C2 has compiled it, which takes seconds; plain Java is fast much sooner. A short run on the
 * vector kernels is therefore slower than on the scalar ones. So a trainer whose JVM chose the
 * vector kernels starts on the scalar kernels (unless its rows are dense, or it has nothing to
 * gain: see the property below). Once it has run for 0.2 s (shorter runs finish on the scalar
 * kernels, the faster choice for them), a background thread ({@code VectorWarmup}) races both
 * implementations on a small private problem of the same configuration; once the vector kernels win
 * (clearly faster), the trainer copies each optimizer's state, bit for bit, into a vector optimizer
 * between two examples and goes on there. A tie (both as fast: sparse rounds run the same
 * plain-Java loops under both providers) leaves it on the scalar kernels. The two implementations
 * compute the same bits (sparse rows run the same plain-Java loops under both; dense kernels and
 * reductions agree bit for bit once every kernel does, see README), so <em>when</em> the handover
 * happens never changes a result, only the speed; tests force it at chosen examples to hold that.
 *
 * <p>The system property {@value #PROPERTY} chooses: {@code auto} (the default, when the JVM chose
 * the vector kernels: sparse rows of ScInOL2, AdaGrad, ScInOL1 and DFEG, whose loops are the same
 * plain Java under both providers, stay on the scalar kernels without a race; other sparse rows
 * race; dense rows, measured fastest on the vector kernels from the first example, get no
 * handover), {@code off} (the chosen kernels from the first example, as before), or a number {@code
 * N} (switch after exactly {@code N} examples, without a race: for tests and measurements; 0 is the
 * vector kernels from the start through a handover). Once a race has been decided in a JVM for a
 * configuration (algorithm, precision, sparse or dense), later trainers of that configuration start
 * on its winner directly, without a race.
 */
public final class KernelHandover {
  /** System property: {@code auto | off | N}. */
  public static final String PROPERTY = "onlinekernels.handover";

  /** Examples between two looks at the clock or at the race's outcome. */
  static final int CHECK_EVERY = 64;

  /** How long a trainer runs on the scalar kernels before the race starts: 0.2 s. */
  static final long RACE_AFTER_NANOS = 200_000_000L;

  private static final Set<String> WARM = ConcurrentHashMap.newKeySet();
  private static final Set<String> NO_GAIN = ConcurrentHashMap.newKeySet();

  private final KernelProvider target;
  private final long at;
  private final String key;

  private KernelHandover(KernelProvider target, long at, String key) {
    this.target = target;
    this.at = at;
    this.key = key;
  }

  /**
   * The handover for a trainer of {@code config} in this JVM, from {@value #PROPERTY}, or null when
   * the trainer should run the chosen kernels from the start (the JVM chose the scalar kernels, the
   * property is {@code off}, or the configuration has already been warmed up).
   */
  static KernelHandover forConfig(TrainerConfig config) {
    String mode = System.getProperty(PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
    long at = parse(mode);
    KernelProvider chosen = KernelProvider.get();
    if (mode.equals("off") || chosen == KernelProvider.scalar()) {
      return null;
    }
    String key = key(config);
    if (at < 0 && config.dense()) {
      // Measured (bench-report/coldstart.md): dense rows on the scalar kernels are no faster cold,
      // their per-element segment accesses are slow in the interpreter too, and the race's
      // compilations delay them further; the vector kernels from the first example win there.
      return null;
    }
    if (at < 0 && samePlainLoops(config)) {
      // Nothing to gain, and a race would only compete for the CPU (measured): the whole run on
      // the scalar kernels, which never loads the Vector API.
      return new KernelHandover(chosen, Long.MAX_VALUE, key);
    }
    if (at < 0 && WARM.contains(key)) {
      return null;
    }
    if (at < 0 && NO_GAIN.contains(key)) {
      // Stays on the scalar kernels: a handover after more examples than a trainer can count.
      return new KernelHandover(chosen, Long.MAX_VALUE, key);
    }
    return new KernelHandover(chosen, at, key);
  }

  /**
   * Whether sparse training of this configuration runs the same plain-Java loops under both
   * providers (README, "Vector or scalar": the fused rounds of ScInOL2 and AdaGrad, the sparse
   * paths of ScInOL1 and DFEG); mixed-precision AdaGrad's sparse update is vector code.
   */
  static boolean samePlainLoops(TrainerConfig c) {
    String a = c.algorithm().name();
    return !c.dense()
        && (SAME_PLAIN_LOOPS.contains(a)
            && !(a.equals("adagrad") && c.precision() == Precision.MIXED));
  }

  private static final Set<String> SAME_PLAIN_LOOPS =
      Set.of("scinol2", "adagrad", "scinol1", "dfeg");

  /** The fixed example count of a mode, or -1 for {@code auto} and {@code off}. */
  static long parse(String mode) {
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
  static KernelHandover race(KernelProvider target) {
    return new KernelHandover(target, -1, "");
  }

  /** A handover after exactly {@code examples} examples (no race) to {@code target}. */
  static KernelHandover after(long examples, KernelProvider target) {
    if (examples < 0) {
      throw new IllegalArgumentException("examples must be >= 0, got " + examples);
    }
    return new KernelHandover(target, examples, "");
  }

  private static String key(TrainerConfig c) {
    return c.algorithm().name() + '/' + c.precision() + '/' + (c.dense() ? "dense" : "sparse");
  }

  /** The kernels to hand over to. */
  KernelProvider target() {
    return target;
  }

  /** Whether the moment is a fixed number of examples ({@link #at()}), rather than a race. */
  boolean fixed() {
    return at >= 0;
  }

  /** The fixed moment: after this many examples. */
  long at() {
    return at;
  }

  /** Remembers that the vector kernels won the race for this configuration in this JVM. */
  void markWarm() {
    if (!key.isEmpty()) {
      WARM.add(key);
    }
  }

  /** Remembers that the race for this configuration ended in a tie in this JVM. */
  void markNoGain() {
    if (!key.isEmpty()) {
      NO_GAIN.add(key);
    }
  }
}
