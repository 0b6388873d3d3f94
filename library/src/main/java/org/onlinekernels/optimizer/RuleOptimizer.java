package org.onlinekernels.optimizer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.LinearAlgebraKernel;
import org.onlinekernels.kernel.lanes.RecordTouch;
import org.onlinekernels.kernel.lanes.RoundScratch;
import org.onlinekernels.kernel.lanes.RuleForms;
import org.onlinekernels.kernel.lanes.RuleShape;
import org.onlinekernels.optimizer.rounds.RoundTuning;
import org.onlinekernels.optimizer.rounds.RowCopy;
import org.onlinekernels.optimizer.rounds.RuleStorage;
import org.onlinekernels.optimizer.rounds.StateForms;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateLayout;

/**
 * An optimizer that runs a generated rule: it holds the rule's fields in the chosen layout and
 * calls the rule's forms for every path (dense and sparse predict and update, fused rounds,
 * read-out), so every rule has fused rounds on either layout. A rule's optimizer adds its
 * parameters, uniforms ({@link #u}), scalar state and the steps between the passes ({@link
 * #finishPredict}, {@link #beforeUpdate}, {@link #afterUpdate}).
 *
 * <p>State shapes: float and double state without per-coordinate buffers is one block, planar (one
 * slice per field: the dense forms stream it) or {@link StateLayout#INTERLEAVED} (a coordinate's
 * fields adjacent, on the heap where it fits: a random coordinate costs one cache line); mixed
 * precision and the per-coordinate variant keep one buffer per field (planar).
 */
public abstract class RuleOptimizer extends AbstractOptimizer {
  /** The rule's forms for this element type, provider and variant. */
  protected final RuleForms forms;

  /**
   * The uniforms, in the rule's order ({@link RuleShape#uniforms}); the rule's optimizer keeps them
   * current.
   */
  protected final double[] u;

  private final RuleShape shape;
  private final StateLayout layout;

  /** Where the fields live. */
  private final RuleStorage storage;

  /** The rule's row forms on {@link #storage}. */
  private final StateForms state;

  /** The per-field segments (planar state, separate buffers), or null for one block. */
  private final MemorySegment[] segments;

  /** Stored weights (the stored-weights mode), else null. */
  private final MemorySegment storedWeights;

  private final RoundScratch scratch;
  private final RowCopy row;
  private final LinearAlgebraKernel linalg;
  private final boolean needsInputNorm;
  private final boolean needsInputNormAtUpdate;
  private final RoundTuning tuning;

  /**
   * Whether the scratch holds the kept values of the last {@link #predictSparse} and {@code row}
   * its row, untouched since: its update then runs the round's update half on them instead of
   * recomputing them from the state (the same bits: the predict committed what it changed).
   */
  private boolean keptValid;

  /**
   * Whether the kept values came from a gathered predict: then the scratch also holds the row's
   * records, and the update writes them back instead of reading the state again. Nothing changes
   * the state between a predict and its update (every replacement cancels the pending predict).
   */
  private boolean keptGathered;

  private double inputNorm;

