package org.onlinekernels.cli;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.onlinekernels.cli.Options.UsageException;
import org.onlinekernels.experiments.AdaptiveOgdRegret;
import org.onlinekernels.experiments.AllDatasets;
import org.onlinekernels.experiments.DfegSynthetic;
import org.onlinekernels.experiments.FreeGradScaleFree;
import org.onlinekernels.experiments.FtrlSparsity;
import org.onlinekernels.experiments.KtRegret;
import org.onlinekernels.experiments.ScInOLSynthetic;
import org.onlinekernels.experiments.StreeterMcMahan;
import org.onlinekernels.io.AtomicFiles;
import org.onlinekernels.io.DataFileException;

/** The {@code experiment} subcommand: runs one of the papers' experiments into a directory. */
final class ExperimentCommand {
  /** The experiments, in the order of docs/EXPERIMENTS.md. */
  static final List<String> NAMES =
      List.of(
          "scinol-synthetic",
          "dfeg-synthetic",
          "streeter-mcmahan",
          "aogd-regret",
          "all-datasets",
          "ftrl-sparsity",
          "kt-regret",
          "freegrad-scale-free");

  static final String USAGE =
      String.join(
          "\n",
          "usage: online-kernels experiment NAME [--out DIR] [--data-dir DIR] [--quick]",
          "",
          "  Runs one experiment and writes README.md (command, setup, tables), CSV files and PNG charts to DIR.",
          "",
          "  NAME            scinol-synthetic  Kempka et al. 2019 sec. 4.1: test cross-entropy vs learning rate",
          "                  dfeg-synthetic    Orabona 2013 sec. 5: regret vs T on the synthetic sequence",
          "                  streeter-mcmahan  Streeter & McMahan 2010 sec. 5.1: per-coordinate vs global rate",
          "                  aogd-regret       Bartlett, Hazan & Rakhlin 2007: regret of adaptive vs plain OGD",
          "                  all-datasets      every algorithm on every data set of the data directory",
          "                  ftrl-sparsity     McMahan et al. 2013: FTRL-Proximal's exact zeros against lambda1 (austen_lines)",
          "                  kt-regret         Orabona & Pal 2016 sec. 7.1: KT's regret against its bound on coin sequences",
          "                  freegrad-scale-free  Mhammedi & Koolen 2020: FreeGrad's weights unchanged by gradients times 2^k",
          "  --out DIR       output directory (created; default: target/experiments/NAME in the project)",
          "  --data-dir DIR  the LIBSVM data sets (default: the project's data/ folder)",
          "  --quick         small sizes and fewer seeds (for tests; not the committed results)",
          "  --help          print this text",
          "");

  private ExperimentCommand() {}

  /**
   * The project's {@code data/} folder (data/README.md): the launcher passes the project directory
   * as {@code onlinekernels.home}, so the default does not depend on the caller's directory.
   */
  static Path defaultDataDir() {
    return home().resolve("data");
  }

  /**
   * {@code target/experiments/NAME} in the project: outside the sources, so a run never overwrites
   * the committed results in {@code docs/experiments} unless asked to.
   */
  static Path defaultOutDir(String name) {
    return home().resolve("target").resolve("experiments").resolve(name);
  }

  private static Path home() {
    return Path.of(System.getProperty("onlinekernels.home", ".")).toAbsolutePath().normalize();
  }

  static int run(String[] args, PrintStream out, PrintStream err)
      throws UsageException, Main.Failure {
    if (args.length > 0 && (args[0].equals("--help") || args[0].equals("-h"))) {
      out.print(USAGE);
      return 0;
    }
    if (args.length == 0 || args[0].startsWith("-")) {
      throw new UsageException("experiment needs a name: " + String.join(", ", NAMES));
    }
    String name = args[0];
    if (!NAMES.contains(name)) {
      throw new UsageException(
          "unknown experiment '" + name + "'; experiments: " + String.join(", ", NAMES));
    }
    Options o = Options.parse(args, 1, Set.of("--quick"), Set.of("--out", "--data-dir"), Set.of());
    if (o.has("--help")) {
      out.print(USAGE);
      return 0;
    }
    Path dir = o.get("--out") == null ? defaultOutDir(name) : Path.of(o.get("--out"));
    Path dataDir = o.get("--data-dir") == null ? defaultDataDir() : Path.of(o.get("--data-dir"));
    boolean quick = o.has("--quick");
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      // Checked before the run (the run failed at its first file with "cannot write to F: F").
      throw new Main.Failure(
          "cannot write to " + dir + ": it is a file; --out names a directory (made if missing)");
    }
    if ((name.equals("streeter-mcmahan")
            || name.equals("all-datasets")
            || name.equals("ftrl-sparsity"))
        && !Files.isDirectory(dataDir)) {
      throw new Main.Failure("data directory " + dataDir + " not found (give --data-dir)");
    }
    // The command as typed: the default --out is an absolute path, which would make the files
    // differ per clone.
    String command =
        "bin/online-kernels experiment "
            + name
            + (o.get("--out") == null ? "" : " --out " + o.get("--out"))
            + (o.get("--data-dir") == null ? "" : " --data-dir " + o.get("--data-dir"))
            + (quick ? " --quick" : "");
    try {
      switch (name) {
        case "scinol-synthetic" -> ScInOLSynthetic.run(dir, quick, command, out);
        case "dfeg-synthetic" -> DfegSynthetic.run(dir, quick, command, out);
        case "streeter-mcmahan" -> StreeterMcMahan.run(dir, dataDir, quick, command, out);
        case "aogd-regret" -> AdaptiveOgdRegret.run(dir, quick, command, out);
        case "ftrl-sparsity" -> FtrlSparsity.run(dir, dataDir, quick, command, out);
        case "kt-regret" -> KtRegret.run(dir, quick, command, out);
        case "freegrad-scale-free" -> FreeGradScaleFree.run(dir, quick, command, out);
        default -> AllDatasets.run(dir, dataDir, quick, command, out);
      }
    } catch (Main.Failure e) {
      throw e;
    } catch (DataFileException e) {
      throw new Main.Failure(e.getMessage());
    } catch (java.io.IOException e) {
      throw new Main.Failure("cannot write to " + dir + ": " + AtomicFiles.reason(e));
    } catch (Exception e) {
      throw new Main.Failure("experiment " + name + " failed: " + e);
    }
    out.println("wrote " + dir.resolve("README.md"));
    return 0;
  }
}
