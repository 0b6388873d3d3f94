package org.onlinekernels.optimizer.state;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The merge rules of one algorithm (docs/MERGING.md) as data: which rule combines each state buffer
 * and scalar of K learners that started from one state. Each optimizer builds its plan; {@link
 * org.onlinekernels.optimizer.merge.StateMerger} carries it out. Buffers not named here (box
 * bounds, radii, ScInOL2's stored weights scratch) are parameters or scratch and keep the start's
 * contents.
 */
public final class MergePlan {
  /** How the K values of one state element combine; see docs/MERGING.md. */
  public enum Rule {
    /**
     * Accumulated statistic: the first contributor's value plus the other contributors' increments.
     */
    SUM,
    /** Running maximum (ScInOL's {@code M}). */
    MAX,
    /**
     * Position of a dual or parameter-free learner: the contributors' mean (start plus mean
     * increment).
     */
    AVERAGE,
    /**
     * Weights: the contributors' mean weighted by their increments of the step-size accumulator.
     */
    MEAN
  }

  /** Projection of one averaged weight back into its box. */
  @FunctionalInterface
  public interface Clamp {
    /** Coordinate {@code i}'s value {@code v} projected into its box. */
    double apply(int i, double v);
  }

  /**
   * One state buffer or scalar and its rule ({@link Rule#SUM} or {@link Rule#AVERAGE} for scalars).
   */
  public record Buffer(String name, Rule rule) {}

  private final List<Buffer> buffers = new ArrayList<>();
  private final List<Buffer> scalars = new ArrayList<>();
  private final List<Buffer> buffersView = Collections.unmodifiableList(buffers);
  private final List<Buffer> scalarsView = Collections.unmodifiableList(scalars);

  /**
   * {@link Rule#MEAN}: the per-coordinate accumulator whose increment weighs a learner, or null.
   */
  private String meanWeightBuffer;

  /** {@link Rule#MEAN}: scalar accumulators whose increments add to every coordinate's weight. */
  private final List<String> meanWeightScalars = new ArrayList<>();

  private final List<String> meanWeightScalarsView =
      Collections.unmodifiableList(meanWeightScalars);

  /** {@link Rule#MEAN}: box clamp of an averaged coordinate. */
  private Clamp clamp = (i, v) -> v;

  /** {@link Rule#MEAN}: radius of the L2 ball the merged weights are projected onto (NaN: none). */
  private double ballRadius = Double.NaN;

  /** The buffers {@link #compounding} names. */
  private final List<String> compounding = new ArrayList<>();

  private final List<String> compoundingView = Collections.unmodifiableList(compounding);

  /** The state buffers the plan merges and their rules, in the order a merge visits them. */
  public List<Buffer> buffers() {
    return buffersView;
  }

  /** The scalars the plan merges and their rules ({@link Rule#SUM} or {@link Rule#AVERAGE}). */
  public List<Buffer> scalars() {
    return scalarsView;
  }

  /**
   * {@link Rule#MEAN}: the per-coordinate accumulator whose increment weighs a learner, or null.
   */
  public String meanWeightBuffer() {
    return meanWeightBuffer;
  }

  /** {@link Rule#MEAN}: scalar accumulators whose increments add to every coordinate's weight. */
  public List<String> meanWeightScalars() {
    return meanWeightScalarsView;
  }

  /** {@link Rule#MEAN}: box clamp of an averaged coordinate (the identity without a box). */
  public Clamp clamp() {
    return clamp;
  }

  /** {@link Rule#MEAN}: radius of the L2 ball the merged weights are projected onto (NaN: none). */
  public double ballRadius() {
    return ballRadius;
  }

  /**
   * The buffers whose every round multiplies them by a factor that does not depend on them (a
   * coin-betting wealth: {@code eta' = eta (1 - g x_i beta)}, the betting fraction {@code beta} a
   * function of the other variables). Learners still merge them by their {@link Rule}; a fold of
   * two sides' rounds into one shared state ({@code
   * org.onlinekernels.optimizer.parallel.HotRecords}) composes the two sides' factors instead of
   * adding their increments, which could change the sign of the wealth and flip every later bet.
   */
  public List<String> compounding() {
    return compoundingView;
  }

  /** Marks buffers already in the plan as {@link #compounding}. */
  public MergePlan compounding(String... names) {
    for (String n : names) {
      if (buffers.stream().noneMatch(b -> b.name().equals(n))) {
        throw new IllegalArgumentException(n + " is not a buffer of the plan");
      }
      compounding.add(n);
    }
    return this;
  }

  /** Buffers merged as accumulated statistics ({@link Rule#SUM}). */
  public MergePlan sum(String... names) {
    for (String n : names) {
      buffers.add(new Buffer(n, Rule.SUM));
    }
    return this;
  }

  /** Buffers merged as positions: the contributors' mean ({@link Rule#AVERAGE}). */
  public MergePlan average(String... names) {
    for (String n : names) {
      buffers.add(new Buffer(n, Rule.AVERAGE));
    }
    return this;
  }

  /** A buffer merged as a running maximum ({@link Rule#MAX}). */
  public MergePlan max(String name) {
    buffers.add(new Buffer(name, Rule.MAX));
    return this;
  }

  /**
   * Weights {@code name} merged by {@link Rule#MEAN}, weighted per coordinate by the increment of
   * {@code weightBuffer} (may be null) plus the increments of {@code weightScalars}.
   */
  public MergePlan mean(
      String name, String weightBuffer, List<String> weightScalars, Clamp boxClamp) {
    buffers.add(new Buffer(name, Rule.MEAN));
    meanWeightBuffer = weightBuffer;
    meanWeightScalars.addAll(weightScalars);
    clamp = boxClamp;
    return this;
  }

  /** Merged weights projected onto the L2 ball of {@code radius}. */
  public MergePlan ball(double radius) {
    ballRadius = radius;
    return this;
  }

  /** Scalars merged as accumulated statistics. */
  public MergePlan sumScalars(String... names) {
    for (String n : names) {
      scalars.add(new Buffer(n, Rule.SUM));
    }
    return this;
  }

  /** Scalars merged as the contributors' mean. */
  public MergePlan averageScalars(String... names) {
    for (String n : names) {
      scalars.add(new Buffer(n, Rule.AVERAGE));
    }
    return this;
  }
}
