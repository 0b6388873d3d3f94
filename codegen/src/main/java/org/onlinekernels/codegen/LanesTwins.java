package org.onlinekernels.codegen;

import com.github.javaparser.ast.ImportDeclaration;
import com.github.javaparser.ast.Modifier;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.printer.configuration.DefaultConfigurationOption;
import com.github.javaparser.printer.configuration.DefaultPrinterConfiguration;
import com.github.javaparser.printer.configuration.DefaultPrinterConfiguration.ConfigOption;
import com.github.javaparser.printer.configuration.Indentation;
import com.github.javaparser.printer.configuration.Indentation.IndentType;
import com.github.javaparser.printer.configuration.PrinterConfiguration;

/**
 * The rule's lanes class as top-level classes, one per arithmetic type: {@code FloatXLanes} is the
 * source as written (annotations dropped), {@code DoubleXLanes} its {@link Twins} (every {@code
 * float} made {@code double}), as every {@code Double*} source of the build is made.
 */
final class LanesTwins {
  private LanesTwins() {}

  /** Two-space indentation, as the rest of the code base. */
  private static final PrinterConfiguration PRINTER =
      new DefaultPrinterConfiguration()
          .addOption(
              new DefaultConfigurationOption(
                  ConfigOption.INDENTATION, new Indentation(IndentType.SPACES, 2)));

  static String floatSource(LaneRule rule) {
    return source(rule, Flavor.FLOAT);
  }

  static String doubleSource(LaneRule rule) {
    // The rule is written in float: its (float) casts become casts of doubles to double here,
    // which javac's "cast" lint reports.
    String lanesClass = Flavor.DOUBLE.lanesClass(rule);
    return Twins.toDouble(source(rule, Flavor.FLOAT))
        .replace(Flavor.FLOAT.lanesClass(rule), lanesClass)
        .replace(
            "\nfinal class " + lanesClass + " {",
            "\n@SuppressWarnings(\"cast\")\nfinal class " + lanesClass + " {");
  }

  private static String source(LaneRule rule, Flavor flavor) {
    ClassOrInterfaceDeclaration c = rule.lanes.clone();
    c.getAnnotations().clear();
    c.setName(flavor.lanesClass(rule));
    c.getConstructors().forEach(k -> k.setName(flavor.lanesClass(rule)));
    c.getModifiers().clear();
    c.addModifier(Modifier.Keyword.FINAL);
    for (MethodDeclaration m : c.getMethods()) {
      m.getAnnotations().removeIf(a -> Generated.LANE_ANNOTATIONS.contains(a.getNameAsString()));
    }
    StringBuilder sb = new StringBuilder();
    sb.append(
        Generated.header(
            rule, "the rule's lane functions in " + flavor.t + " (the forms call these)"));
    sb.append("package ").append(rule.packageName).append(";\n\n");
    for (ImportDeclaration i : rule.unit.getImports()) {
      if (!Generated.isLaneAnnotationImport(i)) {
        sb.append(i.toString().trim()).append('\n');
      }
    }
    sb.append("import static ")
        .append(rule.packageName)
        .append('.')
        .append(rule.ruleClass)
        .append(".*;\n\n");
    sb.append(c.toString(PRINTER)).append('\n');
    return sb.toString();
  }
}
