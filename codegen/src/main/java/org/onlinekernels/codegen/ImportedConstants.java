package org.onlinekernels.codegen;

import com.github.javaparser.StaticJavaParser;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.ImportDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.DoubleLiteralExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.IntegerLiteralExpr;
import com.github.javaparser.ast.expr.NameExpr;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A constant a rule source reads from another class of the same source tree, such as {@code
 * InputPolicy.FLOAT_WEIGHT_BOUND}: its literal value, found in that class's source. The rule's Java
 * forms compile the reference as written; the C contender needs the value. Only a {@code static
 * final} primitive field initialized with a number literal is resolved; anything else is left to
 * the caller to refuse.
 */
final class ImportedConstants {
  private ImportedConstants() {}

  /**
   * The literal initializer of {@code Class.NAME} as {@code unit} imports it (a single-type import
   * or the unit's own package), or empty where the class is not in the unit's source tree or the
   * field is not a literal constant.
   */
  static Optional<Expression> literal(CompilationUnit unit, FieldAccessExpr fa) {
    if (!(fa.getScope() instanceof NameExpr scope) || unit.getStorage().isEmpty()) {
      return Optional.empty();
    }
    String simple = scope.getNameAsString();
    String pkg = unit.getPackageDeclaration().map(p -> p.getNameAsString()).orElse("");
    String qualified = pkg.isEmpty() ? simple : pkg + "." + simple;
    for (ImportDeclaration i : unit.getImports()) {
      if (!i.isStatic() && !i.isAsterisk() && i.getName().getIdentifier().equals(simple)) {
        qualified = i.getNameAsString();
      }
    }
    Path root = unit.getStorage().get().getPath().getParent();
    for (int k = 0; k < pkg.split("\\.").length && !pkg.isEmpty(); k++) {
      root = root.getParent();
    }
    Path source = root.resolve(qualified.replace('.', '/') + ".java");
    if (!Files.isRegularFile(source)) {
      return Optional.empty();
    }
    CompilationUnit other;
    try {
      other = StaticJavaParser.parse(source);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (FieldDeclaration f : other.findAll(FieldDeclaration.class)) {
      if (!f.isStatic() || !f.isFinal() || !f.getElementType().isPrimitiveType()) {
        continue;
      }
      for (VariableDeclarator v : f.getVariables()) {
        if (v.getNameAsString().equals(fa.getNameAsString())
            && v.getInitializer()
                .filter(e -> e instanceof DoubleLiteralExpr || e instanceof IntegerLiteralExpr)
                .isPresent()) {
          return v.getInitializer();
        }
      }
    }
    return Optional.empty();
  }
}
