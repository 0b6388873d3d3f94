package org.onlinekernels.reference;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The merge rules of docs/MERGING.md, written literally on values: the reference every optimizer's
 * {@code merge} is tested against. A "contributor" at an element is a learner whose value there
 * differs (in its bits) from the common start.
 */
public final class ReferenceMerge {
  private ReferenceMerge() {}

  /** The learners' state as one sequence: arrays in the documented order, then scalars. */
  public interface StateOf<T> {
    double[][] of(T learner);
  }

  /**
   * Validates the learners and returns them in the canonical order: the lexicographic order of
   * their state sequences, element by element, compared as raw double bits (signed).
   */
  public static <T extends ReferenceModel> List<T> canonical(
      ReferenceModel start, List<T> learners, StateOf<T> state) {
    if (learners == null || learners.isEmpty()) {
      throw new IllegalArgumentException("merge needs at least one learner");
    }
    for (int j = 0; j < learners.size(); j++) {
      T l = learners.get(j);
      if (l == null) {
        throw new IllegalArgumentException("learner " + j + " is null");
      }
      if (l.getClass() != start.getClass() || l.dimension() != start.dimension()) {
        throw new IllegalArgumentException(
            "learner "
                + j
                + " is not a "
                + start.getClass().getSimpleName()
                + " of dimension "
                + start.dimension());
      }
      if (l.hasPending()) {
        throw new IllegalStateException(
            "learner " + j + " has a pending predict; call update(g) first");
      }
    }
    List<T> sorted = new ArrayList<>(learners);
    sorted.sort((a, b) -> compare(state.of(a), state.of(b)));
    start.clearPending();
    return sorted;
  }

  private static int compare(double[][] a, double[][] b) {
    for (int p = 0; p < a.length; p++) {
      for (int i = 0; i < a[p].length; i++) {
        int c =
            Long.compare(Double.doubleToRawLongBits(a[p][i]), Double.doubleToRawLongBits(b[p][i]));
        if (c != 0) {
          return c;
        }
      }
    }
    return 0;
  }

  /** Element {@code i} of every learner's array, in the given order. */
  public static <T> double[] column(List<T> learners, Function<T, double[]> array, int i) {
    double[] c = new double[learners.size()];
    for (int j = 0; j < c.length; j++) {
      c[j] = array.apply(learners.get(j))[i];
    }
    return c;
  }

  /** A scalar of every learner, in the given order. */
  public static <T> double[] scalars(List<T> learners, Function<T, Double> scalar) {
    double[] c = new double[learners.size()];
    for (int j = 0; j < c.length; j++) {
      c[j] = scalar.apply(learners.get(j));
    }
    return c;
  }

  private static boolean differs(double x, double x0) {
    return Double.doubleToRawLongBits(x) != Double.doubleToRawLongBits(x0);
  }

  private static List<Double> contributors(double x0, double[] xs) {
    List<Double> c = new ArrayList<>();
    for (double x : xs) {
      if (differs(x, x0)) {
        c.add(x);
      }
    }
    return c;
  }

  /** SUM: the first contributor's value plus the sum of the other contributors' increments. */
  public static double sum(double x0, double[] xs) {
    List<Double> c = contributors(x0, xs);
    if (c.isEmpty()) {
      return x0;
    }
    double others = 0;
    for (int j = 1; j < c.size(); j++) {
      others += c.get(j) - x0;
    }
    return c.size() == 1 ? c.get(0) : c.get(0) + others;
  }

  /** AVERAGE: the start plus the contributors' mean increment; one contributor's value as is. */
  public static double average(double x0, double[] xs) {
    List<Double> c = contributors(x0, xs);
    if (c.isEmpty()) {
      return x0;
    }
    if (c.size() == 1) {
      return c.get(0);
    }
    double all = 0;
    for (double x : c) {
      all += x - x0;
    }
    return x0 + all / c.size();
  }

  /** MAX over the start and every learner. */
  public static double max(double x0, double[] xs) {
    double r = x0;
    for (double x : xs) {
      r = Math.max(r, x);
    }
    return r;
  }

  /**
   * MEAN: contributors are the learners whose weight moved or whose accumulator weight {@code c}
   * (already {@code max(0, increment)}) is positive. None: {@code w0}; one: its weight; several:
   * {@code sum c w / sum c}, or the plain mean if {@code sum c} is 0 or either sum overflows.
   * {@link #count} tells which case applied.
   */
  public static double mean(double w0, double[] ws, double[] cs) {
    List<double[]> c = new ArrayList<>();
    for (int j = 0; j < ws.length; j++) {
      if (differs(ws[j], w0) || cs[j] > 0) {
        c.add(new double[] {ws[j], cs[j]});
      }
    }
    if (c.isEmpty()) {
      return w0;
    }
    if (c.size() == 1) {
      return c.get(0)[0];
    }
    double sumCw = 0;
    double sumC = 0;
    double sumW = 0;
    for (double[] e : c) {
      sumCw += e[1] * e[0];
      sumC += e[1];
      sumW += e[0];
    }
    return sumC > 0 && Double.isFinite(sumC) && Double.isFinite(sumCw)
        ? sumCw / sumC
        : sumW / c.size();
  }

  /** How many learners contribute to {@link #mean}. */
  public static int count(double w0, double[] ws, double[] cs) {
    int n = 0;
    for (int j = 0; j < ws.length; j++) {
      if (differs(ws[j], w0) || cs[j] > 0) {
        n++;
      }
    }
    return n;
  }

  /** The weights of a MEAN rule: {@code max(0, buffer increment + scalar increments)}. */
  public static double weight(double bufferIncrement, double scalarIncrements) {
    return Math.max(0, bufferIncrement + scalarIncrements);
  }
}