  /**
   * @param perCoordinate the per-coordinate variant: the rule's per-coordinate uniforms kept in
   *     read-only buffers named after them (planar state)
   * @param storeWeights the stored-weights mode: a dense predict writes its weights to a buffer
   *     {@code w} that the dense update reads instead of recomputing them (planar state)
   * @throws IllegalArgumentException for a layout or mode the rule cannot hold
   */
  // The constructor asks touchRecordsFirst(), a rule's constant (documented as called by the
  // constructor): the "this-escape" javac reports.
  @SuppressWarnings("this-escape")
  protected RuleOptimizer(
      String algorithm,
      int d,
      Precision precision,
      StateLayout layout,
      boolean perCoordinate,
      boolean storeWeights,
      Arena arena,
      KernelProvider kernels,
      RuleShape shape) {
    super(algorithm, d, precision, arena, kernels);
    RuleStorage.checkLayout(algorithm, precision, layout, perCoordinate, storeWeights, shape);
    String touchMode = RoundTuning.touchMode(touchRecordsFirst());
    RoundTuning.gatherMode(0); // a bad value fails before anything is allocated
    this.shape = shape;
    this.layout = layout;
    boolean mixed = precision == Precision.MIXED;
    int flavor =
        mixed ? RuleShape.MIXED : type == ElementType.FLOAT ? RuleShape.FLOAT : RuleShape.DOUBLE;
    this.forms = shape.forms().of(flavor, this.kernels.isVector(), perCoordinate);
    this.u = new double[shape.uniforms().size()];
    this.linalg = this.kernels.linearAlgebra(type);
    List<String> fields = shape.fields();
    this.storage = new RuleStorage(store, shape, d, type, precision, layout, perCoordinate);
    this.segments = storage.segments;
    if (storeWeights && !forms.storesWeights()) {
      throw new IllegalArgumentException(algorithm + " has no stored-weights mode");
    }
    this.storedWeights = storeWeights ? store.allocate("w", type) : null;
    // Kept values, then (gathered rounds) one record array per field and the contributions.
    this.scratch =
        new RoundScratch(
            shape.kept() + fields.size() + 1, precision.accumulatorType() == ElementType.FLOAT);
    this.row = new RowCopy(type);
    this.state = new StateForms(forms, storage, scratch, u);
    this.needsInputNorm = needsInputNorm();
    this.needsInputNormAtUpdate = needsInputNormAtUpdate();
    this.tuning =
        RoundTuning.of(
            storage.block == null ? 0 : storage.block.byteSize(),
            touchMode,
            algorithm + " " + precision + " " + layout + " " + this.kernels.name());
    String gatherMode =
        RoundTuning.gatherMode(storage.block == null ? 0 : storage.block.byteSize());
    if (tuning.gathered() && !gatherMode.equals("segment")) {
      // The scalar kernels load through the index map too, by plain loops: the vector unit's
      // gathers and scatters are the vector kernels' alone.
      boolean lanes = this.kernels.isVector();
      scratch.gatherFrom(
          storage.heapArray(),
          lanes && !gatherMode.equals("array"),
          lanes && gatherMode.equals("scatter"));
      storage.touchThroughArray(true);
    }
  }

  @Override
  public final StateLayout layout() {
    return layout;
  }

  /** Whether the state is interleaved. */
  protected final boolean interleaved() {
    return layout == StateLayout.INTERLEAVED;
  }

  /**
   * The rule's state field or buffer {@code name} as one segment (planar state or separate
   * buffers).
   */
  protected final MemorySegment segment(String name) {
    return segments[RuleStorage.segmentIndex(shape, name)];
  }

  /**
   * Whether the predict needs {@link #inputSquaredNorm} ({@code ||x||^2} of the instance in hand);
   * called once, by the constructor.
   */
  protected boolean needsInputNorm() {
    return false;
  }

  /**
   * Whether the update needs {@link #inputSquaredNorm} (a gradient-form step has no predict before
   * it); called once.
   */
  protected boolean needsInputNormAtUpdate() {
    return false;
  }

  /** {@code ||x||^2} of the instance in hand (0 unless {@link #needsInputNorm}). */
  protected final double inputSquaredNorm() {
    return inputNorm;
  }

  /**
   * {@code yhat} from the prediction's sum {@code sum x_i w_i} (DFEG scales it); the default is the
   * sum.
   */
  protected double finishPredict(double sum) {
    return sum;
  }

  /**
   * Runs before the update writes anything, with the accepted gradient: a rule computes the
   * uniforms of this update here (and may refuse with {@link ArithmeticException}, nothing
   * changed). Returns false to leave the fields as they are this round (a zero denominator).
   */
  protected boolean beforeUpdate(double g) {
    return true;
  }

  /** Runs after the update, with the rule's row sum (0 for dense updates or rules without one). */
  protected void afterUpdate(double rowSum, boolean dense) {}

  /**
   * Whether fused rounds on a large state load records ahead of their use ({@link RecordTouch}):
   * the rule's constant, measured faster on one CPU, which rounds follow under {@code
   * -Donlinekernels.rounds.touch=rule} ({@code RoundTuning}); by default they race both ways on the
   * CPU they run on instead. Called by the constructor.
   */
  protected boolean touchRecordsFirst() {
    return false;
  }

