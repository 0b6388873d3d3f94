package org.onlinekernels.kernel.annotations;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A validation of uniforms (parameters named like them, as doubles) that the rule's public kernel
 * runs at every entry that takes them all, before it writes anything; it throws {@link
 * IllegalArgumentException} naming the parameter. Not a lane function: never translated.
 */
@Retention(RetentionPolicy.SOURCE)
@Target(ElementType.METHOD)
public @interface Check {}
