package org.onlinekernels.rules.fixedgd;

import java.util.List;
import java.util.Map;
import org.onlinekernels.reference.ReferenceMerge;
import org.onlinekernels.reference.ReferenceModel;
import org.onlinekernels.reference.ReferenceStoredWeightsLearner;
import org.onlinekernels.reference.SparseVec;

/**
 * Step 3 of docs/ADDING_A_RULE.md for {@link FixedRateGd}: the rule in double, on the nonzero
 * entries only: {@code w_i = w_i - eta * g_i} with {@code g_i = g * x_i}.
 */
public final class ReferenceFixedRateGd extends ReferenceStoredWeightsLearner {
  private final FixedRateGdParams p;

  /** A learner at its initial state, {@code w = 0}. */
  public ReferenceFixedRateGd(int d, FixedRateGdParams p) {
    super(d);
    if (p == null) {
      throw new IllegalArgumentException("params p must not be null");
    }
    this.p = p;
  }

  @Override
  protected void apply(SparseVec g) {
    for (int k = 0; k < g.nnz; k++) {
      int i = g.idx[k];
      w[i] = w[i] - p.eta() * g.val[k];
    }
  }

  /** Merges learners that started from this state (docs/MERGING.md): {@code w} averaged. */
  public void merge(List<ReferenceFixedRateGd> learners) {
    List<ReferenceFixedRateGd> o =
        ReferenceMerge.canonical(this, learners, l -> new double[][] {l.w});
    for (int i = 0; i < d; i++) {
      w[i] = ReferenceMerge.average(w[i], ReferenceMerge.column(o, l -> l.w, i));
    }
  }

  /** {@inheritDoc} */
  @Override
  public Map<String, double[]> buffers() {
    return Map.of("w", w);
  }

  /** {@inheritDoc} */
  @Override
  public void mergeLearners(List<? extends ReferenceModel> learners) {
    merge(learnersOf(ReferenceFixedRateGd.class, learners));
  }
}
