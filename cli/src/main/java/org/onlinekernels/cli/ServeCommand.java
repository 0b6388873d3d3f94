package org.onlinekernels.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Set;
import java.util.function.Supplier;
import org.onlinekernels.cli.Main.Failure;
import org.onlinekernels.cli.Options.UsageException;
import org.onlinekernels.io.AtomicFiles;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.io.VisibleText;

/**
 * The {@code serve} subcommand: a model answering one prediction per line over TCP, and with {@code
 * --learn} training on every line; its options, the model and the server ({@link ServeServer}),
 * stopped by SIGTERM or Ctrl-C through a shutdown hook that saves the state.
 */
final class ServeCommand {
  /** Default port: the one Vowpal Wabbit's daemon uses. */
  static final int DEFAULT_PORT = 26542;

  /** The line printed first to standard output once listening: this, then {@code host:port}. */
  static final String LISTENING = "listening on ";

  static final String USAGE =
      String.join(
          "\n",
          "usage: online-kernels serve (--model FILE | --initial FILE) [--port P] [options]",
          "",
          "  Listens on a TCP port; every client sends examples, one per line, in the model's format",
          "  (LIBSVM or Vowpal Wabbit text), and gets one line back per line: the prediction as",
          "  'predict --out' writes it, or 'error: line N: problem' (the connection stays usable).",
          "  Prints '" + LISTENING + "HOST:PORT' first; runs until SIGTERM or Ctrl-C.",
          "",
          "  --model FILE       a model written by 'train --model', or a state written by",
          "                     'train --save-state' (whose input settings then apply)",
          "  --initial FILE     a state written by 'train --save-state' (needed by --learn)",
          "  --host H           address to listen on (default 127.0.0.1: this machine only)",
          "  --port P           port to listen on, 0 for any free one (default "
              + DEFAULT_PORT
              + ")",
          "  --learn            train on every example after predicting it (progressive",
          "                     prediction); examples from all clients go through one model thread",
          "  --save-state FILE  with --learn: write the state there at exit (SIGTERM) and every",
          "                     --save-every N examples; crash-safe, may be the --initial file",
          "  --save-every N     with --save-state: also save after every N examples",
          "  --format F, --bits B, --hash H, --interactions ab, -q ab, --ignore abc, --keep abc,",
          "  --normalize        for a model file: the input settings, as for predict",
          "  --help             print this text",
          "");

  private ServeCommand() {}

