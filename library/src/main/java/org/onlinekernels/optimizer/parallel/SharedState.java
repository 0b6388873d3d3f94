package org.onlinekernels.optimizer.parallel;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.optimizer.RefusedRoundException;
import org.onlinekernels.optimizer.RoundBlocks;
import org.onlinekernels.optimizer.SparseRows;
import org.onlinekernels.optimizer.internal.StateAccess;
import org.onlinekernels.optimizer.state.SharingArena;

/**
 * One optimizer state trained by several threads at once: shared-state ("Hogwild", Niu, Recht, Ré
 * and Wright 2011) training. An <b>owner</b> holds the state; each of {@code T} <b>views</b> is an
 * optimizer of the same rule and parameters whose state buffers are the owner's (the same memory),
 * with its own scratch, row copy, uniforms and scalars, used by one worker thread (hand it over
 * with {@link AbstractOptimizer#transferOwnership}). docs/parallel/README.md says what a race can
 * do to each rule and why none can produce NaN, infinity or a state the invariant checks refuse.
 *
 * <p><b>Per-coordinate state</b> is read and written with plain accesses, no locks, no fences: a
 * round gathers each field of its row's records once, computes on its own copy and writes the
 * records back, so a race loses another round's update or mixes two rounds' fields within one
 * record; every rule's fields keep their invariants under any such mix. Each element is read and
 * written whole: 32-bit floats by the Java Memory Model, 64-bit doubles because an aligned plain
 * access through a memory segment is single-copy atomic on 64-bit platforms (checked here: double
 * state is refused elsewhere, and every buffer must be aligned).
 *
 * <p><b>Scalars</b> (round counters, sums of curvatures or squared gradients, DFEG's {@code H} and
 * {@code ||theta||^2}) are per view: a view advances its own copy, and {@link #sync} adds the
 * view's increments since its last sync to the shared value and refreshes the view's copy, in a
 * short critical section once per block of rounds. A view so sees the others' increments up to one
 * block late and none is lost (a round counter ends exact).
 *
 * <p><b>Rules whose round writes every coordinate</b> ({@link
 * AbstractOptimizer#roundsWriteOnlyTheirRow} false: Adaptive OGD on the ball, whose projection
 * needs the norm of the whole vector) run every round under one lock, scalars synced around it:
 * safe and exact, and no faster than one thread. {@link #lockFree} tells which.
 */
public final class SharedState implements AutoCloseable {
  private final SharingArena arena;
  private final AbstractOptimizer owner;

  /** Each worker's view now: its first view, or its later one once it has handed over. */
  private final AbstractOptimizer[] views;

  /** Each worker's first view. */
  private final AbstractOptimizer[] first;

  /** Each worker's later view (same buffers, other kernels), or null without a handover. */
  private final AbstractOptimizer[] later;

  private final boolean lockFree;
  private final String[] scalars;

  /** The shared value of each scalar. */
  private final double[] shared;

  /** Per view, each scalar as of its last sync. */
  private final double[][] synced;

  /** Per view, one-round arrays for locked rounds. */
  private final double[][] one;

  private final Object lock = new Object();

  private SharedState(
      SharingArena arena,
      AbstractOptimizer owner,
      AbstractOptimizer[] views,
      AbstractOptimizer[] later) {
    this.arena = arena;
    this.owner = owner;
    this.views = views.clone();
    this.first = views;
    this.later = later;
    this.lockFree = owner.stateAccess().roundsWriteOnlyTheirRow();
    this.scalars = owner.scalarState().keySet().stream().sorted().toArray(String[]::new);
    this.shared = new double[scalars.length];
    this.synced = new double[views.length][scalars.length];
    this.one = new double[views.length * 3][1];
    begin();
  }

  /**
   * A shared state and {@code views} views of it, each made by {@code maker} (called with the arena
   * the state must come from; it makes one fresh optimizer of the rule and parameters, as {@code
   * AlgorithmSpec.create} does). The calling thread owns all of them.
   *
   * @throws IllegalArgumentException if {@code views < 1}, if {@code maker} makes an optimizer that
   *     is not one of the library's, or one whose state does not come from the arena
   */
  public static SharedState create(
      Function<Arena, ? extends LinearModelOptimizer> maker, int views) {
    return create(maker, null, views);
  }

