package org.onlinekernels.codegen;

import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.StaticJavaParser;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Generates every form of every rule: for each source file under the source root whose top-level
 * class nests a class annotated {@code @Lanes}, writes into the output root (same package) the
 * lanes twins, the plain-Java and Vector API forms for float, double and (where the rule has it)
 * mixed precision, and the public stateless kernel. Run by the library's build in {@code
 * generate-sources}; {@code java ... RuleGenerator SRC OUT}.
 */
public final class RuleGenerator {
  private RuleGenerator() {}

  /**
   * @param args the source root and the output root
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      System.err.println("usage: RuleGenerator SOURCE_ROOT OUTPUT_ROOT");
      System.exit(2);
    }
    try {
      int n = generate(Path.of(args[0]), Path.of(args[1]));
      System.out.println("online-kernels-codegen: " + n + " rule(s) generated into " + args[1]);
    } catch (GeneratorException e) {
      System.err.println("online-kernels-codegen: " + e.getMessage());
      System.exit(1);
    }
  }

  /** Generates every rule under {@code sources} into {@code output}; returns how many rules. */
  public static int generate(Path sources, Path output) throws IOException {
    List<LaneRule> rules = rules(sources);
    for (LaneRule rule : rules) {
      for (GeneratedFile g : filesOf(rule)) {
        JavaFormat.write(
            output.resolve(rule.packageName.replace('.', '/')).resolve(g.name() + ".java"),
            g.text());
      }
    }
    return rules.size();
  }

  /**
   * Every rule under {@code sources}: each class annotated {@code @Lanes} nested in a top-level
   * class, in the order of the files' paths.
   */
  static List<LaneRule> rules(Path sources) throws IOException {
    StaticJavaParser.getParserConfiguration()
        .setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_21);
    List<Path> files;
    try (Stream<Path> s = Files.walk(sources)) {
      files = s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
    List<LaneRule> rules = new ArrayList<>();
    for (Path f : files) {
      String text = Files.readString(f, StandardCharsets.UTF_8);
      if (!text.contains("@Lanes")) {
        continue;
      }
      CompilationUnit cu = StaticJavaParser.parse(text);
      cu.setStorage(f); // where ImportedConstants finds the classes a rule imports
      for (ClassOrInterfaceDeclaration outer :
          cu.findAll(ClassOrInterfaceDeclaration.class, c -> c.isTopLevelType())) {
        for (ClassOrInterfaceDeclaration inner :
            outer.findAll(
                ClassOrInterfaceDeclaration.class,
                c -> c != outer && c.isAnnotationPresent("Lanes"))) {
          rules.add(new LaneRule(cu, outer, inner));
        }
      }
    }
    return rules;
  }

  /** One generated source file, as the templates write it (before {@link JavaFormat}). */
  record GeneratedFile(String name, String text) {}

  /** Every file generated for {@code rule}. */
  static List<GeneratedFile> filesOf(LaneRule rule) {
    List<GeneratedFile> out = new ArrayList<>();
    out.add(new GeneratedFile(Flavor.FLOAT.lanesClass(rule), LanesTwins.floatSource(rule)));
    out.add(new GeneratedFile(Flavor.DOUBLE.lanesClass(rule), LanesTwins.doubleSource(rule)));
    List<Flavor> flavors =
        rule.hasMixed()
            ? List.of(Flavor.FLOAT, Flavor.DOUBLE, Flavor.MIXED)
            : List.of(Flavor.FLOAT, Flavor.DOUBLE);
    for (Flavor f : flavors) {
      out.add(new GeneratedFile(ScalarForms.className(rule, f), new ScalarForms(rule, f).source()));
      out.add(new GeneratedFile(VectorForms.className(rule, f), new VectorForms(rule, f).source()));
    }
    out.add(new GeneratedFile(KernelApi.className(rule), new KernelApi(rule).source()));
    out.add(new GeneratedFile(FormsAdapter.className(rule), new FormsAdapter(rule).source()));
    return out;
  }
}
