package org.onlinekernels.cli;

import java.util.function.Supplier;
import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.params.AdaptiveOgdParams;
import org.onlinekernels.params.DfegParams;
import org.onlinekernels.params.GlobalAdaGradParams;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.reference.ReferenceAdaGrad;
import org.onlinekernels.reference.ReferenceAdaptiveOgdBall;
import org.onlinekernels.reference.ReferenceAdaptiveOgdCoordinate;
import org.onlinekernels.reference.ReferenceDfeg;
import org.onlinekernels.reference.ReferenceGlobalAdaGrad;
import org.onlinekernels.reference.ReferenceLinearModel;
import org.onlinekernels.reference.ReferenceScInOL1;
import org.onlinekernels.reference.ReferenceScInOL2;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.data.SyntheticScInOL;
import org.onlinekernels.io.LibSvmFormatException;
import org.onlinekernels.io.LibSvmReader;

/**
 * Command-line entry point. {@code demo} trains every algorithm for one online pass over a data
 * set with progressive validation and prints mean logistic loss, error rate and throughput.
 *
 * <p>Exit codes: 0 success, 1 the data could not be read, 2 usage error. Errors are one line on
 * standard error, never a stack trace.
 */
public final class Main {
  /** Default number of synthetic examples: enough to separate the algorithms, done in seconds. */
  public static final int DEFAULT_N = 100_000;
  /** Default seed of the synthetic problem. */
  public static final long DEFAULT_SEED = 1;

  static final String USAGE = String.join("\n",
      "usage: Main demo [--n N] [--seed S] [--data FILE]",
      "",
      "  One online pass of every algorithm with progressive validation: each example's logistic",
      "  loss and error are recorded before the learner trains on it.",
      "",
      "  --n N        number of examples (default " + DEFAULT_N + "; with --data: use the first N rows)",
      "  --seed S     seed of the synthetic problem (default " + DEFAULT_SEED + ")",
      "  --data FILE  a LIBSVM/svmlight file (.gz allowed) instead of the synthetic problem of",
      "               Kempka, Kotlowski and Warmuth (2019), section 4.1; multiclass labels are",
      "               turned into one-vs-rest of class 0",
      "  --help       print this text",
      "");

  private Main() {}

  /** Runs the command line and exits with a non-zero status on failure. */
  public static void main(String[] args) {
    int code = run(args, System.out, System.err);
    if (code != 0) {
      System.exit(code);
    }
  }

  /** A usage problem; its message is the one line shown to the user. */
  static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  /**
   * Parsed {@code demo} options.
   *
   * @param n    examples to use ({@code -1}: all of the file / the default for synthetic data)
   * @param seed synthetic seed, or {@code null} when not given
   * @param data file, or {@code null} for the synthetic problem
   * @param help whether {@code --help} was given
   */
  record Options(int n, Long seed, Path data, boolean help) {}

