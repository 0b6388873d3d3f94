package org.onlinekernels.codegen;

import com.github.javaparser.StaticJavaParser;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.BooleanLiteralExpr;
import com.github.javaparser.ast.expr.CastExpr;
import com.github.javaparser.ast.expr.ConditionalExpr;
import com.github.javaparser.ast.expr.DoubleLiteralExpr;
import com.github.javaparser.ast.expr.EnclosedExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.IntegerLiteralExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.UnaryExpr;
import com.github.javaparser.ast.expr.VariableDeclarationExpr;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns a rule's lane functions into C, one function for one function, so that the C contender
 * computes what the Java forms compute, operation by operation. The double flavor is translated
 * from the lanes' {@link Twins} (the text every {@code Double} source of the build is made by).
 * Java's float and double arithmetic is C's on x86-64 (SSE, {@code FLT_EVAL_METHOD} 0) with {@code
 * -ffp-contract=off}; the mapping keeps each operation's IEEE result:
 *
 * <ul>
 *   <li>{@code + - * /}, comparisons, {@code && || !}, {@code c ? a : b}, casts, locals,
 *       assignments, {@code if}/{@code else} and {@code return} as they are (every binary operation
 *       parenthesised; Java's and C's numeric promotions agree);
 *   <li>{@code Math.sqrt} to {@code sqrt} (of the double Java widens to), {@code abs}, {@code
 *       copySign}, {@code fma} to their C functions of the argument's type, {@code min}/{@code max}
 *       to the runtime's Java-exact {@code jmin}/{@code jmax} (NaN and signed zeros as {@link
 *       Math#min}); {@code FloatLaneMath.expm1} to the runtime's polynomial;
 *   <li>the rule's constants and helper functions to C constants and functions of the rule.
 * </ul>
 *
 * Anything else is refused with the place: the rule is then reported as not ported, never given
 * other bits.
 */
final class CTranslator {
  /** A C expression and its Java type ({@code int}, {@code long}, {@code float}, ...). */
  record Expr(String code, String type) {}

  private static final Set<String> NUMERIC = Set.of("int", "long", "float", "double");

  private final LaneRule rule;
  private final Flavor flavor;
  private final String prefix;

  /** Constants of the lanes class and of the rule's class: Java name to C name and type. */
  private final Map<String, Expr> constants;

  /**
   * @param prefix the C names' prefix of this rule and flavor, e.g. {@code ScInOL2_float_}
   * @param constants the rule's constants in C, by Java name
   */
  CTranslator(LaneRule rule, Flavor flavor, String prefix, Map<String, Expr> constants) {
    this.rule = rule;
    this.flavor = flavor;
    this.prefix = prefix;
    this.constants = constants;
  }

  /** The method of lane function {@code f} in this flavor (the double flavor: its twin). */
  MethodDeclaration method(LaneRule.Function f) {
    return flavor == Flavor.FLOAT
        ? f.method()
        : StaticJavaParser.parseMethodDeclaration(Twins.toDouble(f.method().toString()));
  }

  /** The C definition of lane function {@code f}: a {@code static inline} function. */
  String function(LaneRule.Function f) {
    MethodDeclaration m = method(f);
    Map<String, Expr> env = new HashMap<>();
    StringBuilder params = new StringBuilder();
    for (Parameter p : m.getParameters()) {
      String type = p.getType().asString();
      env.put(p.getNameAsString(), new Expr(p.getNameAsString(), type));
      params.append(params.isEmpty() ? "" : ", ").append(cType(type)).append(' ');
      params.append(p.getNameAsString());
    }
    String body = block(f.name(), m.getBody().orElseThrow(), env, "");
    return "static inline "
        + cType(m.getType().asString())
        + " "
        + prefix
        + f.name()
        + "("
        + params
        + ") "
        + body;
  }

  /** A constant's initializer in C. */
  Expr constant(String fn, Expression init) {
    return expr(fn, init, Map.of());
  }

  /** The C type of a Java primitive type ({@code boolean} is an {@code int}). */
  static String cType(String javaType) {
    return switch (javaType) {
      case "float", "double", "int" -> javaType;
      case "long" -> "int64_t";
      case "boolean" -> "int";
      default -> throw new GeneratorException("no C type for " + javaType);
    };
  }

  private String block(String fn, BlockStmt b, Map<String, Expr> env, String indent) {
    StringBuilder sb = new StringBuilder("{\n");
    Map<String, Expr> scope = new HashMap<>(env);
    for (Statement s : b.getStatements()) {
      sb.append(indent).append("  ").append(statement(fn, s, scope, indent + "  ")).append('\n');
    }
    return sb.append(indent).append('}').toString();
  }

