package org.onlinekernels.bench.workload;

import java.util.logging.Level;
import java.util.logging.Logger;
import org.tribuo.Model;
import org.tribuo.MutableDataset;
import org.tribuo.classification.Label;
import org.tribuo.classification.LabelFactory;
import org.tribuo.classification.sgd.linear.LinearSGDTrainer;
import org.tribuo.classification.sgd.objectives.LogMulticlass;
import org.tribuo.impl.ArrayExample;
import org.tribuo.math.optimisers.AdaGrad;
import org.tribuo.provenance.SimpleDataSourceProvenance;

/**
 * Tribuo's {@code LinearSGDTrainer}: AdaGrad (learning rate 1 as our {@code adagrad} default,
 * Tribuo's epsilon 1e-6), logistic (softmax) objective {@code LogMulticlass}, one epoch, minibatch
 * 1, no shuffling, no logging. Doubles only.
 *
 * <p>What differs in the work: Tribuo fits a softmax model with a bias (K = 2 outputs for binary
 * data, K for multiclass) rather than one-vs-rest logistic outputs, and it does not predict before
 * training, so it reports no progressive loss ({@link #pass} returns {@code NaN}). Its {@code
 * train} call converts the dataset into its sparse vectors and builds the model object on every
 * pass; that is part of what a Tribuo user pays per fit, so it is timed. The dataset of {@code
 * ArrayExample}s (feature names {@code f<index>}) is built once per trial; rows without features
 * are left out of it (Tribuo refuses them; they would only move the bias), and the report still
 * divides by the workload's row count, which flatters Tribuo by that fraction.
 */
public final class TribuoPeer implements Contender {
  /** Held so that its level stays set: Tribuo logs two INFO lines per {@code train} call. */
  private static final Logger TRIBUO_LOG = Logger.getLogger("org.tribuo");

  private final MutableDataset<Label> dataset;
  private final LinearSGDTrainer trainer;

  /** Rows left out because Tribuo refuses examples without features (austen_lines has some). */
  public int skipped;

  /** The last model (kept so the pass cannot be optimised away, checked by the benchmark). */
  public Model<Label> model;

  /** Builds the Tribuo dataset of {@code wl}. */
  public TribuoPeer(Workload wl) {
    TRIBUO_LOG.setLevel(Level.WARNING);
    LabelFactory f = new LabelFactory();
    dataset = new MutableDataset<>(new SimpleDataSourceProvenance("workload " + wl.spec, f), f);
    String[] names = new String[wl.d];
    for (int r = 0; r < wl.n; r++) {
      int s = wl.start[r];
      int m = wl.start[r + 1] - s;
      if (m == 0) {
        // Tribuo refuses an example without features; such a row only moves the bias.
        skipped++;
        continue;
      }
      String[] fn = new String[m];
      double[] fv = new double[m];
      for (int j = 0; j < m; j++) {
        int i = wl.idx[s + j];
        if (names[i] == null) names[i] = "f" + i;
        fn[j] = names[i];
        fv[j] = wl.doubleValues[s + j];
      }
      String y =
          wl.multiclass ? Integer.toString((int) wl.label[r]) : (wl.label[r] > 0 ? "+1" : "-1");
      dataset.add(new ArrayExample<>(new Label(y), fn, fv));
    }
    trainer = new LinearSGDTrainer(new LogMulticlass(), new AdaGrad(1.0, 1e-6), 1, -1, 1, 1L);
    trainer.setShuffle(false);
  }

  @Override
  public void reset() {
    model = null;
  }

  @Override
  public double pass() {
    model = trainer.train(dataset);
    return Double.NaN;
  }

  @Override
  public void close() {}
}
