/**
 * The build-time generator of every form of every update rule, from the rule's one source (docs/
 * ADDING_A_RULE.md): each rule's {@code @Lanes} class, read with JavaParser ({@link
 * org.onlinekernels.codegen.LaneRule}), becomes
 *
 * <ul>
 *   <li>for the library ({@link org.onlinekernels.codegen.RuleGenerator}, run by its build in
 *       {@code generate-sources}): the lanes twins, the plain-Java and Vector API forms in float,
 *       double and mixed precision, the public stateless kernel and the forms behind the engine's
 *       {@code RuleForms}, each written from a text-block template ({@link
 *       org.onlinekernels.codegen.Template}) and laid out by google-java-format ({@link
 *       org.onlinekernels.codegen.JavaFormat});
 *   <li>for the benchmarks ({@link org.onlinekernels.codegen.CRuleGenerator}): the C contender's
 *       rules, the lane functions translated into C and over four lanes, the fused round around
 *       each optimizer's hand-written hooks.
 * </ul>
 *
 * {@link org.onlinekernels.codegen.Twins} is the build's one float-to-double twin substitution (the
 * lanes twins, the library's kernels, the benchmarks' hand loops). Nothing here is on a user's
 * class path; it imports nothing of the library, which it runs before. The golden files under
 * {@code src/test/resources/golden} pin one rule's generated sources.
 */
package org.onlinekernels.codegen;
