/**
 * The plain-Java implementation: its provider ({@link
 * org.onlinekernels.kernel.scalar.ScalarKernelProvider}, the fallback when {@code
 * jdk.incubator.vector} is not readable) and its reductions, which emulate the virtual lanes so
 * that they give the vector implementation's bits. The rules' scalar forms are generated into each
 * rule's package. Only {@code Float*} sources exist here; the {@code Double*} twins are generated
 * by the build.
 */
package org.onlinekernels.kernel.scalar;
