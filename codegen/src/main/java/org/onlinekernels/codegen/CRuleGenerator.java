package org.onlinekernels.codegen;

import com.github.javaparser.StaticJavaParser;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Generates the C contender's rules from the same sources as the Java forms: for every rule the
 * library's generator reads, its C records, lane functions and fused round in float and double
 * ({@link CForms}), around the optimizer's steps of its hooks file ({@link CHooks}), and the table
 * of rules the contender has. A rule without a hooks file, or whose lane functions use what the C
 * translation does not follow ({@link CTranslator}), is listed as not ported, with why, instead of
 * failing the build: the contender says so ({@code contender --unported}) and the workload report
 * lists it. Run by the benchmark module's build in {@code generate-sources}:
 *
 * <pre>
 * java ... org.onlinekernels.codegen.CRuleGenerator RULE_SOURCES HOOKS_DIR OUTPUT_HEADER
 * </pre>
 */
public final class CRuleGenerator {
  private CRuleGenerator() {}

  /**
   * @param args the library's source root, the hooks folder and the header to write
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      System.err.println("usage: CRuleGenerator RULE_SOURCES HOOKS_DIR OUTPUT_HEADER");
      System.exit(2);
    }
    List<LaneRule> rules = RuleGenerator.rules(Path.of(args[0]));
    List<String> unported = new ArrayList<>();
    String header = header(rules, Path.of(args[1]), unported);
    GeneratedFiles.write(Path.of(args[2]), header);
    System.out.println(
        "online-kernels-codegen: "
            + (rules.size() - unported.size())
            + " of "
            + rules.size()
            + " rule(s) in C ("
            + args[2]
            + ")"
            + (unported.isEmpty() ? "" : "; not ported: " + String.join("; ", unported)));
  }

  /** The generated header; the rules not ported are added to {@code unported} with why. */
  static String header(List<LaneRule> rules, Path hooksDir, List<String> unported)
      throws IOException {
    Map<Flavor, List<String>> sections = new LinkedHashMap<>();
    sections.put(Flavor.FLOAT, new ArrayList<>());
    sections.put(Flavor.DOUBLE, new ArrayList<>());
    List<String> entries = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    List<String> constants = new ArrayList<>();
    for (LaneRule rule : rules) {
      Optional<CHooks> hooks = CHooks.of(rule, hooksDir);
      if (hooks.isEmpty()) {
        missing.add(entry(rule.name, "no hooks file hooks/" + rule.name + ".h"));
        unported.add(rule.name + ": no hooks file");
        continue;
      }
      try {
        Map<String, CTranslator.Expr> outer = new LinkedHashMap<>();
        String outerDefs = outerConstants(rule, outer);
        List<String> mine = new ArrayList<>();
        for (Flavor f : sections.keySet()) {
          mine.add(section(rule, f, hooks.get(), outer));
        }
        if (!outerDefs.isEmpty()) {
          constants.add(outerDefs);
        }
        sections.get(Flavor.FLOAT).add(mine.get(0));
        sections.get(Flavor.DOUBLE).add(mine.get(1));
        String p = rule.name + "_";
        entries.add(
            "{\"" + hooks.get().name() + "\", " + p + "float_train, " + p + "double_train},");
      } catch (GeneratorException e) {
        missing.add(entry(rule.name, e.getMessage()));
        unported.add(rule.name + ": " + e.getMessage());
      }
    }
    String text =
        Template.fill(
            TEMPLATE,
            "constants",
            String.join("\n", constants),
            "float",
            String.join("\n\n", sections.get(Flavor.FLOAT)),
            "double",
            String.join("\n\n", sections.get(Flavor.DOUBLE)),
            "entries",
            String.join("\n", entries),
            "unported",
            String.join("\n", missing));
    // A section without an optional part leaves two blank lines where one will do.
    return wrap(text.replaceAll("\n{3,}", "\n\n"), 100);
  }

  /**
   * {@code text} with every code line longer than {@code width} broken after its last comma that
   * fits, else at its last space (a line break is a space to C), the rest indented four more;
   * preprocessor lines and lines with string literals are left as they are.
   */
  static String wrap(String text, int width) {
    StringBuilder out = new StringBuilder();
    for (String line : text.split("\n", -1)) {
      String indent = line.substring(0, line.length() - line.stripLeading().length());
      String rest = line;
      while (rest.length() > width
          && !rest.stripLeading().startsWith("#")
          && !rest.contains("\"")) {
        int cut = rest.lastIndexOf(", ", width - 1);
        int skip = 2;
        if (cut <= indent.length() + 4) {
          cut = rest.lastIndexOf(' ', width - 1);
          skip = 1;
        }
        if (cut <= indent.length() + 4) {
          break;
        }
        out.append(rest, 0, cut + (skip == 2 ? 1 : 0)).append('\n');
        rest = indent + "    " + rest.substring(cut + skip);
      }
      out.append(rest).append('\n');
    }
    return out.substring(0, out.length() - 1);
  }

