package org.onlinekernels.bench.workload;

import com.yahoo.labs.samoa.instances.Attribute;
import com.yahoo.labs.samoa.instances.Instance;
import com.yahoo.labs.samoa.instances.Instances;
import com.yahoo.labs.samoa.instances.InstancesHeader;
import com.yahoo.labs.samoa.instances.SparseInstance;
import java.util.ArrayList;
import java.util.List;
import moa.classifiers.functions.SGD;

/**
 * MOA's {@code moa.classifiers.functions.SGD} with log loss (its other options at their defaults:
 * learning rate 1e-4, L2 decay 1e-4), one per output (one-vs-rest for multiclass data, as our
 * trainer; MOA's SGD is binary only), fed sparse instances in the usual MOA test-then-train loop:
 * {@code getVotesForInstance} then {@code trainOnInstance}. Doubles only.
 *
 * <p>What differs in the work: plain SGD with a bias term is a cheaper rule per nonzero than
 * ScInOL2 or AdaGrad, but MOA's implementation is O(d) per example (its weight decay multiplies
 * every weight, and its sparse dot product walks the weight vector up to the row's last index), so
 * it is only run on the data sets of data/ (d up to 12,549), not on the 2^20 and 2^24 streams,
 * where one pass would take minutes. The instances (with their header of {@code d} numeric
 * attributes and a nominal class) are built once per trial. The loss returned is the mean
 * progressive log loss of MOA's predicted probabilities, summed over outputs (for information; a
 * different model from ours).
 */
public final class MoaPeer implements Contender {
  private final Workload wl;
  private final Instance[] rows;
  private final SGD[] sgd;

  /** Builds the instances of {@code wl}. */
  public MoaPeer(Workload wl) {
    this.wl = wl;
    List<Attribute> atts = new ArrayList<>(wl.d + 1);
    for (int i = 0; i < wl.d; i++) atts.add(new Attribute("f" + i));
    atts.add(new Attribute("class", List.of("-1", "+1")));
    Instances data = new Instances("workload", atts, 0);
    data.setClassIndex(wl.d);
    InstancesHeader header = new InstancesHeader(data);
    rows = new Instance[wl.n];
    for (int r = 0; r < wl.n; r++) {
      int s = wl.start[r];
      int m = wl.start[r + 1] - s;
      int[] ix = new int[m + 1];
      double[] v = new double[m + 1];
      System.arraycopy(wl.idx, s, ix, 0, m);
      System.arraycopy(wl.doubleValues, s, v, 0, m);
      // The class is the last attribute; its value is set per output before each use.
      ix[m] = wl.d;
      Instance inst = new SparseInstance(1.0, v, ix, wl.d + 1);
      inst.setDataset(header);
      rows[r] = inst;
    }
    sgd = new SGD[wl.outputs];
  }

  @Override
  public void reset() {
    for (int k = 0; k < sgd.length; k++) {
      SGD c = new SGD();
      c.lossFunctionOption.setChosenIndex(1);
      c.prepareForUse();
      c.resetLearning();
      sgd[k] = c;
    }
  }

  @Override
  public double pass() {
    double lossSum = 0;
    for (int r = 0; r < wl.n; r++) {
      Instance inst = rows[r];
      double rowLoss = 0;
      for (int k = 0; k < sgd.length; k++) {
        int cls = wl.target(r, k) > 0 ? 1 : 0;
        inst.setClassValue(cls);
        double[] votes = sgd[k].getVotesForInstance(inst);
        // An untrained SGD votes all zeros: its zero model's probability is 1/2.
        double p = votes.length < 2 || votes[0] + votes[1] == 0 ? 0.5 : votes[cls];
        rowLoss += -Math.log(Math.max(p, 1e-300));
        sgd[k].trainOnInstance(inst);
      }
      lossSum += rowLoss;
    }
    return lossSum / wl.n;
  }

  @Override
  public void close() {}
}