  static int run(String[] args, PrintStream out, PrintStream err) throws UsageException, Failure {
    ServeServer server = start(args, out, err);
    if (server == null) {
      return 0;
    }
    // SIGTERM, SIGINT (Ctrl-C), SIGHUP: save, then exit 0 (1 if the state could not be saved)
    // rather than the JVM's 128 + signal, so that a service manager sees a clean stop.
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  int code = stop(server, out, err);
                  out.flush();
                  err.flush();
                  Runtime.getRuntime().halt(code);
                }));
    try {
      server.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 0;
  }

  /**
   * Checks the options, loads the model and starts listening; returns at once with the running
   * server (null after {@code --help}). The caller stops it with {@link ServeServer#shutdown}.
   */
  static ServeServer start(String[] args, PrintStream out, PrintStream err)
      throws UsageException, Failure {
    return start(args, out, err, null);
  }

  /**
   * As {@link #start(String[], PrintStream, PrintStream)}, the connections sharing {@code memory}
   * for their lines (null: half the heap free once the model is loaded, {@link
   * ServeMemory#ofHeap}).
   */
  static ServeServer start(String[] args, PrintStream out, PrintStream err, ServeMemory memory)
      throws UsageException, Failure {
    Set<String> valued =
        new java.util.HashSet<>(
            Set.of("--model", "--initial", "--host", "--port", "--save-state", "--save-every"));
    valued.addAll(InputFormat.OPTIONS);
    Options o =
        Options.parse(
            InputFormat.aliases(args),
            0,
            Set.of("--learn", "--normalize"),
            valued,
            Set.of("--interactions"));
    if (o.has("--help")) {
      out.print(USAGE);
      return null;
    }
    if (o.has("--model") == o.has("--initial")) {
      throw new UsageException("give the model by exactly one of --model FILE and --initial FILE");
    }
    Path file = Path.of(o.has("--model") ? o.get("--model") : o.get("--initial"));
    boolean learn = o.has("--learn");
    Path saveState = o.get("--save-state") == null ? null : Path.of(o.get("--save-state"));
    long saveEvery = o.longValue("--save-every", 0);
    if (saveState != null && !learn) {
      throw new UsageException("--save-state saves what --learn trained; add --learn");
    }
    if (o.has("--save-every") && (saveState == null || saveEvery < 1)) {
      throw new UsageException(
          saveState == null
              ? "--save-every needs --save-state FILE"
              : "--save-every must be at least 1, got " + saveEvery);
    }
    long port = o.longValue("--port", DEFAULT_PORT);
    if (port < 0 || port > 65535) {
      throw new UsageException("--port must be 0..65535 (0: any free port), got " + port);
    }
    InetAddress host;
    try {
      host = InetAddress.getByName(o.get("--host") == null ? "127.0.0.1" : o.get("--host"));
    } catch (UnknownHostException e) {
      throw new UsageException("--host: unknown host '" + o.get("--host") + "'");
    }
    InputFormat flags = InputFormat.parse(o);
    ServedModel model;
    Supplier<ServeRows> rows;
    if (learn || o.has("--initial")) {
      if (learn && !TrainingState.isStateFile(file) && java.nio.file.Files.isRegularFile(file)) {
        throw new Failure(
            file
                + " is a model file (weights only); --learn continues training from a state"
                + " file: write one with train --save-state, and give it with --initial");
      }
      TrainingState state = TrainingState.load(file);
      RunSettings s = RunSettings.of(state, file);
      ResumeChecks.requireSame(o, ResumeChecks.Requested.of(s, flags, o), s, file);
      InputFormat in = s.input();
      boolean vw = in.format().equals("vw");
      LibSvmReader.Limits limits =
          learn
              ? TrainCommand.inputLimits(s.precision().inputType(), s.normalize(), 0)
                  .withMaxDimension(s.d(), ", the dimension of the state in " + file)
              : LibSvmReader.Limits.NONE;
      if (saveState != null) {
        checkWritable(saveState);
      }
      model =
          learn
              ? ServedModel.learning(state, s, file, saveState, saveEvery, err)
              : ServedModel.predicting(ModelFiles.load(file).model());
      LabelMap labels = learn ? s.labels() : null;
      int classes = learn && s.multiclass() ? s.outputs() : 0;
      rows = () -> new ServeRows(in, vw, in.bits(), limits, labels, s.normalize(), classes);
    } else {
      ModelFiles.Loaded loaded = ModelFiles.load(file);
      InputFormat in = ModelFiles.format(loaded, flags, o, file, Path.of("-"));
      boolean vw = in.isVw(Path.of("-"));
      int bits = in.bits() != 0 ? in.bits() : InputFormat.bitsOf(loaded.model().dimension());
      boolean normalize =
          loaded.settings() != null ? loaded.settings().normalize() : o.has("--normalize");
      model = ServedModel.predicting(loaded.model());
      rows = () -> new ServeRows(in, vw, bits, LibSvmReader.Limits.NONE, null, normalize, 0);
    }
    ServeServer server;
    try {
      server =
          new ServeServer(
              host, (int) port, model, rows, memory != null ? memory : ServeMemory.ofHeap(), err);
    } catch (Failure e) {
      model.close();
      throw e;
    }
    out.println(LISTENING + server.address());
    out.flush();
    return server;
  }

  /**
   * Shuts {@code server} down (the state saved with {@code --save-state}) and says on {@code out}
   * what was saved, for a learning model; returns the exit code: 0, or 1 with the error on {@code
   * err} when the state could not be saved.
   */
  static int stop(ServeServer server, PrintStream out, PrintStream err) {
    try {
      String summary = server.shutdown();
      if (summary != null) {
        out.println(summary);
      }
      return 0;
    } catch (Failure e) {
      err.println("error: " + VisibleText.of(e.getMessage()));
      return 1;
    }
  }

  private static void checkWritable(Path file) throws Failure {
    try {
      AtomicFiles.checkWritable(file); // before serving, not at the first save
    } catch (IOException e) {
      throw new Failure(e.getMessage());
    }
  }
}
