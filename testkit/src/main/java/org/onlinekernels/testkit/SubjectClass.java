package org.onlinekernels.testkit;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.RuleInfo;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateLayout;

/**
 * A rule's {@link Subject} class, found by the naming rule of {@link Subjects}: {@code
 * <Rule>Subject} in this package, where {@code <Rule>Optimizer} is the class of the optimizer the
 * rule's factory makes. Holds the subject's two constructors: the one that draws the parameters
 * from a case seed ({@code (long seed)}, then {@code int d} and {@code ElementType t} where the
 * draw needs them, in that order), and, where the subject has it, the one that takes them ({@code
 * (P params)}, then {@code int d} and {@code ElementType t} where the bounds need them). Of several
 * that fit, the one with the most parameters; a deprecated constructor is never taken.
 *
 * @param rule the rule
 * @param name the subject's class name, for messages
 * @param drawn the constructor from a case seed
 * @param given the constructor from parameters, or null
 */
record SubjectClass(RuleInfo rule, String name, Constructor<?> drawn, Constructor<?> given) {
  private static final String STEP = "docs/ADDING_A_RULE.md, step 4";

  /** The subject class of {@code rule}. */
  static SubjectClass of(RuleInfo rule) {
    String optimizer = optimizerClass(rule).getSimpleName();
    if (!optimizer.endsWith("Optimizer")) {
      throw new IllegalArgumentException(
          "rule "
              + rule.name()
              + ": its optimizer "
              + optimizer
              + " is not named <Rule>Optimizer, so the test kit cannot name its subject ("
              + STEP
              + ")");
    }
    String stem = optimizer.substring(0, optimizer.length() - "Optimizer".length());
    String name = Subjects.class.getPackageName() + "." + stem + "Subject";
    Class<?> c;
    try {
      c = Class.forName(name, false, Subjects.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException(
          "rule "
              + rule.name()
              + " has no test kit subject: no class "
              + name
              + " (its optimizer is "
              + optimizer
              + "; "
              + STEP
              + ")",
          e);
    }
    if (!Subject.class.isAssignableFrom(c) || Modifier.isAbstract(c.getModifiers())) {
      throw new IllegalArgumentException(
          "rule " + rule.name() + ": " + name + " is not a concrete Subject (" + STEP + ")");
    }
    Constructor<?> drawn = null;
    Constructor<?> given = null;
    for (Constructor<?> k : c.getConstructors()) {
      Class<?>[] p = k.getParameterTypes();
      if (p.length == 0 || !tail(p) || k.isAnnotationPresent(Deprecated.class)) {
        continue;
      }
      if (p[0] == long.class) {
        drawn = longer(drawn, k);
      } else if (p[0] != int.class && p[0] != ElementType.class && !p[0].isPrimitive()) {
        given = longer(given, k);
      }
    }
    if (drawn == null) {
      throw new IllegalArgumentException(
          "rule "
              + rule.name()
              + ": "
              + name
              + " has no public constructor (long seed[, int d][, ElementType t]) ("
              + STEP
              + ")");
    }
    return new SubjectClass(rule, name, drawn, given);
  }

  /** The subject whose parameters case seed {@code seed} draws at {@code d} and {@code t}. */
  Subject draw(long seed, int d, ElementType t) {
    return create(drawn, seed, d, t);
  }

  /** The subject with {@code params}, checked at {@code d} and {@code t}. */
  Subject withParams(Object params, int d, ElementType t) {
    if (given == null) {
      throw new IllegalArgumentException(
          "rule "
              + rule.name()
              + ": "
              + name
              + " has no public constructor (P params[, int d][, ElementType t]), so its"
              + " parameters cannot be fixed");
    }
    if (!given.getParameterTypes()[0].isInstance(params)) {
      throw new IllegalArgumentException(
          "rule "
              + rule.name()
              + " takes "
              + given.getParameterTypes()[0].getSimpleName()
              + ", not "
              + (params == null ? "null" : params.getClass().getSimpleName()));
    }
    return create(given, params, d, t);
  }

  /** The class of the optimizer {@code rule}'s factory makes (one made at d = 1 and closed). */
  private static Class<?> optimizerClass(RuleInfo rule) {
    try (AbstractOptimizer o =
        rule.factory()
            .create(
                1,
                Precision.DOUBLE,
                StateLayout.PLANAR,
                null,
                null,
                new RuleInfo.Params(Map.of()))) {
      return o.getClass();
    }
  }

  /** Whether {@code p} after its first entry is {@code int}, {@code ElementType} or both, so. */
  private static boolean tail(Class<?>[] p) {
    int i = 1;
    if (i < p.length && p[i] == int.class) {
      i++;
    }
    if (i < p.length && p[i] == ElementType.class) {
      i++;
    }
    return i == p.length;
  }

  private static Constructor<?> longer(Constructor<?> a, Constructor<?> b) {
    return a == null || b.getParameterCount() > a.getParameterCount() ? b : a;
  }

  private Subject create(Constructor<?> k, Object first, int d, ElementType t) {
    Class<?>[] p = k.getParameterTypes();
    Object[] args = new Object[p.length];
    args[0] = first;
    for (int i = 1; i < p.length; i++) {
      args[i] = p[i] == int.class ? (Object) d : t;
    }
    try {
      return (Subject) k.newInstance(args);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error r) {
        throw r;
      }
      throw new IllegalStateException(name + ": " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(name + ": " + e, e);
    }
  }
}
