package org.onlinekernels.properties;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.testkit.Agreement;
import org.onlinekernels.testkit.Case;
import org.onlinekernels.testkit.Cases;
import org.onlinekernels.testkit.Subject;
import org.onlinekernels.testkit.Subjects;
import org.onlinekernels.testkit.Tolerance;
import org.onlinekernels.testsupport.FuzzTries;

/**
 * The fused round ({@code round(rows, r, y, loss)}) of every algorithm, in both state layouts:
 * against the reference within the bounds of {@link Tolerance} (the reference takes the gradient
 * the round took), and bit for bit against the other ways of computing the same thing: the other
 * layout, the other kernel implementation, and a separate predictSparse then update.
 */
// A quarter of the configured tries: the long stage's campaign configures four times as many.
@FuzzTries(divisor = 4)
class RoundProperties {

  @Provide
  Arbitrary<Case> trajectories() {
    return Cases.all();
  }

  /**
   * Every rule of the registry; each has a fused round body, the same for both implementations and
   * layouts.
   */
  @Provide
  Arbitrary<String> algorithms() {
    return Arbitraries.of(Subjects.names());
  }

  @Provide
  Arbitrary<Loss> losses() {
    // Classification losses: |g| <= 1 whatever yhat, as the trainer feeds them.
    return Arbitraries.of(Loss.LOGISTIC, Loss.HINGE);
  }

  static Subject subject(String algorithm, Case c) {
    return Subjects.of(algorithm, c);
  }

  /**
   * The hinge loss here: its derivative is 0 or {@code -y}, so the gradients stay in the range the
   * bounds of {@link Tolerance} are derived for (no underflow). The logistic derivative {@code 1/(1
   * + e^z)} reaches float's subnormal range at margins above about 87 (ScInOL's wealth gets there
   * in a one-sign run), where every product with it loses relative precision in float and not in
   * the double reference; the bit-exact properties below use both losses.
   */
  @Property
  void roundAgreesWithReference(
      @ForAll("trajectories") Case c,
      @ForAll("algorithms") String algorithm,
      @ForAll boolean vector,
      @ForAll StateLayout layout) {
    Agreement.kernelVsReference(
        subject(algorithm, c), c, AgreementProperties.impl(vector), layout, Loss.HINGE);
  }

  @Property
  void fusedRoundIsLayoutIndependent(
      @ForAll("trajectories") Case c,
      @ForAll("algorithms") String algorithm,
      @ForAll boolean vector,
      @ForAll("losses") Loss loss) {
    Subject s = subject(algorithm, c);
    Assume.that(s.fusedRound());
    KernelProvider k = AgreementProperties.impl(vector);
    Rounds.bitIdentical(
        s,
        c,
        loss,
        k,
        StateLayout.PLANAR,
        Rounds.Mode.ROUND,
        k,
        StateLayout.INTERLEAVED,
        Rounds.Mode.ROUND);
  }

  @Property
  void fusedRoundIsImplementationIndependent(
      @ForAll("trajectories") Case c,
      @ForAll("algorithms") String algorithm,
      @ForAll StateLayout layout,
      @ForAll("losses") Loss loss) {
    Subject s = subject(algorithm, c);
    Assume.that(s.fusedRound());
    Rounds.bitIdentical(
        s,
        c,
        loss,
        KernelProvider.vector(),
        layout,
        Rounds.Mode.ROUND,
        KernelProvider.scalar(),
        layout,
        Rounds.Mode.ROUND);
  }

  /**
   * A gathered round (records loaded first, computed on arrays, lane-wise on the vector provider,
   * written back) and a round entry by entry give the same bits, on either layout and provider.
   */
  @Property
  void gatheredRoundEqualsEntrywise(
      @ForAll("trajectories") Case c,
      @ForAll("algorithms") String algorithm,
      @ForAll boolean vector,
      @ForAll StateLayout layout,
      @ForAll("losses") Loss loss) {
    Subject s = subject(algorithm, c);
    Assume.that(s.fusedRound());
    KernelProvider k = AgreementProperties.impl(vector);
    Rounds.bitIdentical(
        s, c, loss, k, layout, Rounds.Mode.ROUND, k, layout, Rounds.Mode.ROUND_ENTRYWISE);
  }

  /**
   * A round on the caller's own segments (heap or native, at the case's byte offset) gives the bits
   * of the round on the same row in {@code SparseRows}, for every algorithm, layout and provider.
   */
  @Property
  void buffersRoundEqualsRowsRound(
      @ForAll("trajectories") Case c,
      @ForAll("algorithms") String algorithm,
      @ForAll boolean vector,
      @ForAll StateLayout layout,
      @ForAll("losses") Loss loss) {
    Subject s = subject(algorithm, c);
    KernelProvider k = AgreementProperties.impl(vector);
    Rounds.bitIdentical(
        s, c, loss, k, layout, Rounds.Mode.ROUND, k, layout, Rounds.Mode.ROUND_BUFFERS);
  }

  /**
   * Interleaved state runs its separate predict and update on the round's body, and the algorithms
   * without a fused body run their round as predictSparse then update: either way the two must
   * agree bit for bit.
   */
  @Property
  void roundEqualsPredictThenUpdate(
      @ForAll("trajectories") Case c,
      @ForAll("algorithms") String algorithm,
      @ForAll boolean vector,
      @ForAll("losses") Loss loss) {
    Subject s = subject(algorithm, c);
    Assume.that(!s.fusedRound() || s.interleaves());
    KernelProvider k = AgreementProperties.impl(vector);
    Rounds.bitIdentical(
        s,
        c,
        loss,
        k,
        StateLayout.INTERLEAVED,
        Rounds.Mode.ROUND,
        k,
        StateLayout.INTERLEAVED,
        Rounds.Mode.PREDICT_UPDATE);
  }

  /**
   * Interleaved state under separate predict and update calls, dense and sparse input, against the
   * reference.
   */
  @Property
  void interleavedStateAgreesWithReference(
      @ForAll("trajectories") Case c,
      @ForAll("algorithms") String algorithm,
      @ForAll boolean vector) {
    Agreement.kernelVsReference(
        subject(algorithm, c), c, AgreementProperties.impl(vector), StateLayout.INTERLEAVED, null);
  }
}