  @Override
  protected double predictDense(MemorySegment x) {
    keptValid = false;
    if (needsInputNorm) {
      inputNorm = linalg.sumOfSquares(x, d);
    }
    double sum;
    if (segments == null) {
      row.values(x, d);
      scratch.ensure(d);
      int[] all = row.identity(d);
      sum = state.predict(all, row.vf(), row.vd(), 0, d, false);
      state.commit(all, 0, d);
    } else if (forms.computesWeight()) {
      sum = forms.predictDense(segments, x, d, storedWeights, u);
    } else {
      sum = denseDot(segments[forms.weightField()], x);
    }
    return finishPredict(sum);
  }

  /**
   * {@code <w, x>} of a weight field: the linear-algebra kernel's dot (mixed: float weights, double
   * sum).
   */
  private double denseDot(MemorySegment w, MemorySegment x) {
    return precision == Precision.MIXED
        ? kernels.linearAlgebra(ElementType.FLOAT).dotMixed(w, x, d)
        : linalg.dot(w, x, d);
  }

  @Override
  protected double predictSparseImpl(MemorySegment idx, MemorySegment val, int nnz) {
    keptValid = false;
    row.copy(idx, val, nnz);
    if (needsInputNorm) {
      // The copy, not the caller's segment: see normOfCopy.
      inputNorm = normOfCopy(nnz);
    }
    scratch.ensure(nnz);
    double sum;
    // A separate sparse predict sums as the kernels' sparse predict always has (two partial sums)
    // on planar state; interleaved state runs the fused round's body and order, as it always has,
    // gathered as the rounds run it (lane-wise on the vector provider; the same bits), so that the
    // update can scatter the records it gathered.
    boolean gathered = interleaved() && tuning.gathered();
    sum =
        interleaved()
            ? state.predict(row.idx(), row.vf(), row.vd(), 0, nnz, gathered)
            : state.predictSeparate(row.idx(), row.vf(), row.vd(), 0, nnz);
    // The predict's own field changes stand even if no update follows.
    state.commit(row.idx(), 0, nnz);
    keptValid = true;
    keptGathered = gathered;
    return finishPredict(sum);
  }

  @Override
  protected final void updateAfterPredictSparse(
      MemorySegment idx, MemorySegment val, int nnz, double g) {
    if (!keptValid || !separateUpdateKeepsPredict()) {
      updateSparse(idx, val, nnz, g);
      return;
    }
    keptValid = false;
    if (needsInputNormAtUpdate) {
      inputNorm = normOfCopy(nnz);
    }
    updateFromScratch(row.idx(), row.vf(), row.vd(), 0, nnz, g, keptGathered);
  }

  /**
   * Whether an update after a sparse predict may run the round's update half on the values the
   * predict kept (true for every rule whose update is its fields' own); a rule that overrides
   * {@link #updateSparse} with more than that returns false.
   */
  protected boolean separateUpdateKeepsPredict() {
    return true;
  }

  @Override
  protected void updateDense(MemorySegment x, double g) {
    keptValid = false;
    if (needsInputNormAtUpdate) {
      inputNorm = linalg.sumOfSquares(x, d);
    }
    if (!beforeUpdate(g)) {
      afterUpdate(0, true);
      return;
    }
    if (segments == null) {
      row.values(x, d);
      afterUpdate(state.updateRecompute(row.identity(d), row.vf(), row.vd(), 0, d, g), true);
      return;
    }
    if (storedWeights != null) {
      forms.updateDenseStored(segments, storedWeights, x, d, g, u);
    } else {
      forms.updateDense(segments, x, d, g, u);
    }
    afterUpdate(0, true);
  }

  @Override
  protected void updateSparse(MemorySegment idx, MemorySegment val, int nnz, double g) {
    keptValid = false;
    row.copy(idx, val, nnz);
    if (needsInputNormAtUpdate) {
      inputNorm = normOfCopy(nnz);
    }
    if (!beforeUpdate(g)) {
      afterUpdate(0, false);
      return;
    }
    afterUpdate(state.updateRecompute(row.idx(), row.vf(), row.vd(), 0, nnz, g), false);
  }

