package org.onlinekernels.kernel.annotations;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On an update function: its values are summed over the entries of a row, in entry order in one sum
 * of the arithmetic type, and the row update forms return the sum (e.g. DFEG's change of {@code
 * ||theta||^2}). Dense update forms do not compute it.
 */
@Retention(RetentionPolicy.SOURCE)
@Target(ElementType.METHOD)
public @interface Sum {}
