package org.onlinekernels.cli;

import java.util.HashSet;
import java.util.Set;
import org.onlinekernels.cli.Options.UsageException;
import org.onlinekernels.trainer.AlgorithmSpec;

/** The {@code train} subcommand's command line: its options, as parsed, and its help text. */
final class TrainUsage {
  private TrainUsage() {}

  /** Parses {@code train}'s arguments (VW's aliases first), refusing unknown options. */
  static Options parse(String[] args) throws UsageException {
    Set<String> valued =
        new HashSet<>(
            Set.of(
                "--data",
                "--test",
                "--algorithm",
                "--param",
                "--loss",
                "--type",
                "--epochs",
                "--seed",
                "--model",
                "--labels",
                "--ties",
                "--progressive-out",
                "--threads",
                "--merge-every",
                "--dimension",
                "--save-state",
                "--initial",
                "--holdout-period",
                "--invert-hash",
                "--shuffle-buffer",
                "--parser-threads",
                "--cache"));
    valued.addAll(InputFormat.OPTIONS);
    Options o =
        Options.parse(
            InputFormat.aliases(args),
            0,
            Set.of(
                "--no-shuffle", "--dense", "--normalize", "--json", "--deterministic", "--verbose"),
            valued,
            Set.of("--param", "--interactions"));
    return o;
  }

  static final String TEXT =
      String.join(
          "\n",
          "usage: online-kernels train --data FILE [options]",
          "",
          "  One or more online passes: per example predict, score (progressive validation: loss and",
          "  error before the update), update. Labels +1/-1 give one output (labels all 0/1 or all 1/2",
          "  too: the smaller is -1); class labels 0..K-1 give K outputs trained one-vs-rest on the same",
          "  instance, prediction = class of the largest score. An error is a wrong sign (binary) or a",
          "  wrong class; a tie (yhat = 0, or a shared largest score) counts as half an error (--ties).",
          "",
          "  --data FILE         training data, LIBSVM/svmlight or Vowpal Wabbit text (.gz allowed;",
          "                      - for standard input); an input of more rows than --shuffle-buffer",
          "                      is trained as it is read, never held (docs/CLI.md, \"Streaming\")",
          "  --test FILE         test data (same format), scored with the final weights",
          "  --format F          libsvm or vw (default: vw for names ending in .vw or .vw.gz, else libsvm)",
          "  --bits B            vw: feature hashing into 2^B weights, B in 1..30 (default 18)",
          "  --hash H            vw: signed (default: bit 31 of the hash signs the value) or unsigned",
          "  --interactions ab   vw: cross namespaces a and b (first letters; repeatable; alias -q ab;",
          "                      :: crosses every pair), hashed as VW does (docs/CLI.md)",
          "  --ignore abc        vw: drop the namespaces starting with a, b or c",
          "  --keep abc          vw: keep only the namespaces starting with a, b or c",
          "  --labels L          auto (default), NEG,POS (binary: NEG -> -1, POS -> +1), or C0,C1,...",
          "                      (three or more: class Ci -> i)",
          "  --algorithm NAME    default " + TrainCommand.DEFAULT_ALGORITHM + "; one of:",
          AlgorithmSpec.HELP,
          "  --param K=V         an algorithm parameter (repeatable, or K=V,K=V)",
          "  --loss L            logistic (default), hinge, absolute, squared; with K classes the",
          "                      reported loss is the one-vs-rest sum of the K outputs' losses, and the",
          "                      K-way softmax log loss of the scores is reported beside it",
          "  --type T            float (default), double, or mixed (float weights and input, double",
          "                      accumulators; adagrad and scinol2)",
          "  --epochs N          passes over the data (default 1)",
          "  --seed S            seed of the shuffling (default " + Main.DEFAULT_SEED + ")",
          "  --shuffle-buffer N  rows read ahead and held for shuffling (default "
              + TrainCommand.DEFAULT_SHUFFLE_BUFFER
              + "): an input of at",
          "                      most N rows is held and shuffled in full every epoch; a longer one",
          "                      is streamed, each row drawn at random from the N held",
          "  --cache FILE        binary cache of the parsed rows: written by pass 1 if absent, read",
          "                      instead of the text if present and of the same data and settings",
          "                      (refused if stale); --epochs N > 1 on a stream without it uses a",
          "                      temporary one",
          "  --parser-threads P  threads parsing the text beside the learner (default: the cores",
          "                      less one, 1 to 4)",
          "  --no-shuffle        visit rows in file order (default: a fresh seeded order every epoch,",
          "                      within --shuffle-buffer;",
          "                      demo, which compares algorithms on one order, never shuffles)",
          "  --ties T            half (default): a tie counts as half an error; error: as a whole one",
          "  --progressive-out FILE  write every training example's progressive prediction, one line",
          "                      each in visiting order: EPOCH ROW LABEL [CLASS] SCORE... (ROW: 1-based",
          "                      example number in the file; CLASS: multiclass prediction)",
          "  --dense             feed dense rows (d elements) instead of sparse index/value rows",
          "  --threads T         train on T threads (default 1; at most",
          "                      "
              + TrainCommand.MAX_THREADS
              + ": each thread holds a learner and a shard); the",
          "                      fastest mode for the rule: shared state, lock-free (not reproducible),",
          "                      or parameter mixing where shared state would lock; docs/parallel/README.md;",
          "                      auto: one per core where the job is long enough for each to gain,",
          "                      else fewer, down to one (and one for a streamed input); says why",
          "  --deterministic     with --threads: iterative parameter mixing, bit-reproducible for fixed",
          "                      T and N (docs/MERGING.md)",
          "  --merge-every N     with --threads: parameter mixing (as --deterministic), the threads'",
          "                      learners merged every N examples (default "
              + TrainCommand.DEFAULT_MERGE_EVERY
              + "; 0: once per epoch)",
          "  --normalize         scale every row (train and test) to unit Euclidean norm first",
          "  --model FILE        save the final model there (format: docs/MODEL_FORMAT.md)",
          "  --save-state FILE   save the whole training state there (optimizer state, settings, label",
          "                      map, hashing) to continue from later; may be the --initial file",
          "  --initial FILE      continue from a state saved by --save-state: its rule, parameters, type,",
          "                      loss, labels, dimension and hashing apply (same flags allowed, others",
          "                      refused); one run on A then this one on B equals one run on A then B",
          "  --holdout-period N  hold out rows N, 2N, ... (not trained; scored as the run goes, as VW",
          "                      does) and report their loss beside the progressive loss; N >= 2",
          "  --invert-hash FILE  write every feature seen with its index, sign and weight per output",
          "  --dimension N       model dimension; feature indices up to N (default: the largest index,",
          "                      which must then be at most "
              + TrainCommand.DEFAULT_MAX_DIMENSION
              + ")",
          "  --json              print a one-line JSON summary instead of text",
          "  --verbose           with --threads: where each thread spent its time (CPU, waits,",
          "                      blocks; the JSON always has it as thread_report)",
          "  --help              print this text",
          "");
}
