/**
 * An optimizer's whole state to a file and back, bit for bit: {@link
 * org.onlinekernels.optimizer.checkpoint.Checkpoint} (format, crash-safe writes, every check before
 * anything is written) and {@link org.onlinekernels.optimizer.checkpoint.CheckpointException}.
 */
package org.onlinekernels.optimizer.checkpoint;
