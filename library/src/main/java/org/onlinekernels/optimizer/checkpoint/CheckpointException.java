package org.onlinekernels.optimizer.checkpoint;

import java.io.IOException;

/**
 * A checkpoint file that cannot be loaded into the given optimizer: damaged (checksum, truncated),
 * of another format version, or holding the state of another algorithm, element type, dimension or
 * parameters. The optimizer is unchanged when this is thrown.
 */
public final class CheckpointException extends IOException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what is wrong and, where possible, what would fix it
   */
  public CheckpointException(String message) {
    super(message);
  }
}