  /**
   * {@code ||x||^2} of the row copied into {@link #row}: the same values in the same order as the
   * caller's segment, so the same bits. Every sparse norm sums this one heap segment (the per-call
   * path's and the rounds'), so the kernel's loops see one segment kind: a caller's native rows
   * mixed in made C2's profiled loop predicates fail and the kernel recompile again and again.
   */
  private double normOfCopy(int nnz) {
    return linalg.sumOfSquares(row.valueView(), nnz);
  }

  @Override
  protected void readWeightsImpl(MemorySegment into) {
    state.weights(into, d);
  }

  @Override
  protected void prepareRounds(int maxNnz) {
    scratch.ensure(maxNnz);
    if (needsInputNorm || needsInputNormAtUpdate) {
      row.ensure(maxNnz);
    }
  }

  @Override
  protected int roundsAhead() {
    return tuning.rowsAhead();
  }

  @Override
  protected void touchAhead(SparseRows rows, int r) {
    storage.touchRecords(rows.indices(), rows.offset(r), rows.nnz(r));
  }

  @Override
  protected boolean roundsTimed() {
    return tuning.touch().racing();
  }

  @Override
  protected void roundsRan(int rows, long nonzeros, long nanos) {
    tuning.touch().ran(rows, nonzeros, nanos);
  }

  /**
   * Whether this optimizer's blocks of rounds load the records of the rows ahead before computing
   * ({@link RoundTuning}): {@code on} or {@code off}, or {@code racing} while it times both ways on
   * this CPU to pick one. Same bits every way; for benchmarks and diagnostics.
   */
  public final String recordTouch() {
    return tuning.touch().state();
  }

  @Override
  protected final double roundPredict(SparseRows rows, int r) {
    return roundPredict(rows.indices(), rows.floats(), rows.doubles(), rows.offset(r), rows.nnz(r));
  }

  @Override
  protected final void roundUpdate(SparseRows rows, int r, double g) {
    roundUpdate(rows.indices(), rows.floats(), rows.doubles(), rows.offset(r), rows.nnz(r), g);
  }

  @Override
  protected final double roundPredict(MemorySegment indices, MemorySegment values, int nnz) {
    row.copy(indices, values, nnz);
    scratch.ensure(nnz);
    return roundPredict(row.idx(), row.vf(), row.vd(), 0, nnz);
  }

  @Override
  protected final void roundUpdate(int nnz, double g) {
    roundUpdate(row.idx(), row.vf(), row.vd(), 0, nnz, g);
  }

  /**
   * Predict half of a round on entries {@code [from, from + nnz)} of a row held in arrays (a block
   * of rows, or this optimizer's copy of the caller's buffers): writes only per-entry scratch.
   */
  private double roundPredict(int[] idx, float[] vf, double[] vd, int from, int nnz) {
    keptValid = false;
    if (needsInputNorm || needsInputNormAtUpdate) {
      row.values(vf, vd, from, nnz);
      inputNorm = normOfCopy(nnz);
    }
    if (tuning.touchesOwnRow() && state.isBlock()) {
      storage.touchRecords(idx, from, nnz);
    }
    return finishPredict(state.predict(idx, vf, vd, from, nnz, tuning.gathered()));
  }

  /**
   * Update half of a round, after {@link #roundPredict} of the same entries. A rule whose round
   * update is not the fields' own (Adaptive OGD's ball shrinks every coordinate) overrides this.
   */
  protected void roundUpdate(int[] idx, float[] vf, double[] vd, int from, int nnz, double g) {
    updateFromScratch(idx, vf, vd, from, nnz, g, tuning.gathered());
  }

  /**
   * The update half on the kept values in the scratch (and, {@code gathered}, its record arrays).
   */
  private void updateFromScratch(
      int[] idx, float[] vf, double[] vd, int from, int nnz, double g, boolean gathered) {
    if (!beforeUpdate(g)) {
      // The predict's new field values stand, as after a separate predict.
      state.commit(idx, from, nnz);
      afterUpdate(0, false);
      return;
    }
    afterUpdate(state.update(idx, vf, vd, from, nnz, g, gathered), false);
  }
}
