package org.onlinekernels.codegen;

import com.github.javaparser.ast.body.MethodDeclaration;
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
 * Turns a lane function's scalar Java into Vector API statements, written out in the loop that
 * calls it (a vector helper method that C2 compiles on its own is not inlined afterwards and boxes
 * every vector passed to it). Each operation maps to the lane-wise operation with the same IEEE
 * result, so the vector forms give the scalar forms' bits:
 *
 * <ul>
 *   <li>{@code + - * /}, unary minus, {@code Math.sqrt} (under its cast), {@code abs}, {@code min},
 *       {@code max}, {@code fma} to their lane-wise operations ({@code min}/{@code max} are Java's:
 *       NaN and signed zeros as {@link Math#min});
 *   <li>{@code Math.copySign(m, s)} to the bit operation it is;
 *   <li>comparisons to masks, {@code &&}, {@code ||}, {@code !} to mask logic, {@code c ? a : b}
 *       and an early {@code if (c) return a;} to blends (both sides are computed; neither traps);
 *   <li>calls of the rule's helper functions inlined; {@code FloatLaneMath.expm1} to its polynomial
 *       written out;
 *   <li>values that are one number for the whole call (uniforms, constants, literals) stay scalars
 *       and are broadcast only where an operation needs a vector.
 * </ul>
 *
 * Anything else is refused with the place, so a rule that the translation cannot follow fails the
 * build instead of giving other bits.
 */
final class VectorTranslator {
  /** What a value is at run time. */
  enum Kind {
    /** A vector of lanes. */
    LANE,
    /** A mask over lanes. */
    MASK,
    /** One number for every lane. */
    NUMBER,
    /** One boolean for every lane. */
    BOOLEAN
  }

  /** Translated code and its kind. */
  record Value(String code, Kind kind) {}

  private final LaneRule rule;
  private final Flavor flavor;
  private final LaneOps ops;

  /**
   * @param species the Java name of the arithmetic type's species in the generated class
   */
  VectorTranslator(LaneRule rule, Flavor flavor, JavaWriter out, String species) {
    this.rule = rule;
    this.flavor = flavor;
    this.ops = new LaneOps(rule, flavor, out, species);
  }

  /**
   * Writes {@code f}'s body applied to {@code args} (by parameter position); returns its result.
   */
  Value call(LaneRule.Function f, List<Value> args, String resultName) {
    MethodDeclaration m = f.method();
    Map<String, Value> env = new HashMap<>();
    for (int k = 0; k < args.size(); k++) {
      env.put(m.getParameter(k).getNameAsString(), args.get(k));
    }
    Value r = body(f.name(), m.getBody().orElseThrow(), env);
    if (resultName != null) {
      r = declare(resultName, r);
    }
    return r;
  }

  /**
   * Declares {@code name} holding {@code v} (a local of the loop), returning the name as a value.
   */
  Value declare(String name, Value v) {
    return ops.declare(name, v);
  }

  private record Guard(Value cond, Value result) {}

  private Value body(String fn, BlockStmt block, Map<String, Value> env) {
    List<Guard> guards = new ArrayList<>();
    for (Statement s : block.getStatements()) {
      if (s instanceof ExpressionStmt es
          && es.getExpression() instanceof VariableDeclarationExpr vd) {
        for (VariableDeclarator d : vd.getVariables()) {
          Expression init =
              d.getInitializer().orElseThrow(() -> refuse(fn, d, "a local needs an initializer"));
          env.put(d.getNameAsString(), local(fn, d.getNameAsString(), expr(fn, init, env)));
        }
      } else if (s instanceof ExpressionStmt es
          && es.getExpression() instanceof AssignExpr a
          && a.getTarget() instanceof NameExpr target
          && a.getOperator() == AssignExpr.Operator.ASSIGN) {
        env.put(
            target.getNameAsString(),
            local(fn, target.getNameAsString(), expr(fn, a.getValue(), env)));
      } else if (s instanceof IfStmt is
          && is.getElseStmt().isEmpty()
          && returned(is.getThenStmt()) != null) {
        Value cond = expr(fn, is.getCondition(), env);
        Value then = expr(fn, returned(is.getThenStmt()), env);
        guards.add(new Guard(cond, then));
      } else if (s instanceof ReturnStmt rs && rs.getExpression().isPresent()) {
        Value r = expr(fn, rs.getExpression().get(), env);
        for (int k = guards.size() - 1; k >= 0; k--) {
          r = ops.select(guards.get(k).cond(), guards.get(k).result(), r);
        }
        return r;
      } else {
        throw refuse(
            fn,
            s,
            "only locals, assignments, 'if (c) return e;' and a final return are translated");
      }
    }
    throw refuse(fn, block, "a lane function ends with a return");
  }

  private static Expression returned(Statement s) {
    if (s instanceof ReturnStmt r) {
      return r.getExpression().orElse(null);
    }
    if (s instanceof BlockStmt b
        && b.getStatements().size() == 1
        && b.getStatement(0) instanceof ReturnStmt r) {
      return r.getExpression().orElse(null);
    }
    return null;
  }

  private Value local(String fn, String name, Value v) {
    if (v.kind() == Kind.NUMBER || v.kind() == Kind.BOOLEAN) {
      // A uniform stays an expression: it may be constant-folded and costs nothing per lane.
      return v.code().matches("[\\w.]+") ? v : declare(fn + "_" + name + "_" + ops.next(), v);
    }
    return declare(fn + "_" + name + "_" + ops.next(), v);
  }

  private Value expr(String fn, Expression e, Map<String, Value> env) {
    if (e instanceof EnclosedExpr en) {
      return expr(fn, en.getInner(), env);
    }
    if (e instanceof CastExpr c) {
      return expr(fn, c.getExpression(), env);
    }
    if (e instanceof NameExpr n) {
      Value v = env.get(n.getNameAsString());
      if (v != null) {
        return v;
      }
      return new Value(flavor.lanesClass(rule) + "." + n.getNameAsString(), Kind.NUMBER);
    }
    if (e instanceof FieldAccessExpr fa) {
      String s = fa.toString();
      return new Value(flavor == Flavor.FLOAT ? s : Twins.toDouble(s), Kind.NUMBER);
    }
    if (e instanceof IntegerLiteralExpr i) {
      return new Value(ops.number(i.getValue()), Kind.NUMBER);
    }
    if (e instanceof DoubleLiteralExpr d) {
      String s = d.getValue().replaceAll("[fFdD]$", "");
      return new Value(ops.number(s), Kind.NUMBER);
    }
    if (e instanceof BooleanLiteralExpr b) {
      return new Value(Boolean.toString(b.getValue()), Kind.BOOLEAN);
    }
    if (e instanceof UnaryExpr u) {
      Value a = expr(fn, u.getExpression(), env);
      return switch (u.getOperator()) {
        case MINUS ->
            a.kind() == Kind.LANE
                ? new Value(a.code() + ".neg()", Kind.LANE)
                : new Value("(-" + a.code() + ")", Kind.NUMBER);
        case PLUS -> a;
        case LOGICAL_COMPLEMENT ->
            a.kind() == Kind.MASK
                ? new Value(a.code() + ".not()", Kind.MASK)
                : new Value("(!" + a.code() + ")", Kind.BOOLEAN);
        default -> throw refuse(fn, u, "operator " + u.getOperator());
      };
    }
    if (e instanceof BinaryExpr b) {
      return binary(fn, b, env);
    }
    if (e instanceof ConditionalExpr c) {
      return ops.select(
          expr(fn, c.getCondition(), env),
          expr(fn, c.getThenExpr(), env),
          expr(fn, c.getElseExpr(), env));
    }
    if (e instanceof MethodCallExpr m) {
      return call(fn, m, env);
    }
    throw refuse(fn, e, "expression not translated");
  }

  private Value binary(String fn, BinaryExpr b, Map<String, Value> env) {
    Value l = expr(fn, b.getLeft(), env);
    Value r = expr(fn, b.getRight(), env);
    switch (b.getOperator()) {
      case PLUS, MINUS, MULTIPLY, DIVIDE -> {
        String op =
            switch (b.getOperator()) {
              case PLUS -> "add";
              case MINUS -> "sub";
              case MULTIPLY -> "mul";
              default -> "div";
            };
        String sym = b.getOperator().asString();
        if (l.kind() == Kind.NUMBER && r.kind() == Kind.NUMBER) {
          return new Value("(" + l.code() + " " + sym + " " + r.code() + ")", Kind.NUMBER);
        }
        if (l.kind() == Kind.LANE) {
          return new Value(l.code() + "." + op + "(" + r.code() + ")", Kind.LANE);
        }
        if (r.kind() == Kind.LANE && (op.equals("add") || op.equals("mul"))) {
          // IEEE addition and multiplication are commutative: the same bits either way round.
          return new Value(r.code() + "." + op + "(" + l.code() + ")", Kind.LANE);
        }
        return new Value(ops.lane(l).code() + "." + op + "(" + r.code() + ")", Kind.LANE);
      }
      case LESS, GREATER, LESS_EQUALS, GREATER_EQUALS, EQUALS, NOT_EQUALS -> {
        if (l.kind() == Kind.NUMBER && r.kind() == Kind.NUMBER) {
          return new Value(
              "(" + l.code() + " " + b.getOperator().asString() + " " + r.code() + ")",
              Kind.BOOLEAN);
        }
        if (l.kind() == Kind.LANE) {
          return new Value(
              l.code()
                  + ".compare(VectorOperators."
                  + comparison(b.getOperator(), false)
                  + ", "
                  + r.code()
                  + ")",
              Kind.MASK);
        }
        if (r.kind() == Kind.LANE) {
          return new Value(
              r.code()
                  + ".compare(VectorOperators."
                  + comparison(b.getOperator(), true)
                  + ", "
                  + l.code()
                  + ")",
              Kind.MASK);
        }
        throw refuse(fn, b, "comparison of " + l.kind() + " and " + r.kind());
      }
      case AND, OR -> {
        String op = b.getOperator() == BinaryExpr.Operator.AND ? "and" : "or";
        if (l.kind() == Kind.BOOLEAN && r.kind() == Kind.BOOLEAN) {
          return new Value(
              "(" + l.code() + " " + b.getOperator().asString() + " " + r.code() + ")",
              Kind.BOOLEAN);
        }
        return new Value(ops.mask(l).code() + "." + op + "(" + ops.mask(r).code() + ")", Kind.MASK);
      }
      default -> throw refuse(fn, b, "operator " + b.getOperator());
    }
  }

  private static String comparison(BinaryExpr.Operator op, boolean flipped) {
    return switch (op) {
      case LESS -> flipped ? "GT" : "LT";
      case GREATER -> flipped ? "LT" : "GT";
      case LESS_EQUALS -> flipped ? "GE" : "LE";
      case GREATER_EQUALS -> flipped ? "LE" : "GE";
      case EQUALS -> "EQ";
      case NOT_EQUALS -> "NE";
      default -> throw new IllegalArgumentException(op.toString());
    };
  }

  private Value call(String fn, MethodCallExpr m, Map<String, Value> env) {
    String scope = m.getScope().map(Expression::toString).orElse("");
    List<Value> args = new ArrayList<>();
    for (Expression a : m.getArguments()) {
      args.add(expr(fn, a, env));
    }
    String name = m.getNameAsString();
    if (scope.equals("Math") || scope.equals("StrictMath") && name.equals("sqrt")) {
      boolean allNumbers = args.stream().allMatch(a -> a.kind() == Kind.NUMBER);
      if (allNumbers) {
        String call =
            "Math." + name + "(" + String.join(", ", args.stream().map(Value::code).toList()) + ")";
        return new Value(
            name.equals("sqrt") && flavor.t.equals("float") ? "(float) " + call : call,
            Kind.NUMBER);
      }
      return switch (name) {
        case "sqrt" ->
            new Value(ops.lane(args.get(0)).code() + ".lanewise(VectorOperators.SQRT)", Kind.LANE);
        case "abs" -> new Value(ops.lane(args.get(0)).code() + ".abs()", Kind.LANE);
        case "min", "max" ->
            args.get(0).kind() == Kind.LANE
                ? new Value(
                    args.get(0).code() + "." + name + "(" + args.get(1).code() + ")", Kind.LANE)
                : new Value(
                    ops.lane(args.get(1)).code() + "." + name + "(" + args.get(0).code() + ")",
                    Kind.LANE);
        case "fma" ->
            new Value(
                ops.lane(args.get(0)).code()
                    + ".fma("
                    + args.get(1).code()
                    + ", "
                    + args.get(2).code()
                    + ")",
                Kind.LANE);
        case "copySign" -> ops.copySign(args.get(0), args.get(1));
        default -> throw refuse(fn, m, "Math." + name + " has no lane-wise translation");
      };
    }
    if (scope.endsWith("LaneMath") && name.equals("expm1")) {
      return ops.expm1(fn, ops.lane(args.get(0)));
    }
    if (scope.isEmpty() && rule.functions.containsKey(name)) {
      LaneRule.Function helper = rule.functions.get(name);
      if (args.stream().allMatch(a -> a.kind() == Kind.NUMBER || a.kind() == Kind.BOOLEAN)) {
        // Uniform arguments: the scalar function itself, once per call.
        return new Value(
            flavor.lanesClass(rule)
                + "."
                + name
                + "("
                + String.join(", ", args.stream().map(Value::code).toList())
                + ")",
            helper.type().equals("boolean") ? Kind.BOOLEAN : Kind.NUMBER);
      }
      return call(helper, args, null);
    }
    throw refuse(
        fn,
        m,
        "call not translated (Math.*, FloatLaneMath.expm1 and the rule's own functions are)");
  }

  private GeneratorException refuse(String fn, com.github.javaparser.ast.Node at, String why) {
    String line = at.getRange().map(r -> ":" + r.begin.line).orElse("");
    return new GeneratorException(rule.where() + "." + fn + line + ": " + why + ": " + at);
  }
}
