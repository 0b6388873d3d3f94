package org.onlinekernels.codegen;

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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a rule's lane function into a C function over four lanes (GCC's vector extensions: {@code
 * v4_float}, {@code v4_double}, with the masks {@code m4_float}, {@code m4_double} of the runtime),
 * lane {@code l} doing entry {@code j + l}'s scalar operations, so that four entries of a row run
 * at once and give the scalar function's bits: the library's four partial sums are the lanes. Each
 * operation keeps its IEEE result lane by lane: {@code + - * /} and comparisons as they are; {@code
 * Math.sqrt} (under its cast to the lane type), {@code abs}, {@code copySign}, {@code min}/{@code
 * max} (Java's, NaN and signed zeros), {@code fma} and {@code LaneMath.expm1} to the runtime's
 * lane-wise functions; {@code c ? a : b} and an early {@code if (c) return a;} to blends (both
 * sides computed; neither traps). Every parameter is a vector (a {@code boolean} a mask): the
 * caller broadcasts uniforms. Literals and constants stay scalars until an operation needs a
 * vector.
 *
 * <p>What it does not follow (a double value within float lanes, a statement other than a local, an
 * assignment, {@code if (c) return e;} and the final return) it refuses: the rule then runs its
 * scalar C functions alone ({@link CTranslator}), with the same bits, only slower.
 */
final class CVectorTranslator {
  /** What a value is: a vector, a mask, or one number or truth for every lane. */
  enum Kind {
    LANE,
    MASK,
    NUMBER,
    BOOLEAN
  }

  /** Translated code, its kind, and (a number's) Java type. */
  record Value(String code, Kind kind, String type) {}

  private final LaneRule rule;
  private final Flavor flavor;
  private final String prefix;
  private final Map<String, CTranslator.Expr> constants;
  private final CTranslator scalar;
  private final String t;
  private int locals;

  CVectorTranslator(
      LaneRule rule, Flavor flavor, String prefix, Map<String, CTranslator.Expr> constants) {
    this.rule = rule;
    this.flavor = flavor;
    this.prefix = prefix;
    this.constants = constants;
    this.scalar = new CTranslator(rule, flavor, prefix, constants);
    this.t = flavor.t;
  }

  /** The vector type of a lane function's Java type. */
  String vectorType(String javaType) {
    return (javaType.equals("boolean") ? "m4_" : "v4_") + t;
  }

  /** The C definition of {@code f} over four lanes, named {@code <prefix>v_<f>}. */
  String function(LaneRule.Function f) {
    MethodDeclaration m = scalar.method(f);
    Map<String, Value> env = new HashMap<>();
    List<String> params = new ArrayList<>();
    for (Parameter p : m.getParameters()) {
      String type = p.getType().asString();
      String n = p.getNameAsString();
      Kind k = scalarTruth(n, type) ? Kind.BOOLEAN : type.equals("boolean") ? Kind.MASK : Kind.LANE;
      env.put(n, new Value(n, k, type));
      params.add((k == Kind.BOOLEAN ? "int" : vectorType(type)) + " " + n);
    }
    List<String> body = new ArrayList<>();
    Value r = body(f.name(), m.getBody().orElseThrow(), env, body);
    String type = m.getType().asString();
    body.add("return " + (type.equals("boolean") ? mask(r) : lane(r)) + ";");
    return "static inline "
        + vectorType(type)
        + " "
        + prefix
        + "v_"
        + f.name()
        + "("
        + String.join(", ", params)
        + ") {\n  "
        + String.join("\n  ", body)
        + "\n}";
  }

  /**
   * Whether parameter {@code name} of {@code type} is one truth for every lane: a {@code boolean}
   * uniform of the rule (a {@code @Uniform} function's value), passed as a scalar, so that a select
   * on it runs one side only.
   */
  boolean scalarTruth(String name, String type) {
    LaneRule.Function f = rule.functions.get(name);
    return type.equals("boolean")
        && (rule.uniforms().containsKey(name) || f != null && f.phase() == LaneRule.Phase.UNIFORM);
  }

  private record Guard(Value cond, Value result) {}

  private Value body(String fn, BlockStmt block, Map<String, Value> env, List<String> out) {
    List<Guard> guards = new ArrayList<>();
    for (Statement s : block.getStatements()) {
      if (s instanceof ExpressionStmt es
          && es.getExpression() instanceof VariableDeclarationExpr vd) {
        for (VariableDeclarator d : vd.getVariables()) {
          Expression init =
              d.getInitializer().orElseThrow(() -> refuse(fn, d, "a local needs an initializer"));
          env.put(d.getNameAsString(), local(d.getNameAsString(), expr(fn, init, env), out));
        }
      } else if (s instanceof ExpressionStmt es
          && es.getExpression() instanceof AssignExpr a
          && a.getTarget() instanceof NameExpr target
          && a.getOperator() == AssignExpr.Operator.ASSIGN) {
        String n = target.getNameAsString();
        env.put(n, local(n, expr(fn, a.getValue(), env), out));
      } else if (s instanceof IfStmt is && is.getElseStmt().isEmpty() && returned(is) != null) {
        guards.add(new Guard(expr(fn, is.getCondition(), env), expr(fn, returned(is), env)));
      } else if (s instanceof ReturnStmt rs && rs.getExpression().isPresent()) {
        Value r = expr(fn, rs.getExpression().get(), env);
        for (int k = guards.size() - 1; k >= 0; k--) {
          r = select(fn, s, guards.get(k).cond(), guards.get(k).result(), r);
        }
        return r;
      } else {
        throw refuse(fn, s, "only locals, assignments, 'if (c) return e;' and a return");
      }
    }
    throw refuse(fn, block, "a lane function ends with a return");
  }

  private static Expression returned(IfStmt is) {
    Statement s = is.getThenStmt();
    if (s instanceof BlockStmt b && b.getStatements().size() == 1) {
      s = b.getStatement(0);
    }
    return s instanceof ReturnStmt r ? r.getExpression().orElse(null) : null;
  }

  private Value local(String name, Value v, List<String> out) {
    String local = name + "_" + locals++;
    String type =
        switch (v.kind()) {
          case LANE -> "v4_" + t;
          case MASK -> "m4_" + t;
          case NUMBER -> CTranslator.cType(v.type());
          case BOOLEAN -> "int";
        };
    out.add(type + " " + local + " = " + v.code() + ";");
    return new Value(local, v.kind(), v.type());
  }

  private Value expr(String fn, Expression e, Map<String, Value> env) {
    if (e instanceof EnclosedExpr en) {
      return expr(fn, en.getInner(), env);
    }
    if (e instanceof CastExpr c) {
      Value v = expr(fn, c.getExpression(), env);
      String type = c.getType().asString();
      if (v.kind() == Kind.NUMBER) {
        return new Value("((" + CTranslator.cType(type) + ") " + v.code() + ")", v.kind(), type);
      }
      if (!type.equals(t)) {
        throw refuse(fn, c, "a cast to " + type + " within " + t + " lanes");
      }
      return v;
    }
    if (e instanceof NameExpr n) {
      Value v = env.get(n.getNameAsString());
      if (v != null) {
        return v;
      }
      CTranslator.Expr c = constants.get(n.getNameAsString());
      if (c == null) {
        throw refuse(fn, e, "name not bound to a parameter, local or constant");
      }
      return new Value(c.code(), Kind.NUMBER, c.type());
    }
    if (e instanceof IntegerLiteralExpr
        || e instanceof DoubleLiteralExpr
        || e instanceof FieldAccessExpr
        || e instanceof BooleanLiteralExpr) {
      CTranslator.Expr c = scalar.constant(fn, e);
      return new Value(c.code(), c.type().equals("boolean") ? Kind.BOOLEAN : Kind.NUMBER, c.type());
    }
    if (e instanceof UnaryExpr u) {
      return unary(fn, u, env);
    }
    if (e instanceof BinaryExpr b) {
      return binary(fn, b, env);
    }
    if (e instanceof ConditionalExpr c) {
      return select(
          fn,
          c,
          expr(fn, c.getCondition(), env),
          expr(fn, c.getThenExpr(), env),
          expr(fn, c.getElseExpr(), env));
    }
    if (e instanceof MethodCallExpr m) {
      return call(fn, m, env);
    }
    throw refuse(fn, e, "expression not translated to C lanes");
  }

  private Value unary(String fn, UnaryExpr u, Map<String, Value> env) {
    Value a = expr(fn, u.getExpression(), env);
    return switch (u.getOperator()) {
      case MINUS -> new Value("(-" + a.code() + ")", a.kind(), a.type());
      case PLUS -> a;
      case LOGICAL_COMPLEMENT ->
          a.kind() == Kind.MASK
              ? new Value("(~" + a.code() + ")", Kind.MASK, "boolean")
              : new Value("(!" + a.code() + ")", Kind.BOOLEAN, "boolean");
      default -> throw refuse(fn, u, "operator " + u.getOperator());
    };
  }

  private Value binary(String fn, BinaryExpr b, Map<String, Value> env) {
    Value l = expr(fn, b.getLeft(), env);
    Value r = expr(fn, b.getRight(), env);
    String op = b.getOperator().asString();
    boolean scalars =
        (l.kind() == Kind.NUMBER || l.kind() == Kind.BOOLEAN)
            && (r.kind() == Kind.NUMBER || r.kind() == Kind.BOOLEAN);
    switch (b.getOperator()) {
      case PLUS, MINUS, MULTIPLY, DIVIDE -> {
        if (scalars) {
          String type = CTranslator.promote(l.type(), r.type());
          return new Value("(" + l.code() + " " + op + " " + r.code() + ")", Kind.NUMBER, type);
        }
        return new Value(
            "(" + lane(fn, b, l) + " " + op + " " + lane(fn, b, r) + ")", Kind.LANE, t);
      }
      case LESS, GREATER, LESS_EQUALS, GREATER_EQUALS, EQUALS, NOT_EQUALS -> {
        if (scalars) {
          return new Value(
              "(" + l.code() + " " + op + " " + r.code() + ")", Kind.BOOLEAN, "boolean");
        }
        return new Value(
            "(" + lane(fn, b, l) + " " + op + " " + lane(fn, b, r) + ")", Kind.MASK, "boolean");
      }
      case AND, OR -> {
        if (scalars) {
          return new Value(
              "(" + l.code() + " " + op + " " + r.code() + ")", Kind.BOOLEAN, "boolean");
        }
        String bit = b.getOperator() == BinaryExpr.Operator.AND ? "&" : "|";
        return new Value("(" + mask(l) + " " + bit + " " + mask(r) + ")", Kind.MASK, "boolean");
      }
      default -> throw refuse(fn, b, "operator " + b.getOperator());
    }
  }

  /** {@code c ? a : b}: a scalar where all three are, else a blend of lanes or of masks. */
  private Value select(String fn, Node at, Value c, Value a, Value b) {
    boolean scalar = c.kind() == Kind.BOOLEAN;
    if (scalar
        && (a.kind() == Kind.NUMBER || a.kind() == Kind.BOOLEAN)
        && (b.kind() == Kind.NUMBER || b.kind() == Kind.BOOLEAN)) {
      String type =
          a.type().equals("boolean") ? "boolean" : CTranslator.promote(a.type(), b.type());
      return new Value("(" + c.code() + " ? " + a.code() + " : " + b.code() + ")", a.kind(), type);
    }
    if (a.type().equals("boolean")) {
      return new Value(
          "vselm_" + t + "(" + mask(c) + ", " + mask(a) + ", " + mask(b) + ")",
          Kind.MASK,
          "boolean");
    }
    if (scalar) {
      // One truth for every lane: C evaluates the side it takes only.
      return new Value(
          "(" + c.code() + " ? " + lane(fn, at, a) + " : " + lane(fn, at, b) + ")", Kind.LANE, t);
    }
    return new Value(
        "vsel_" + t + "(" + mask(c) + ", " + lane(fn, at, a) + ", " + lane(fn, at, b) + ")",
        Kind.LANE,
        t);
  }

  private Value call(String fn, MethodCallExpr m, Map<String, Value> env) {
    String scope = m.getScope().map(Expression::toString).orElse("");
    List<Value> args = new ArrayList<>();
    for (Expression a : m.getArguments()) {
      args.add(expr(fn, a, env));
    }
    String name = m.getNameAsString();
    boolean numbers = args.stream().allMatch(a -> a.kind() == Kind.NUMBER);
    if (numbers && (scope.equals("Math") || scope.equals("StrictMath"))) {
      List<CTranslator.Expr> es =
          args.stream().map(a -> new CTranslator.Expr(a.code(), a.type())).toList();
      CTranslator.Expr c = scalar.math(fn, m, name, es);
      return new Value(c.code(), Kind.NUMBER, c.type());
    }
    if (scope.equals("Math") || scope.equals("StrictMath") && name.equals("sqrt")) {
      String f =
          switch (name) {
            case "sqrt", "abs", "fma" -> "v" + name;
            case "copySign" -> "vcopysign";
            case "min", "max" -> "vj" + name;
            default -> throw refuse(fn, m, "Math." + name + " has no lane-wise translation");
          };
      List<String> codes = new ArrayList<>();
      for (Value a : args) {
        codes.add(lane(fn, m, a));
      }
      return new Value(f + "_" + t + "(" + String.join(", ", codes) + ")", Kind.LANE, t);
    }
    if (scope.endsWith("LaneMath") && name.equals("expm1")) {
      return new Value("vexpm1_" + t + "(" + lane(fn, m, args.get(0)) + ")", Kind.LANE, t);
    }
    if (scope.isEmpty() && rule.functions.containsKey(name)) {
      MethodDeclaration h = scalar.method(rule.functions.get(name));
      String type = h.getType().asString();
      if (args.stream().allMatch(a -> a.kind() == Kind.NUMBER || a.kind() == Kind.BOOLEAN)) {
        List<String> codes = args.stream().map(Value::code).toList();
        return new Value(
            prefix + name + "(" + String.join(", ", codes) + ")",
            type.equals("boolean") ? Kind.BOOLEAN : Kind.NUMBER,
            type);
      }
      List<String> codes = new ArrayList<>();
      for (int k = 0; k < args.size(); k++) {
        String pn = h.getParameter(k).getNameAsString();
        String pt = h.getParameter(k).getType().asString();
        codes.add(
            scalarTruth(pn, pt)
                ? truth(fn, m, args.get(k))
                : pt.equals("boolean") ? mask(args.get(k)) : lane(fn, m, args.get(k)));
      }
      return new Value(
          prefix + "v_" + name + "(" + String.join(", ", codes) + ")",
          type.equals("boolean") ? Kind.MASK : Kind.LANE,
          type);
    }
    throw refuse(fn, m, "call not translated to C lanes");
  }

  /** {@code v} as a vector of the lane type; a number of a wider type is refused. */
  private String lane(String fn, Node at, Value v) {
    if (v.kind() == Kind.NUMBER && v.type().equals("double") && !t.equals("double")) {
      throw refuse(fn, at, "a double value within " + t + " lanes");
    }
    return lane(v);
  }

  private String lane(Value v) {
    return switch (v.kind()) {
      case LANE -> v.code();
      case NUMBER -> "vset_" + t + "(" + v.code() + ")";
      default -> throw new GeneratorException("a truth value used as a number: " + v.code());
    };
  }

  /** {@code v} as one truth for every lane; a truth that varies by lane is refused. */
  private String truth(String fn, Node at, Value v) {
    if (v.kind() != Kind.BOOLEAN) {
      throw refuse(fn, at, "a truth that varies by lane where one for every lane is expected");
    }
    return v.code();
  }

  private String mask(Value v) {
    return switch (v.kind()) {
      case MASK -> v.code();
      case BOOLEAN -> "vmask_" + t + "(" + v.code() + ")";
      default -> throw new GeneratorException("a number used as a truth value: " + v.code());
    };
  }

  private GeneratorException refuse(String fn, Node at, String why) {
    String line = at.getRange().map(r -> ":" + r.begin.line).orElse("");
    return new GeneratorException(rule.where() + "." + fn + line + ": " + why + ": " + at);
  }
}