  /**
   * Same, and with {@code later} (may be null) a second view per worker over the same buffers, made
   * by {@code later} (the same rule and parameters on other kernels), which {@link #handOver} moves
   * the worker to: the shared-state form of the scalar-to-vector handover (the trainer's {@code
   * KernelHandover}). The two kernels compute the same bits, so the move changes the speed only.
   */
  public static SharedState create(
      Function<Arena, ? extends LinearModelOptimizer> maker,
      Function<Arena, ? extends LinearModelOptimizer> later,
      int views) {
    if (views < 1) {
      throw new IllegalArgumentException("a shared state needs at least one view, got " + views);
    }
    SharingArena arena = new SharingArena();
    List<LinearModelOptimizer> made = new ArrayList<>();
    try {
      AbstractOptimizer owner = SharedStateChecks.library(maker.apply(arena), made);
      arena.adopt();
      AbstractOptimizer[] v = new AbstractOptimizer[views];
      AbstractOptimizer[] w = later == null ? null : new AbstractOptimizer[views];
      for (int j = 0; j < views; j++) {
        v[j] = SharedStateChecks.library(maker.apply(arena), made);
        SharedStateChecks.checkShares(owner, v[j]);
        if (w != null) {
          w[j] = SharedStateChecks.library(later.apply(arena), made);
          SharedStateChecks.checkShares(owner, w[j]);
          if (w[j].getClass() != v[j].getClass()) {
            throw new IllegalArgumentException(
                "a later view is a " + w[j].algorithm() + ", the view a " + v[j].algorithm());
          }
        }
      }
      SharedStateChecks.checkAtomic(owner);
      return new SharedState(arena, owner, v, w);
    } catch (RuntimeException | Error e) {
      made.forEach(LinearModelOptimizer::close);
      arena.close();
      throw e;
    }
  }

  /**
   * The optimizer that holds the state: read it out, checkpoint or restore it between trainings.
   */
  public AbstractOptimizer owner() {
    return owner;
  }

  /** View {@code j}, one per worker thread. */
  public AbstractOptimizer view(int j) {
    return views[j];
  }

  /**
   * Moves worker {@code j} to its later view, from worker {@code j}'s thread between its rounds:
   * the later view takes the view's scalars (its sync baseline stays, the values being the same),
   * and serves the worker's rounds from now on. Does nothing without later views or once moved.
   */
  public void handOver(int j) {
    checkView(j);
    if (later == null || views[j] == later[j]) {
      return;
    }
    AbstractOptimizer from = views[j];
    AbstractOptimizer to = later[j];
    Map<String, Double> s = from.scalarState();
    for (String name : scalars) {
      to.stateAccess().setScalar(name, s.get(name));
    }
    to.setInputPolicy(from.inputPolicy());
    views[j] = to;
  }

  /** Whether worker {@code j} runs on its later view ({@link #handOver}). */
  public boolean handedOver(int j) {
    checkView(j);
    return later != null && views[j] == later[j];
  }

  /**
   * Hands worker {@code j}'s views (now and later) to {@code thread} ({@link
   * AbstractOptimizer#transferOwnership}).
   */
  public void transferView(int j, Thread thread) {
    checkView(j);
    first[j].transferOwnership(thread);
    if (later != null) {
      later[j].transferOwnership(thread);
    }
  }

  private void checkView(int j) {
    if (j < 0 || j >= views.length) {
      throw new IndexOutOfBoundsException(
          "view " + j + " of a shared state with " + views.length + " views");
    }
  }

  /** The number of views. */
  public int views() {
    return views.length;
  }

  /** Whether rounds run lock-free (else each under one lock: see the class comment). */
  public boolean lockFree() {
    return lockFree;
  }

  /**
   * Whether {@code o}'s rule runs shared-state rounds lock-free: whether its sparse rounds write
   * only their row's coordinates ({@link AbstractOptimizer#roundsWriteOnlyTheirRow}), which is also
   * what lets a merge visit only the coordinates the rows named.
   */
  public static boolean lockFree(AbstractOptimizer o) {
    return o.stateAccess().roundsWriteOnlyTheirRow();
  }