  private String statement(String fn, Statement s, Map<String, Expr> env, String indent) {
    if (s instanceof BlockStmt b) {
      return block(fn, b, env, indent);
    }
    if (s instanceof ReturnStmt r) {
      return "return " + expr(fn, r.getExpression().orElseThrow(), env).code() + ";";
    }
    if (s instanceof IfStmt i) {
      String c = "if (" + expr(fn, i.getCondition(), env).code() + ") ";
      String then = statement(fn, i.getThenStmt(), env, indent);
      return i.getElseStmt()
          .map(e -> c + then + " else " + statement(fn, e, env, indent))
          .orElse(c + then);
    }
    if (s instanceof ExpressionStmt es && es.getExpression() instanceof VariableDeclarationExpr v) {
      StringBuilder sb = new StringBuilder();
      for (VariableDeclarator d : v.getVariables()) {
        String type = d.getType().asString();
        Expression init =
            d.getInitializer().orElseThrow(() -> refuse(fn, d, "a local needs an initializer"));
        sb.append(sb.isEmpty() ? "" : " ").append(cType(type)).append(' ');
        sb.append(d.getNameAsString()).append(" = ").append(expr(fn, init, env).code());
        sb.append(';');
        env.put(d.getNameAsString(), new Expr(d.getNameAsString(), type));
      }
      return sb.toString();
    }
    if (s instanceof ExpressionStmt es
        && es.getExpression() instanceof AssignExpr a
        && a.getTarget() instanceof NameExpr t
        && env.containsKey(t.getNameAsString())) {
      return t.getNameAsString()
          + " "
          + a.getOperator().asString()
          + " "
          + expr(fn, a.getValue(), env).code()
          + ";";
    }
    throw refuse(fn, s, "statement not translated to C");
  }

  private Expr expr(String fn, Expression e, Map<String, Expr> env) {
    if (e instanceof EnclosedExpr en) {
      Expr inner = expr(fn, en.getInner(), env);
      return new Expr("(" + inner.code() + ")", inner.type());
    }
    if (e instanceof CastExpr c) {
      String type = c.getType().asString();
      return new Expr(
          "((" + cType(type) + ") " + expr(fn, c.getExpression(), env).code() + ")", type);
    }
    if (e instanceof NameExpr n) {
      Expr v = env.get(n.getNameAsString());
      v = v != null ? v : constants.get(n.getNameAsString());
      if (v == null) {
        throw refuse(fn, e, "name not bound to a parameter, local or constant");
      }
      return v;
    }
    if (e instanceof FieldAccessExpr fa) {
      return boxConstant(fn, fa);
    }
    if (e instanceof IntegerLiteralExpr i) {
      return new Expr(i.getValue(), "int");
    }
    if (e instanceof DoubleLiteralExpr d) {
      return literal(d.getValue());
    }
    if (e instanceof BooleanLiteralExpr b) {
      return new Expr(b.getValue() ? "1" : "0", "boolean");
    }
    if (e instanceof UnaryExpr u) {
      return unary(fn, u, env);
    }
    if (e instanceof BinaryExpr b) {
      return binary(fn, b, env);
    }
    if (e instanceof ConditionalExpr c) {
      Expr a = expr(fn, c.getThenExpr(), env);
      Expr b = expr(fn, c.getElseExpr(), env);
      return new Expr(
          "(" + expr(fn, c.getCondition(), env).code() + " ? " + a.code() + " : " + b.code() + ")",
          a.type().equals("boolean") ? "boolean" : promote(a.type(), b.type()));
    }
    if (e instanceof MethodCallExpr m) {
      return call(fn, m, env);
    }
    throw refuse(fn, e, "expression not translated to C");
  }

  /**
   * A Java floating literal in C: a float keeps its suffix, a double drops it; both get a point.
   */
  static Expr literal(String java) {
    char last = Character.toLowerCase(java.charAt(java.length() - 1));
    boolean isFloat = last == 'f';
    String digits = last == 'f' || last == 'd' ? java.substring(0, java.length() - 1) : java;
    boolean hex = digits.startsWith("0x") || digits.startsWith("0X");
    if (!hex && !digits.contains(".") && !digits.contains("e") && !digits.contains("E")) {
      digits = digits + ".0";
    }
    return new Expr(isFloat ? digits + "f" : digits, isFloat ? "float" : "double");
  }

