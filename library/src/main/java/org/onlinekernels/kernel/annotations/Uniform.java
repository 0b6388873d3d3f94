package org.onlinekernels.kernel.annotations;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A value computed once per call from uniform parameters only (e.g. whether a box is bounded). */
@Retention(RetentionPolicy.SOURCE)
@Target(ElementType.METHOD)
public @interface Uniform {}
