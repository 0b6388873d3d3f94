/**
 * The kernels' public face: {@link org.onlinekernels.kernel.KernelProvider} picks the
 * implementation once per JVM (the Vector API's when {@code jdk.incubator.vector} is readable, else
 * the plain-Java scalar one, with the same bits), {@link org.onlinekernels.kernel.ElementType}
 * names the buffers' type, {@link org.onlinekernels.kernel.KernelChecks} validates every public
 * entry once, and {@link org.onlinekernels.kernel.LinearAlgebraKernel} holds the shared reductions.
 *
 * <p>Each rule's stateless kernel ({@code ScInOL2Kernel}, ...) is generated into the rule's own
 * package ({@code org.onlinekernels.rules.<rule>}) from the rule's source; buffers are native byte
 * order at any byte offset.
 */
package org.onlinekernels.kernel;
