package org.onlinekernels.codegen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A rule's hooks file for the C contender ({@code bench/c/contender/hooks/<Rule>.h}): the
 * hand-written C twin of what the rule's optimizer does around the generated round, as the
 * optimizer itself is hand-written Java. It names the rule as the command line knows it ({@code
 * #define RULE_NAME "scinol2"}), sets the default parameters and the initial state ({@code
 * RULE(reset)}, required), and may define {@code RULE(finish_predict)}, {@code
 * RULE(before_update)}, {@code RULE(after_update)}, {@code RULE(round_update)} (the whole update,
 * for a rule whose update is not its fields' own) and {@code #define RULE_INPUT_NORM 1} (the row's
 * {@code ||x||^2} before the predict). The generator calls exactly the hooks the file defines.
 */
record CHooks(
    Path file,
    String name,
    String optimizer,
    boolean inputNorm,
    Set<String> defined,
    Set<String> macros) {
  private static final Pattern NAME = Pattern.compile("#define\\s+RULE_NAME\\s+\"([^\"]+)\"");
  private static final Pattern HOOK = Pattern.compile("static\\s+\\w+\\s+RULE\\((\\w+)\\)\\s*\\(");
  private static final Pattern MACRO = Pattern.compile("#define\\s+(\\w+)");
  private static final Pattern OPTIMIZER = Pattern.compile("The C twin of (\\w+)");

  /** The hooks of {@code rule} in {@code dir}, or empty if the rule has none. */
  static Optional<CHooks> of(LaneRule rule, Path dir) throws IOException {
    Path file = dir.resolve(rule.name + ".h");
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    String text = Files.readString(file, StandardCharsets.UTF_8);
    Matcher n = NAME.matcher(text);
    if (!n.find()) {
      throw new GeneratorException(file + ": no #define RULE_NAME \"<the command line's name>\"");
    }
    Set<String> defined = new LinkedHashSet<>();
    for (Matcher m = HOOK.matcher(text); m.find(); ) {
      defined.add(m.group(1));
    }
    if (!defined.contains("reset")) {
      throw new GeneratorException(file + ": no RULE(reset) (the default parameters and state)");
    }
    Set<String> macros = new LinkedHashSet<>();
    for (Matcher m = MACRO.matcher(text); m.find(); ) {
      macros.add(m.group(1));
    }
    Matcher o = OPTIMIZER.matcher(text);
    return Optional.of(
        new CHooks(
            file,
            n.group(1),
            o.find() ? o.group(1) : rule.name + "'s optimizer",
            text.matches("(?s).*#define\\s+RULE_INPUT_NORM\\s+1.*"),
            defined,
            macros));
  }

  /** Whether the file defines hook {@code name}. */
  boolean has(String name) {
    return defined.contains(name);
  }

  /** The include line's path, relative to the contender's sources. */
  String include() {
    return "hooks/" + file.getFileName();
  }
}
