/**
 * The test kit: the library's property-test machinery, for checking any implementation of its
 * algorithms (yours or the library's) against the reference ({@code org.onlinekernels.reference}).
 *
 * <ul>
 *   <li>{@link org.onlinekernels.testkit.KernelCheck}: the one call for a user's implementation of
 *       any rule ({@code KernelCheck.forRule(name, paramsRecord, factory)}), adapted to {@link
 *       org.onlinekernels.testkit.Learner} (predict a {@link org.onlinekernels.testkit.Row}, update
 *       with {@code g}, read and write state).
 *   <li>Generators: {@link org.onlinekernels.testkit.Cases} (jqwik arbitraries of {@link
 *       org.onlinekernels.testkit.Case}: dimensions, element types, offsets, heap or native,
 *       densities, feature scales, rounds) and {@link org.onlinekernels.testkit.Workload} (the rows
 *       and gradients a case's seed draws).
 *   <li>Bounds: {@link org.onlinekernels.testkit.Tolerance} and, per algorithm, a {@link
 *       org.onlinekernels.testkit.Subject} with its derivation (parameter draws, reference, state
 *       names, factors), {@code <Rule>Subject} for {@code <Rule>Optimizer}: {@link
 *       org.onlinekernels.testkit.Subjects} finds a rule's subject from the registry by that name.
 *   <li>The engine: {@link org.onlinekernels.testkit.Agreement} (learner against reference, learner
 *       against learner, scale invariance); the library's optimizers enter it through {@link
 *       org.onlinekernels.testkit.OptimizerLearner} and {@link
 *       org.onlinekernels.testkit.RoundLearner}.
 * </ul>
 *
 * <p>Shipped as {@code online-kernels-testkit-V.jar} (artifact {@code online-kernels-testkit}); it
 * uses the library and jqwik only.
 */
package org.onlinekernels.testkit;