  /**
   * Starts training from the owner's state as it is now: the shared scalars and every view's copy
   * take the owner's values. Call it with no view in use.
   */
  public void begin() {
    Map<String, Double> s = owner.scalarState();
    for (int k = 0; k < scalars.length; k++) {
      shared[k] = s.get(scalars[k]);
    }
    for (int j = 0; j < views.length; j++) {
      for (int k = 0; k < scalars.length; k++) {
        views[j].stateAccess().setScalar(scalars[k], shared[k]);
        synced[j][k] = shared[k];
      }
    }
  }

  /**
   * Adds view {@code j}'s scalar increments since its last sync to the shared scalars and gives the
   * view the shared values; called from view {@code j}'s thread. A shared value that would break
   * its invariant (a sum of changes of DFEG's norm that drifted below 0) takes the view's own
   * value, which holds it.
   */
  public void sync(int j) {
    if (scalars.length == 0) {
      return;
    }
    StateAccess v = views[j].stateAccess();
    StateAccess o = owner.stateAccess();
    Map<String, Double> s = v.scalarState();
    double[] last = synced[j];
    synchronized (lock) {
      for (int k = 0; k < scalars.length; k++) {
        double mine = s.get(scalars[k]);
        // Nobody else synced since this view last did: its own value, exactly (T = 1 is then
        // the sequential trainer bit for bit; s + (m - s) need not round to m).
        double next = same(shared[k], last[k]) ? mine : shared[k] + (mine - last[k]);
        shared[k] = o.brokenInvariant(scalars[k], next) == null ? next : mine;
        v.setScalar(scalars[k], shared[k]);
        last[k] = shared[k];
      }
    }
  }

  /**
   * Rounds ({@link LinearModelOptimizer#rounds}) of view {@code j} on its thread, then {@link
   * #sync}: lock-free, or round by round under the lock, synced before and after each.
   */
  public void rounds(
      int j,
      SparseRows rows,
      int[] order,
      int from,
      int to,
      double[] y,
      Loss loss,
      double[] yhat,
      double[] losses) {
    AbstractOptimizer v = views[j];
    if (lockFree) {
      // Synced before too: a view that starts late (its thread scheduled after the others' first
      // blocks) would otherwise meet weights the others moved with its scalars still at their
      // start, e.g. global AdaGrad's sum of squares at 0 against a near-zero gradient: a rate
      // beyond the float range, and the run refused.
      sync(j);
      v.rounds(rows, order, from, to, y, loss, yhat, losses);
      sync(j);
      return;
    }
    RoundBlocks.check(rows, order, from, to, y, yhat, losses);
    double[] y1 = one[3 * j];
    double[] yhat1 = one[3 * j + 1];
    double[] loss1 = losses == null ? null : one[3 * j + 2];
    for (int q = from; q < to; q++) {
      y1[0] = y[q - from];
      synchronized (lock) {
        sync(j);
        try {
          v.rounds(rows, order, q, q + 1, y1, loss, yhat1, loss1);
        } catch (RefusedRoundException e) {
          throw new RefusedRoundException(q, (IllegalArgumentException) e.getCause());
        } finally {
          sync(j);
        }
      }
      yhat[q - from] = yhat1[0];
      if (losses != null) {
        losses[q - from] = loss1[0];
      }
    }
  }

  /**
   * Ends training: the owner takes the shared scalars and recomputes what it derives from its state
   * (DFEG: {@code ||theta||^2}, which races let drift). Call it with no view in use, from the
   * owner's thread.
   */
  public void end() {
    StateAccess o = owner.stateAccess();
    o.checkOpen();
    for (int k = 0; k < scalars.length; k++) {
      o.setScalar(scalars[k], shared[k]);
    }
    o.stateReplaced();
    if (views.length > 1) {
      // Races let a running quantity drift from the state it summarizes (DFEG's norm); one view
      // has no races, and keeps the sequential trainer's running value.
      o.afterMerge();
    }
  }

  private static boolean same(double a, double b) {
    return Double.doubleToRawLongBits(a) == Double.doubleToRawLongBits(b);
  }

  /** Closes the views and the owner (each from the thread that owns it) and frees the state. */
  @Override
  public void close() {
    for (int j = 0; j < first.length; j++) {
      first[j].close();
      if (later != null) {
        later[j].close();
      }
    }
    owner.close();
    if (arena.scope().isAlive()) {
      arena.close();
    }
  }
}
