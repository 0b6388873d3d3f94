package org.onlinekernels.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.onlinekernels.cli.Main.Failure;
import org.onlinekernels.cli.Options.UsageException;
import org.onlinekernels.io.VisibleText;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * What a training run is, as far as continuing it needs: the rule and its parameters, the
 * precision, the loss, the layout (sparse or dense rows), the dimension and outputs, the label map,
 * row normalization, the input format with its hashing and namespaces, and the number of examples
 * trained so far. A {@link TrainingState} records it as text settings; {@link #of} reads them back
 * and refuses any value a run could not have written.
 *
 * @param input the input format, {@code libsvm} or {@code vw} given explicitly
 * @param examples examples trained so far (every epoch counted)
 */
record RunSettings(
    AlgorithmSpec spec,
    Precision precision,
    Loss loss,
    boolean dense,
    int d,
    int outputs,
    boolean multiclass,
    LabelMap labels,
    boolean normalize,
    InputFormat input,
    long examples) {

  /** The settings as a state file records them ({@link TrainingState#KEYS}). */
  Map<String, String> toMap() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("algorithm", spec.name());
    m.put("params", spec.paramString());
    m.put("precision", precision.name().toLowerCase(Locale.ROOT));
    m.put("loss", loss.name().toLowerCase(Locale.ROOT));
    m.put("layout", dense ? "dense" : "sparse");
    m.put("d", Integer.toString(d));
    m.put("outputs", Integer.toString(outputs));
    m.put("classes", multiclass ? Integer.toString(outputs) : "binary");
    m.put("labels", labels.recorded());
    m.put("normalize", Boolean.toString(normalize));
    m.put("format", input.format());
    m.put("bits", Integer.toString(input.format().equals("vw") ? InputFormat.bitsOf(d) : 0));
    m.put("hash", input.signed() ? "signed" : "unsigned");
    m.put("interactions", input.namespaces().interactions());
    m.put("ignore", input.namespaces().ignore());
    m.put("keep", input.namespaces().keep());
    m.put("examples", Long.toString(examples));
    return m;
  }

  /** The same settings after {@code more} further examples. */
  RunSettings plus(long more) {
    return new RunSettings(
        spec,
        precision,
        loss,
        dense,
        d,
        outputs,
        multiclass,
        labels,
        normalize,
        input,
        examples + more);
  }

  /** A trainer configuration of these settings with the run's epochs, seed and shuffling. */
  TrainerConfig config(int epochs, long seed, boolean shuffle) {
    return new TrainerConfig(spec, precision.inputType(), loss, epochs, seed, shuffle, dense)
        .withPrecision(precision);
  }

  /**
   * The settings of {@code state}, read from {@code file}.
   *
   * @throws Failure naming the file, the setting and what is wrong with its value
   */
  static RunSettings of(TrainingState state, Path file) throws Failure {
    String key = "";
    try {
      key = "algorithm";
      String name = state.get(key);
      if (!AlgorithmSpec.NAMES.contains(name)) {
        throw new IllegalArgumentException("not an algorithm of this program");
      }
      key = "params";
      AlgorithmSpec spec = AlgorithmSpec.parse(name, List.of(state.get(key)));
      key = "precision";
      Precision precision =
          Precision.valueOf(
              choice(state.get(key), "float", "double", "mixed").toUpperCase(Locale.ROOT));
      key = "loss";
      Loss loss = Loss.parse(state.get(key));
      key = "layout";
      boolean dense = choice(state.get(key), "sparse", "dense").equals("dense");
      key = "d";
      int d = positive(state.get(key));
      for (TrainingState.Image image : state.images()) {
        // Each optimizer keeps at least one buffer of d elements of 4 or more bytes: a larger d
        // would size the state before the images are read (2^31-1 asked for 34 GB).
        if (d > image.length() / 4) {
          throw new IllegalArgumentException(
              "is more than the optimizer images hold (" + image.length() + " bytes)");
        }
      }
      key = "outputs";
      int outputs = positive(state.get(key));
      key = "classes";
      boolean multi = !state.get(key).equals("binary");
      if (multi ? positive(state.get(key)) != outputs || outputs < 2 : outputs != 1) {
        throw new IllegalArgumentException("does not match outputs " + outputs);
      }
      if (state.images().size() != outputs) {
        throw new IllegalArgumentException(
            "the file holds " + state.images().size() + " optimizers");
      }
      key = "labels";
      LabelMap labels = LabelMap.ofRecorded(state.get(key));
      int listed = state.get(key).isEmpty() ? 0 : state.get(key).split(",", -1).length;
      if (listed > 0 && (labels.binary() ? multi : !multi || listed != outputs)) {
        throw new IllegalArgumentException("does not match classes " + state.get("classes"));
      }
      key = "normalize";
      boolean normalize = Boolean.parseBoolean(choice(state.get(key), "true", "false"));
      key = "format";
      String format = choice(state.get(key), "libsvm", "vw");
      key = "bits";
      int bits = Integer.parseInt(state.get(key));
      if (format.equals("vw")
          ? bits < 1 || bits > VwReader.MAX_BITS || 1 << bits != d
          : bits != 0) {
        throw new IllegalArgumentException("does not fit format " + format + " and d = " + d);
      }
      key = "hash";
      boolean signed = choice(state.get(key), "signed", "unsigned").equals("signed");
      key = "ignore"; // each checked alone first, so that the message names the one at fault
      Namespaces.of("", state.get(key), "");
      key = "keep";
      Namespaces.of("", "", state.get(key));
      key = "interactions";
      Namespaces ns =
          Namespaces.of(state.get("interactions"), state.get("ignore"), state.get("keep"));
      if (format.equals("libsvm") && (ns.any() || !signed)) {
        throw new IllegalArgumentException("hashing settings on LIBSVM input");
      }
      key = "examples";
      long examples = Long.parseLong(state.get(key));
      if (examples < 0) {
        throw new IllegalArgumentException("is negative");
      }
      return new RunSettings(
          spec,
          precision,
          loss,
          dense,
          d,
          outputs,
          multi,
          labels,
          normalize,
          new InputFormat(format, format.equals("vw") ? bits : 0, signed, ns),
          examples);
    } catch (IllegalArgumentException | UsageException e) {
      throw new Failure(
          file
              + ": setting "
              + key
              + " = '"
              + VisibleText.of(state.settings().get(key))
              + "' is invalid ("
              + VisibleText.of(e.getMessage())
              + "): the file was not written by train --save-state, or was changed");
    }
  }

  private static String choice(String v, String... allowed) {
    for (String a : allowed) {
      if (a.equals(v)) {
        return v;
      }
    }
    throw new IllegalArgumentException("expected one of " + String.join(", ", allowed));
  }

  private static int positive(String v) {
    int x = Integer.parseInt(v);
    if (x < 1) {
      throw new IllegalArgumentException("must be at least 1");
    }
    return x;
  }
}