  /**
   * Runs the command line with the given streams and returns the exit code, so that tests can
   * check output and status without a new JVM.
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    Options o;
    try {
      o = parse(args);
    } catch (UsageException e) {
      err.println("error: " + e.getMessage() + " (see --help)");
      return 2;
    }
    if (o.help()) {
      out.print(USAGE);
      return 0;
    }
    return demo(o, out, err);
  }

  static Options parse(String[] args) throws UsageException {
    if (args.length == 0) {
      throw new UsageException("missing command; the only command is 'demo'");
    }
    int i = 0;
    if (args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
      return new Options(-1, null, null, true);
    }
    if (!args[0].equals("demo")) {
      throw new UsageException("unknown command '" + args[0] + "'; the only command is 'demo'");
    }
    i++;
    Integer n = null;
    Long seed = null;
    Path data = null;
    boolean help = false;
    while (i < args.length) {
      String a = args[i++];
      String name = a;
      String value = null;
      int eq = a.indexOf('=');
      if (a.startsWith("--") && eq > 0) {
        name = a.substring(0, eq);
        value = a.substring(eq + 1);
      }
      switch (name) {
        case "--help", "-h" -> help = true;
        case "--n", "--seed", "--data" -> {
          if (value == null) {
            if (i == args.length) {
              throw new UsageException(name + " needs a value");
            }
            value = args[i++];
          }
          switch (name) {
            case "--n" -> {
              if (n != null) {
                throw new UsageException("--n given twice");
              }
              n = parsePositiveInt(name, value);
            }
            case "--seed" -> {
              if (seed != null) {
                throw new UsageException("--seed given twice");
              }
              seed = parseLong(name, value);
            }
            default -> {
              if (data != null) {
                throw new UsageException("--data given twice");
              }
              if (value.isEmpty()) {
                throw new UsageException("--data needs a file name");
              }
              data = Path.of(value);
            }
          }
        }
        default -> throw new UsageException(a.startsWith("-")
            ? "unknown option '" + a + "'"
            : "unexpected argument '" + a + "'");
      }
    }
    if (data != null && seed != null && !help) {
      throw new UsageException("--seed only applies to the synthetic problem, not to --data");
    }
    return new Options(n == null ? -1 : n, seed, data, help);
  }

  private static int parsePositiveInt(String name, String v) throws UsageException {
    try {
      int x = Integer.parseInt(v.replace("_", ""));
      if (x < 1) {
        throw new UsageException(name + " must be at least 1, got " + v);
      }
      return x;
    } catch (NumberFormatException e) {
      throw new UsageException(name + " must be a whole number, got '" + v + "'");
    }
  }

  private static long parseLong(String name, String v) throws UsageException {
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new UsageException(name + " must be a whole number (64-bit), got '" + v + "'");
    }
  }

  /** A learner to run: display name, parameter summary, and a factory for fresh instances. */
  public record NamedLearner(String name, String params, Supplier<? extends OnlineLearner> factory) {}

  private static int demo(Options o, PrintStream out, PrintStream err) {
    SparseDataset data;
    String description;
    double[] oracle = null;
    if (o.data() == null) {
      long seed = o.seed() == null ? DEFAULT_SEED : o.seed();
      int n = o.n() < 0 ? DEFAULT_N : o.n();
      data = SyntheticScInOL.generate(n, seed);
      oracle = SyntheticScInOL.trueWeights(seed);
      description = "synthetic problem of Kempka et al. 2019 sec. 4.1 (21 Gaussian features, sigma_j = 2^(j-10)),"
          + " seed " + seed;
    } else {
      try {
        data = LibSvmReader.read(o.data());
      } catch (LibSvmFormatException e) {
        err.println("error: " + e.getMessage());
        return 1;
      } catch (NoSuchFileException e) {
        err.println("error: cannot read " + o.data() + ": no such file");
        return 1;
      } catch (AccessDeniedException e) {
        err.println("error: cannot read " + o.data() + ": permission denied");
        return 1;
      } catch (IOException e) {
        err.println("error: cannot read " + o.data() + ": " + e.getMessage());
        return 1;
      }
      if (data.size() == 0) {
        err.println("error: " + o.data() + " has no examples");
        return 1;
      }
      if (o.n() > 0 && o.n() < data.size()) {
        data = data.head(o.n());
      }
      description = o.data().toString();
    }
    double[] targets = ProgressiveValidation.binaryTargets(data, 0);

    out.println("online-kernels demo: one online pass, progressive validation"
        + " (each example's loss and error are taken before training on it)");
    out.printf(Locale.ROOT, "data: %s; n = %d, d = %d, %d nonzeros%n", description, data.size(),
        data.dimension(), data.totalNonZeros());
    if (data.isBinary()) {
      out.println("labels: +1/-1; loss: logistic ln(1 + exp(-y yhat)); a tie yhat = 0 counts as half an error");
    } else {
      out.println("labels: " + data.numClasses() + " classes, one-vs-rest of class 0 (class 0 = +1, every other class = -1);"
          + " loss: logistic ln(1 + exp(-y yhat)); a tie yhat = 0 counts as half an error");
    }
    out.println();

    List<NamedLearner> learners = new ArrayList<>(baselines(data.dimension(), oracle));
    List<NamedLearner> algorithms = defaultLearners(data.dimension());
    learners.addAll(algorithms);
    List<ProgressiveValidation.Result> results = new ArrayList<>();
    for (NamedLearner l : learners) {
      results.add(ProgressiveValidation.run(l.name(), l.params(), l.factory(), data, targets, ScalarLoss.LOGISTIC));
    }
    out.print(ResultTable.format(results));
    if (algorithms.isEmpty()) {
      out.println();
      out.println("note: no algorithms wired in yet (the reference implementations are not on this branch);"
          + " only the baselines ran");
    }
    return 0;
  }

