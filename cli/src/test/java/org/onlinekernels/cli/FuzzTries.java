package org.onlinekernels.cli;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * A property whose tries cost a process start (about half a second) runs a share of the configured
 * tries: {@code jqwik.tries.default} (set by {@code -Djqwik.tries}, 200 by default) divided by
 * {@link #divisor}, at least one. So {@code -Djqwik.tries} scales every fuzz suite, and the default
 * build stays within its minute. jqwik's seed still chooses every input and is printed with a
 * failure.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@AddLifecycleHook(FuzzTries.Hook.class)
public @interface FuzzTries {
  /** The configured tries are divided by this. */
  int divisor();

  /** Sets the property's tries from the annotation and {@code jqwik.tries.default}. */
  final class Hook implements AroundPropertyHook {
    @Override
    public PropertyExecutionResult aroundProperty(
        PropertyLifecycleContext context, PropertyExecutor property) {
      int configured = Integer.getInteger("jqwik.tries.default", 200);
      int divisor = context.findAnnotation(FuzzTries.class).map(FuzzTries::divisor).orElse(1);
      context.attributes().setTries(Math.max(1, configured / divisor));
      return property.execute();
    }
  }
}
