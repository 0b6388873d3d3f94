package org.onlinekernels.kernel.annotations;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A lane function of the predict half: its value is a field's new value (when named like a field;
 * such a function must be idempotent: applied again to its own result with the same input it gives
 * that result) or the round's weight {@code w}. Functions run in source order.
 */
@Retention(RetentionPolicy.SOURCE)
@Target(ElementType.METHOD)
public @interface Predict {}
