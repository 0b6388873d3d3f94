package org.onlinekernels.cli;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import org.onlinekernels.cli.Options.UsageException;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.trainer.AlgorithmSpec;

/**
 * A state file's settings apply wherever one is used ({@code train --initial}, {@code predict} and
 * {@code serve} with a state as model), so a flag that would change the model (rule, parameters,
 * type, loss, labels, layout, dimension, normalization, input format, hashing, namespaces) is
 * refused unless it says what the state says; each refusal names the flag, the value given and the
 * state's.
 */
final class ResumeChecks {
  private ResumeChecks() {}

  /**
   * What the flags asked for; a value whose flag was not given is not compared.
   *
   * @param labels null for {@code --labels auto}
   * @param dimension 0 when not given
   */
  record Requested(
      AlgorithmSpec spec,
      Precision precision,
      Loss loss,
      LabelMap labels,
      int dimension,
      InputFormat format) {
    /**
     * The requests of a command without model flags: the state's own values, the labels and format
     * of the flags.
     */
    static Requested of(RunSettings s, InputFormat format, Options o) throws UsageException {
      return new Requested(
          s.spec(), s.precision(), s.loss(), LabelMap.parse(o.get("--labels")), 0, format);
    }
  }

  static void requireSame(Options o, Requested c, RunSettings s, Path file) throws UsageException {
    String algorithm =
        s.spec().name() + (s.spec().params().isEmpty() ? "" : " " + s.spec().paramString());
    same(o, file, c.spec().name().equals(s.spec().name()), algorithm, "--algorithm");
    same(
        o,
        file,
        c.spec().sameParameters(s.spec(), s.precision()),
        algorithm,
        "--param",
        "--algorithm");
    same(o, file, c.precision() == s.precision(), lower(s.precision().name()), "--type");
    same(o, file, c.loss() == s.loss(), lower(s.loss().name()), "--loss");
    same(
        o,
        file,
        c.labels() != null && c.labels().recorded().equals(s.labels().recorded()),
        s.labels().description() == null ? "the labels as they are" : s.labels().description(),
        "--labels");
    same(o, file, s.dense(), "sparse rows", "--dense");
    same(o, file, s.normalize(), "rows as they are", "--normalize");
    same(o, file, c.dimension() == s.d(), "d = " + s.d(), "--dimension");
    InputFormat in = s.input();
    same(
        o,
        file,
        Objects.equals(c.format().format(), in.format()),
        in.format() + " input",
        "--format");
    same(
        o,
        file,
        c.format().bits() == in.bits(),
        in.bits() == 0 ? in.format() + " input (not hashed)" : "--bits " + in.bits(),
        "--bits");
    same(
        o,
        file,
        c.format().signed() == in.signed(),
        in.signed() ? "signed hashing" : "unsigned hashing",
        "--hash");
    String ns = in.namespaces().describe();
    same(
        o,
        file,
        c.format().namespaces().equals(in.namespaces()),
        ns.isEmpty() ? "every namespace, no interactions" : ns,
        "--interactions",
        "--ignore",
        "--keep");
  }

  /** Refuses the first of {@code flags} given when {@code agrees} is false. */
  private static void same(Options o, Path file, boolean agrees, String saved, String... flags)
      throws UsageException {
    if (agrees) {
      return;
    }
    for (String f : flags) {
      if (o.has(f)) {
        String given = o.all(f).isEmpty() ? "" : " " + String.join(" ", o.all(f));
        throw new UsageException(
            f
                + given
                + ": the state in "
                + file
                + " was trained with "
                + saved
                + "; drop "
                + f
                + " (with --initial the state's settings apply)");
      }
    }
  }

  private static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
