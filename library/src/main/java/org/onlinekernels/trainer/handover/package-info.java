/**
 * The cold-start handover: a run that starts on the scalar kernels (fast before the JIT has
 * compiled the Vector API) races both implementations in the background ({@code VectorWarmup}) and
 * moves every optimizer to the vector kernels, bit for bit, when they are clearly faster ({@link
 * org.onlinekernels.trainer.handover.KernelHandover}); a JVM's record of each configuration ({@link
 * org.onlinekernels.trainer.handover.ConfigHistory}) lets many short fits together start the race
 * that none of them could. When the handover falls never changes a result. docs/CLI.md, "Cold
 * start".
 */
package org.onlinekernels.trainer.handover;
