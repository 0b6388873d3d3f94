package org.onlinekernels.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rule the C generator cannot follow is listed as not ported, with why, and the rules it can
 * follow are still written: the metal report then says so instead of failing.
 */
class CRuleGeneratorTest {
  private static final String SOURCE =
      """
      package org.example.rules;

      import org.onlinekernels.kernel.annotations.Lanes;
      import org.onlinekernels.kernel.annotations.Predict;
      import org.onlinekernels.kernel.annotations.Update;

      final class Odd {
        @Lanes(fields = {"w"}, weight = "w")
        static final class Rule {
          @Update
          static float w(float w, float gx) {
            return w - %s;
          }
        }
      }
      """;

  private static LaneRule rule(Path dir, String step) throws IOException {
    Path src = dir.resolve("src/org/example/rules/Odd.java");
    Files.createDirectories(src.getParent());
    Files.writeString(src, SOURCE.formatted(step));
    return RuleGenerator.rules(dir.resolve("src")).get(0);
  }

  private static Path hooks(Path dir) throws IOException {
    Path hooks = dir.resolve("hooks");
    Files.createDirectories(hooks);
    Files.writeString(
        hooks.resolve("Odd.h"),
        "#define RULE_NAME \"odd\"\nstatic void RULE(reset)(MODEL *m) { (void) m; }\n");
    return hooks;
  }

  @Test
  void aRuleWithoutHooksIsListedNotPorted(@TempDir Path dir) throws IOException {
    List<String> unported = new ArrayList<>();
    String h = CRuleGenerator.header(List.of(rule(dir, "gx")), dir.resolve("none"), unported);
    assertEquals(List.of("Odd: no hooks file"), unported);
    assertTrue(h.contains("{\"Odd\", \"no hooks file hooks/Odd.h\"},"), h);
    assertTrue(!h.contains("Odd_float_train"), h);
  }

  @Test
  void aRuleTheTranslationCannotFollowIsListedNotPorted(@TempDir Path dir) throws IOException {
    List<String> unported = new ArrayList<>();
    String h =
        CRuleGenerator.header(List.of(rule(dir, "(float) Math.log(gx)")), hooks(dir), unported);
    assertEquals(1, unported.size(), unported.toString());
    assertTrue(unported.get(0).contains("Math.log not translated to C"), unported.toString());
    assertTrue(h.contains("{\"Odd\", \"org.example.rules.Odd.Rule.w:"), h);
    assertTrue(!h.contains("Odd_float_train"), h);
  }

  @Test
  void aConstantImportedFromTheSourceTreeIsReadFromItsClass(@TempDir Path dir) throws IOException {
    Path limits = dir.resolve("src/org/example/policy/Limits.java");
    Files.createDirectories(limits.getParent());
    Files.writeString(
        limits,
        "package org.example.policy;\n"
            + "public final class Limits {\n"
            + "  public static final double FLOAT_STEP = 0x1p-3;\n"
            + "  public static final double DOUBLE_STEP = 0x1p-7;\n"
            + "}\n");
    Path src = dir.resolve("src/org/example/rules/Odd.java");
    Files.createDirectories(src.getParent());
    Files.writeString(
        src,
        SOURCE
            .formatted("STEP * gx")
            .replace(
                "import org.onlinekernels.kernel.annotations.Update;\n",
                "import org.onlinekernels.kernel.annotations.Update;\n"
                    + "import org.example.policy.Limits;\n")
            .replace(
                "    @Update\n",
                "    static final float STEP = (float) Limits.FLOAT_STEP;\n\n    @Update\n"));
    LaneRule rule = RuleGenerator.rules(dir.resolve("src")).get(0);
    List<String> unported = new ArrayList<>();
    String h = CRuleGenerator.header(List.of(rule), hooks(dir), unported);
    assertEquals(List.of(), unported);
    // Each flavor reads its own twin's constant: FLOAT_STEP for float, DOUBLE_STEP for double.
    assertTrue(h.contains("#define Odd_float_STEP ((float) ((float) 0x1p-3))"), h);
    assertTrue(h.contains("#define Odd_double_STEP ((double) ((double) 0x1p-7))"), h);
  }

  @Test
  void aRuleItCanFollowIsInTheTable(@TempDir Path dir) throws IOException {
    List<String> unported = new ArrayList<>();
    String h = CRuleGenerator.header(List.of(rule(dir, "gx")), hooks(dir), unported);
    assertEquals(List.of(), unported);
    assertTrue(h.contains("{\"odd\", Odd_float_train, Odd_double_train},"), h);
    assertTrue(h.contains("static inline float Odd_float_w(float w, float gx) {"), h);
    assertTrue(h.contains("static inline double Odd_double_w(double w, double gx) {"), h);
  }
}
