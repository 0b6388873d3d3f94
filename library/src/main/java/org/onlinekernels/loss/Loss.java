package org.onlinekernels.loss;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The losses of ALGORITHMS.md ("Losses" table), as functions of the label {@code y} and the
 * prediction {@code yhat}, with their derivative {@code d l / d yhat} (the scalar {@code g} that
 * the linear-model form of every learner takes).
 *
 * <p>Every value and derivative is computed so that it neither overflows nor loses the result to
 * cancellation for large {@code |yhat|}: the logistic loss is split on the sign of {@code z = y *
 * yhat} so that {@code exp} is only ever taken of a non-positive number. NaN inputs give NaN; the
 * learners refuse a NaN {@code g}, so such an input is caught there.
 */
public enum Loss {
  /** {@code ln(1 + exp(-y yhat))}, derivative {@code -y / (1 + exp(y yhat))}. */
  LOGISTIC {
    @Override
    public double value(double y, double yhat) {
      double z = y * yhat;
      // exp(-z) for z > 0 and exp(z) for z <= 0 are both <= 1: no overflow, and log1p keeps
      // the tiny losses of confident correct predictions instead of rounding them to 0.
      return z > 0 ? Math.log1p(Math.exp(-z)) : -z + Math.log1p(Math.exp(z));
    }

    @Override
    public double derivative(double y, double yhat) {
      double z = y * yhat;
      if (z >= 0) {
        // -y / (1 + exp(z)) multiplied through by exp(-z), which is <= 1.
        double e = Math.exp(-z);
        return -y * e / (1 + e);
      }
      return -y / (1 + Math.exp(z));
    }

    @Override
    public double derivativeAndValue(double y, double yhat, double[] values, int at) {
      // value and derivative both take exp(-|z|) (exp(-z) where z > 0, exp(z) where z <= 0):
      // one exp for both, the same bits. min(z, -z) rather than -|z|: a NaN z keeps its sign bit,
      // as exp(z) in the separate calls does.
      double z = y * yhat;
      double e = Math.exp(Math.min(z, -z));
      values[at] = z > 0 ? Math.log1p(e) : -z + Math.log1p(e);
      return z >= 0 ? -y * e / (1 + e) : -y / (1 + e);
    }
  },

  /** {@code max(0, 1 - y yhat)}, derivative {@code -y} if {@code y yhat <= 1}, else 0. */
  HINGE {
    @Override
    public double value(double y, double yhat) {
      return Math.max(0, 1 - y * yhat);
    }

    @Override
    public double derivative(double y, double yhat) {
      // The kink y yhat = 1 takes the subgradient -y, as the table says.
      return y * yhat <= 1 ? -y : 0;
    }
  },

  /** {@code |yhat - y|}, derivative {@code sgn(yhat - y)} with {@code sgn(0) = 0}. */
  ABSOLUTE {
    @Override
    public double value(double y, double yhat) {
      return Math.abs(yhat - y);
    }

    @Override
    public double derivative(double y, double yhat) {
      double r = yhat - y;
      // Explicit branches so that sgn(0) is +0.0 (Math.signum(-0.0) would be -0.0).
      if (r > 0) return 1;
      if (r < 0) return -1;
      return r == 0 ? 0.0 : r; // r is NaN here only if an input was NaN
    }
  },

  /** {@code (yhat - y)^2 / 2}, derivative {@code yhat - y}. */
  SQUARED {
    @Override
    public double value(double y, double yhat) {
      double r = yhat - y;
      return r * r / 2;
    }

    @Override
    public double derivative(double y, double yhat) {
      return yhat - y;
    }
  };

  /**
   * The loss {@code l(y, yhat)}.
   *
   * @param y the label ({@code +1/-1} for the classification losses)
   * @param yhat the prediction
   * @return the loss, {@code >= 0}
   */
  public abstract double value(double y, double yhat);

  /**
   * The derivative (for hinge and absolute: the subgradient the table fixes) {@code d l(y, yhat) /
   * d yhat}.
   *
   * @param y the label
   * @param yhat the prediction
   * @return the derivative with respect to {@code yhat}
   */
  public abstract double derivative(double y, double yhat);

  /**
   * {@link #derivative}, with {@link #value} of the same arguments stored in {@code values[at]}:
   * the same bits as the two calls, sharing their work where they can (the logistic loss takes one
   * {@code exp} instead of two). For trainers that report the progressive loss.
   *
   * @param y the label
   * @param yhat the prediction
   * @param values receives the loss at {@code at}
   * @param at where in {@code values}
   * @return the derivative with respect to {@code yhat}
   */
  public double derivativeAndValue(double y, double yhat, double[] values, int at) {
    values[at] = value(y, yhat);
    return derivative(y, yhat);
  }

  /**
   * The loss with the given name, ignoring case and surrounding blanks.
   *
   * @param name one of {@code logistic, hinge, absolute, squared}
   * @return the matching loss
   * @throws IllegalArgumentException if {@code name} is null or names no loss; the message lists
   *     the valid names
   */
  public static Loss parse(String name) {
    if (name != null) {
      String n = name.trim().toUpperCase(Locale.ROOT);
      for (Loss l : values()) {
        if (l.name().equals(n)) {
          return l;
        }
      }
    }
    String valid =
        Arrays.stream(values())
            .map(l -> l.name().toLowerCase(Locale.ROOT))
            .collect(Collectors.joining(", "));
    throw new IllegalArgumentException("unknown loss '" + name + "'; valid names: " + valid);
  }
}
