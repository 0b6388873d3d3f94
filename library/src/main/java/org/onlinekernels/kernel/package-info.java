/**
 * Stateless kernels over caller-owned {@link java.lang.foreign.MemorySegment} buffers and the
 * provider that picks their implementation.
 *
 * <p>Each algorithm has one public abstract kernel class ({@code AdaGradKernel}, ...) whose public
 * methods validate every argument once and then call the implementation: {@code vector} (the Vector
 * API, {@code org.onlinekernels.kernel.vector}) or {@code scalar} (plain Java, {@code
 * org.onlinekernels.kernel.scalar}), chosen by {@link org.onlinekernels.kernel.KernelProvider}.
 * Buffers are native byte order at any byte offset; see {@link
 * org.onlinekernels.kernel.ElementType}.
 */
package org.onlinekernels.kernel;
