/**
 * The annotations a rule's source is written with: {@link
 * org.onlinekernels.kernel.annotations.Lanes} on the class that holds the per-coordinate math,
 * {@link org.onlinekernels.kernel.annotations.Predict}, {@link
 * org.onlinekernels.kernel.annotations.Update}, {@link org.onlinekernels.kernel.annotations.Sum},
 * {@link org.onlinekernels.kernel.annotations.Uniform} and {@link
 * org.onlinekernels.kernel.annotations.Check} on its methods. The generator (module {@code
 * codegen}) reads them from the source; nothing reads them at run time. docs/ADDING_A_RULE.md says
 * how.
 */
package org.onlinekernels.kernel.annotations;
