package org.onlinekernels.testsupport;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Scales a jqwik property's tries with the configured number: {@code jqwik.tries.default} (set by
 * {@code -Djqwik.tries}, 200 when unset) times {@link #multiplier} divided by {@link #divisor}, at
 * least one. Put it beside {@code @Property} on a property whose tries cost more or less than most
 * (a try that starts a process, about half a second, runs a share; a cheap one a multiple), so that
 * one {@code -Djqwik.tries} scales a whole suite, a long campaign included, where a literal
 * {@code @Property(tries = N)} would ignore it. jqwik's seed still chooses every input and is
 * printed with a failure. The library's own fuzz suites and the command line's use it too.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
@AddLifecycleHook(FuzzTries.Hook.class)
public @interface FuzzTries {
  /** The configured tries are divided by this. */
  int divisor() default 1;

  /** The configured tries are multiplied by this (before the division). */
  int multiplier() default 1;

  /** Sets the property's tries from the annotation and {@code jqwik.tries.default}. */
  final class Hook implements AroundPropertyHook {
    /** On a class, the hook reaches each of its properties. */
    @Override
    public PropagationMode propagateTo() {
      return PropagationMode.ALL_DESCENDANTS;
    }

    @Override
    public PropertyExecutionResult aroundProperty(
        PropertyLifecycleContext context, PropertyExecutor property) {
      int configured = Integer.getInteger("jqwik.tries.default", 200);
      FuzzTries scale =
          context
              .findAnnotation(FuzzTries.class)
              .orElseGet(() -> context.findAnnotationsInContainer(FuzzTries.class).getFirst());
      long tries = (long) configured * scale.multiplier() / scale.divisor();
      context.attributes().setTries((int) Math.max(1, Math.min(Integer.MAX_VALUE, tries)));
      return property.execute();
    }
  }
}
