package org.onlinekernels.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The generated sources of one rule, ScInOL2 (a computed weight, a predict that writes a field, a
 * mixed-precision form), as the library compiles them (formatted) and the C contender's section of
 * it, against the copies committed under {@code src/test/resources/golden}: a change in what the
 * generator writes is a diff someone reviews, never a surprise in the library. After a deliberate
 * change, {@code mvn -B -q -pl codegen test -Dtest=GoldenFilesTest -Dgolden.update=true} rewrites
 * them; the diff then goes into the commit.
 */
class GoldenFilesTest {
  private static final Path ROOT =
      Path.of(System.getProperty("onlinekernels.data", "../data")).toAbsolutePath().getParent();
  private static final Path RULE =
      ROOT.resolve("library/src/main/java/org/onlinekernels/rules/scinol2/ScInOL2.java");
  private static final Path GOLDEN = ROOT.resolve("codegen/src/test/resources/golden/scinol2");

  @Test
  void scinol2GeneratesItsGoldenSources() throws IOException {
    Map<String, String> generated = new TreeMap<>();
    LaneRule rule = rule();
    for (RuleGenerator.GeneratedFile g : RuleGenerator.filesOf(rule)) {
      generated.put(g.name() + ".java", JavaFormat.format(g.text()));
    }
    List<String> unported = new ArrayList<>();
    generated.put(
        "rules.h",
        CRuleGenerator.header(List.of(rule), ROOT.resolve("bench/c/contender/hooks"), unported));
    assertEquals(List.of(), unported, "ScInOL2 is not ported to C");
    if (Boolean.getBoolean("golden.update")) {
      for (var e : generated.entrySet()) {
        GeneratedFiles.write(GOLDEN.resolve(e.getKey()), e.getValue());
      }
    }
    List<String> golden;
    try (Stream<Path> s = Files.list(GOLDEN)) {
      golden = s.map(p -> p.getFileName().toString()).sorted().toList();
    }
    assertEquals(golden, List.copyOf(generated.keySet()), "the generated files' names");
    for (var e : generated.entrySet()) {
      String want = Files.readString(GOLDEN.resolve(e.getKey()), StandardCharsets.UTF_8);
      if (!want.equals(e.getValue())) {
        fail(e.getKey() + " differs from its golden copy: " + firstDifference(want, e.getValue()));
      }
    }
  }

  /** ScInOL2's rule as the library's build reads it. */
  static LaneRule rule() throws IOException {
    return RuleGenerator.rules(RULE.getParent()).stream()
        .filter(r -> r.name.equals("ScInOL2"))
        .findFirst()
        .orElseThrow();
  }

  private static String firstDifference(String want, String got) {
    String[] w = want.split("\n", -1);
    String[] g = got.split("\n", -1);
    for (int k = 0; k < Math.min(w.length, g.length); k++) {
      if (!w[k].equals(g[k])) {
        return "line " + (k + 1) + ":\n  golden:    " + w[k] + "\n  generated: " + g[k];
      }
    }
    return "golden has " + w.length + " lines, generated " + g.length;
  }
}