  private static final String TEMPLATE =
      """
      /*
       * Generated by online-kernels-codegen (CRuleGenerator) from the rules' sources (each rule's
       * @Lanes class) and the C contender's hooks (bench/c/contender/hooks).
       * Do not edit: edit the rule or its hooks and rebuild. bench/c/contender/README.md says how.
       */

      /* The rules' own constants, one definition for both element types. */
      ${constants}

      /* ================================================================ float */
      #define T float
      #define TF(x) x##_float
      #define TF_IS_FLOAT 1
      #define T_MAX FLT_MAX
      #include "runtime.h"

      ${float}

      #undef T
      #undef TF
      #undef TF_IS_FLOAT
      #undef T_MAX

      /* ================================================================ double */
      #define T double
      #define TF(x) x##_double
      #define TF_IS_FLOAT 0
      #define T_MAX DBL_MAX
      #include "runtime.h"

      ${double}

      #undef T
      #undef TF
      #undef TF_IS_FLOAT
      #undef T_MAX

      /* The rules this program has, as the command line names them (contender --rules). */
      static const rule_entry RULES[] = {
        ${entries}
        {NULL, NULL, NULL},
      };

      /* The library's rules this program has not, and why (contender --unported). */
      static const char *const UNPORTED[][2] = {
        ${unported}
        {NULL, NULL},
      };
      """;

  private static String entry(String name, String why) {
    return "{\"" + name + "\", \"" + why.replace("\\", "\\\\").replace("\"", "\\\"") + "\"},";
  }

  /**
   * The {@code static final} primitive constants of the rule's class (e.g. {@code
   * FLOAT_WEALTH_CAP}) as C macros, put into {@code into} by Java name.
   */
  private static String outerConstants(LaneRule rule, Map<String, CTranslator.Expr> into) {
    ClassOrInterfaceDeclaration outer = rule.unit.getClassByName(rule.ruleClass).orElseThrow();
    CTranslator tr = new CTranslator(rule, Flavor.DOUBLE, rule.name + "_", into);
    List<String> out = new ArrayList<>();
    for (FieldDeclaration f : outer.getFields()) {
      if (!f.isStatic() || !f.isFinal() || !f.getElementType().isPrimitiveType()) {
        continue;
      }
      for (VariableDeclarator v : f.getVariables()) {
        if (v.getInitializer().isEmpty() || into.containsKey(v.getNameAsString())) {
          continue;
        }
        String c = rule.name + "_" + v.getNameAsString();
        String type = v.getTypeAsString();
        String value = tr.constant(v.getNameAsString(), v.getInitializer().get()).code();
        out.add("#define " + c + " ((" + CTranslator.cType(type) + ") " + value + ")");
        into.put(v.getNameAsString(), new CTranslator.Expr(c, type));
      }
    }
    return String.join("\n", out);
  }

  /** The rule's section in flavor {@code f}: its lanes constants, then its {@link CForms}. */
  private static String section(
      LaneRule rule, Flavor f, CHooks hooks, Map<String, CTranslator.Expr> outer) {
    String prefix = CForms.prefix(rule, f);
    Map<String, CTranslator.Expr> constants = new LinkedHashMap<>(outer);
    CTranslator tr = new CTranslator(rule, f, prefix, constants);
    List<String> defs = new ArrayList<>();
    for (FieldDeclaration fd : rule.constants) {
      FieldDeclaration twin =
          f == Flavor.FLOAT
              ? fd
              : StaticJavaParser.parseBodyDeclaration(Twins.toDouble(fd.toString()))
                  .asFieldDeclaration();
      for (VariableDeclarator v : twin.getVariables()) {
        String c = prefix + v.getNameAsString();
        String type = v.getTypeAsString();
        String value = tr.constant(v.getNameAsString(), v.getInitializer().orElseThrow()).code();
        defs.add("#define " + c + " ((" + CTranslator.cType(type) + ") " + value + ")");
        constants.put(v.getNameAsString(), new CTranslator.Expr(c, type));
      }
    }
    String forms = new CForms(rule, f, hooks, constants).source();
    return defs.isEmpty() ? forms : String.join("\n", defs) + "\n\n" + forms;
  }
}