  /**
   * Rows that frame the algorithms' numbers: the zero model (loss ln 2, what "learned nothing"
   * scores) and, for the synthetic problem, the true model {@code u} that generated the labels.
   */
  static List<NamedLearner> baselines(int d, double[] oracle) {
    List<NamedLearner> list = new ArrayList<>();
    list.add(new NamedLearner("baseline: zero", "w = 0", () -> new FixedLinearLearner(new double[d])));
    if (oracle != null) {
      double[] u = oracle.clone();
      list.add(new NamedLearner("baseline: true u", "generating model", () -> new FixedLinearLearner(u)));
    }
    return list;
  }

  /**
   * The algorithms of the demo with their default parameters, in display order.
   *
   * <p>Planned wiring, through a one-line adapter from {@code ReferenceLinearModel}
   * ({@code predict -> predictSparse}, {@code update -> update}):
   * AdaGrad ({@code AdaGradParams.eta(1)}, delta 0, no box), global AdaGrad
   * ({@code GlobalAdaGradParams.ofDiameter(1)}, alpha 1, delta 0), adaptive OGD ball and
   * per-coordinate ({@code AdaptiveOgdParams.radius(100)}), ScInOL1 and ScInOL2
   * ({@code ScInOLParams.defaults()}, epsilon 1), DFEG ({@code DfegParams.defaults()}).
   */
  public static List<NamedLearner> defaultLearners(int d) {
    return List.of(
        reference("AdaGrad", "eta=1", () -> new ReferenceAdaGrad(d, AdaGradParams.eta(1))),
        reference("AdaGrad global", "D=1", () -> new ReferenceGlobalAdaGrad(d, GlobalAdaGradParams.ofDiameter(1))),
        reference("AOGD ball", "R=100", () -> new ReferenceAdaptiveOgdBall(d, AdaptiveOgdParams.radius(100))),
        reference("AOGD per-coord", "R=100", () -> new ReferenceAdaptiveOgdCoordinate(d, AdaptiveOgdParams.radius(100))),
        reference("ScInOL1", "eps=1", () -> new ReferenceScInOL1(d, ScInOLParams.defaults())),
        reference("ScInOL2", "eps=1", () -> new ReferenceScInOL2(d, ScInOLParams.defaults())),
        reference("DFEG", "a=0.882 L=1 delta=1", () -> new ReferenceDfeg(d, DfegParams.defaults())));
  }

  private static NamedLearner reference(String name, String params, Supplier<ReferenceLinearModel> make) {
    return new NamedLearner(name, params, () -> {
      ReferenceLinearModel m = make.get();
      return new OnlineLearner() {
        @Override
        public double predict(int[] idx, double[] val, int nnz) {
          return m.predictSparse(idx, val, nnz);
        }

        @Override
        public void update(double g) {
          m.update(g);
        }
      };
    });
  }

  /** A model that never learns: predicts {@code <w, x>} for a fixed {@code w}. */
  static final class FixedLinearLearner implements OnlineLearner {
    private final double[] w;

    FixedLinearLearner(double[] w) {
      this.w = w;
    }

    @Override
    public double predict(int[] idx, double[] val, int nnz) {
      double s = 0;
      for (int k = 0; k < nnz; k++) {
        s += w[idx[k]] * val[k];
      }
      return s;
    }

    @Override
    public void update(double g) {}
  }
}
