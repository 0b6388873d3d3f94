package org.onlinekernels.optimizer;

/**
 * A round of {@link LinearModelOptimizer#rounds} was refused (a label that is not finite, a row
 * over the CHECKED input limit, a gradient that is not finite or over its bound). The rounds before
 * it in the block ran and their {@code yhat} were written; the ones after it did not run; the
 * refused round left the state as a refused {@link LinearModelOptimizer#round} does (ScInOL2 and
 * AdaGrad: untouched, bit for bit), so a caller can fix its input and go on from {@link
 * #position()}.
 */
public final class RefusedRoundException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final int position;

  /**
   * A refusal of the round at {@code position} (an index into the block's order), for {@code
   * cause}.
   */
  public RefusedRoundException(int position, IllegalArgumentException cause) {
    super(cause.getMessage(), cause);
    this.position = position;
  }

  /** Index into the order array of the refused round; the rounds before it ran. */
  public int position() {
    return position;
  }
}
