package org.onlinekernels.kernel.annotations;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the class nested in a rule that holds the rule's per-coordinate math, in float: the one
 * source from which online-kernels-codegen generates every form of the rule (double and mixed
 * twins; plain-Java rows, fused rounds and dense loops; Vector API loops; the public kernel).
 * docs/ADDING_A_RULE.md describes the conventions.
 */
@Retention(RetentionPolicy.SOURCE)
@Target(ElementType.TYPE)
public @interface Lanes {
  /** The per-coordinate state fields, in record order (their order in an interleaved record). */
  String[] fields();

  /** The field that is the weight; empty when a {@code @Predict} function {@code w} computes it. */
  String weight() default "";

  /** Fields kept in float under mixed precision (the others in double); empty: no mixed form. */
  String[] mixed() default {};

  /** Uniform parameters that a per-coordinate variant reads from read-only buffers instead. */
  String[] perCoordinate() default {};

  /**
   * Whether the update changes every coordinate, a coordinate with a zero input too (Adaptive OGD's
   * ball: every weight shrinks): the generated sparse updates then apply the dense rule to the row
   * scattered into zeros, O(d).
   */
  boolean everyCoordinate() default false;
}