  private Expr boxConstant(String fn, FieldAccessExpr fa) {
    Optional<Expression> imported = ImportedConstants.literal(rule.unit, fa);
    if (imported.isPresent()) {
      return expr(fn, imported.get(), Map.of());
    }
    String type =
        switch (fa.getScope().toString()) {
          case "Float" -> "float";
          case "Double" -> "double";
          default -> throw refuse(fn, fa, "field access not translated to C");
        };
    String c =
        switch (fa.getNameAsString()) {
          case "MAX_VALUE" -> type.equals("float") ? "FLT_MAX" : "DBL_MAX";
          case "MIN_NORMAL" -> type.equals("float") ? "FLT_MIN" : "DBL_MIN";
          case "POSITIVE_INFINITY" -> "((" + type + ") INFINITY)";
          case "NEGATIVE_INFINITY" -> "(-(" + type + ") INFINITY)";
          case "NaN" -> "((" + type + ") NAN)";
          default -> throw refuse(fn, fa, "constant not translated to C");
        };
    return new Expr(c, type);
  }

  private Expr unary(String fn, UnaryExpr u, Map<String, Expr> env) {
    Expr a = expr(fn, u.getExpression(), env);
    return switch (u.getOperator()) {
      case MINUS -> new Expr("(-" + a.code() + ")", promote(a.type(), "int"));
      case PLUS -> a;
      case LOGICAL_COMPLEMENT -> new Expr("(!" + a.code() + ")", "boolean");
      default -> throw refuse(fn, u, "operator " + u.getOperator() + " not translated to C");
    };
  }

  private Expr binary(String fn, BinaryExpr b, Map<String, Expr> env) {
    Expr l = expr(fn, b.getLeft(), env);
    Expr r = expr(fn, b.getRight(), env);
    String code = "(" + l.code() + " " + b.getOperator().asString() + " " + r.code() + ")";
    return switch (b.getOperator()) {
      case PLUS, MINUS, MULTIPLY, DIVIDE -> new Expr(code, promote(l.type(), r.type()));
      case LESS, GREATER, LESS_EQUALS, GREATER_EQUALS, EQUALS, NOT_EQUALS, AND, OR ->
          new Expr(code, "boolean");
      default -> throw refuse(fn, b, "operator " + b.getOperator() + " not translated to C");
    };
  }

  /** Java's binary numeric promotion (C's usual arithmetic conversions give the same type). */
  static String promote(String a, String b) {
    if (!NUMERIC.contains(a) || !NUMERIC.contains(b)) {
      throw new GeneratorException("arithmetic on " + a + " and " + b);
    }
    for (String t : List.of("double", "float", "long")) {
      if (a.equals(t) || b.equals(t)) {
        return t;
      }
    }
    return "int";
  }

  private Expr call(String fn, MethodCallExpr m, Map<String, Expr> env) {
    String scope = m.getScope().map(Expression::toString).orElse("");
    List<Expr> args = m.getArguments().stream().map(a -> expr(fn, a, env)).toList();
    String name = m.getNameAsString();
    if (scope.equals("Math") || scope.equals("StrictMath") && name.equals("sqrt")) {
      return math(fn, m, name, args);
    }
    if (scope.endsWith("LaneMath") && name.equals("expm1")) {
      String t = flavor.t;
      return new Expr("lane_expm1_" + t + "(" + args.get(0).code() + ")", t);
    }
    if (scope.isEmpty() && rule.functions.containsKey(name)) {
      String type = method(rule.functions.get(name)).getType().asString();
      return new Expr(prefix + name + "(" + join(args) + ")", type);
    }
    throw refuse(fn, m, "call not translated to C (Math.*, LaneMath.expm1, the rule's own are)");
  }

  /** {@code Math.<name>(args)} in C, the arguments translated already. */
  Expr math(String fn, MethodCallExpr m, String name, List<Expr> args) {
    String t =
        args.size() == 1 ? args.get(0).type() : promote(args.get(0).type(), args.get(1).type());
    if (name.equals("fma")) {
      t = promote(t, args.get(2).type());
    }
    boolean f = t.equals("float");
    String c =
        switch (name) {
          case "sqrt" -> "sqrt";
          case "abs" -> t.equals("int") ? "abs" : f ? "fabsf" : "fabs";
          case "copySign" -> f ? "copysignf" : "copysign";
          case "fma" -> f ? "fmaf" : "fma";
          case "min", "max" -> {
            if (!t.equals("float") && !t.equals("double")) {
              throw refuse(fn, m, "Math." + name + " of " + t + " not translated to C");
            }
            yield "j" + name + "_" + t;
          }
          default -> throw refuse(fn, m, "Math." + name + " not translated to C");
        };
    return new Expr(c + "(" + join(args) + ")", name.equals("sqrt") ? "double" : t);
  }

  private static String join(List<Expr> args) {
    return String.join(", ", args.stream().map(Expr::code).toList());
  }

  private GeneratorException refuse(String fn, Node at, String why) {
    String line = at.getRange().map(r -> ":" + r.begin.line).orElse("");
    return new GeneratorException(rule.where() + "." + fn + line + ": " + why + ": " + at);
  }
}
