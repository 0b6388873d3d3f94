package org.onlinekernels.codegen;

import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.ArrayInitializerExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.IntegerLiteralExpr;
import com.github.javaparser.ast.expr.MemberValuePair;
import com.github.javaparser.ast.expr.NormalAnnotationExpr;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import java.util.ArrayList;
import java.util.List;

/** Reads the members of a rule's {@code @Lanes} annotation from its parsed source. */
final class LanesAnnotation {
  private LanesAnnotation() {}

  static List<String> strings(AnnotationExpr a, String key) {
    Expression e = member(a, key);
    if (e == null) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    if (e instanceof ArrayInitializerExpr arr) {
      for (Expression v : arr.getValues()) {
        out.add(((StringLiteralExpr) v).asString());
      }
    } else {
      out.add(((StringLiteralExpr) e).asString());
    }
    return out;
  }

  static String string(AnnotationExpr a, String key) {
    Expression e = member(a, key);
    return e == null ? null : ((StringLiteralExpr) e).asString();
  }

  static Integer integer(AnnotationExpr a, String key) {
    Expression e = member(a, key);
    return e == null ? null : ((IntegerLiteralExpr) e).asNumber().intValue();
  }

  static Expression member(AnnotationExpr a, String key) {
    if (a instanceof NormalAnnotationExpr n) {
      for (MemberValuePair p : n.getPairs()) {
        if (p.getNameAsString().equals(key)) {
          return p.getValue();
        }
      }
    }
    return null;
  }
}
