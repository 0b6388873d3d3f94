package org.onlinekernels.spark;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * What a {@link SparkTrainer} job returns: the merged {@link LinearModel} (saved with its own
 * {@link LinearModel#save}, so the command line's {@code predict} loads it) and the progressive
 * metrics of each epoch; it also scores a data set in Spark. (The Spark ML API is {@code
 * ml.OnlineLinearClassifier}.)
 */
public final class SparkModel {
  private final LinearModel model;
  private final Metrics[] epochs;
  private final JobTiming timing;

  SparkModel(LinearModel model, Metrics[] epochs, JobTiming timing) {
    this.model = model;
    this.epochs = epochs.clone();
    this.timing = timing;
  }

  /** Where the job's time went: partitioning, training, merging. */
  public JobTiming timing() {
    return timing;
  }

  /** The merged linear model. */
  public LinearModel model() {
    return model;
  }

  /** Progressive metrics of each epoch, summed over the partitions. */
  public Metrics[] epochs() {
    return epochs.clone();
  }

  /**
   * Writes the model file the command line reads ({@link LinearModel#save}).
   *
   * @param file destination on the driver's file system
   * @throws IOException if it cannot be written
   */
  public void save(Path file) throws IOException {
    model.save(file);
  }

  /**
   * Mean loss and error rate of the model on {@code data}'s {@code label} and {@code features}
   * columns, computed in Spark, labels read as the trainer read them (the loss of a multiclass
   * model sums its one-vs-rest outputs' losses, as the trainer reports it).
   */
  public Metrics evaluate(Dataset<Row> data) {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(data.sparkSession().sparkContext());
    Labels labels = model.multiclass() ? Labels.of(model.outputs()) : Labels.of(2);
    Broadcast<ShippedModel> bw = jsc.broadcast(new ShippedModel(model));
    try {
      double[] sums =
          data.select(functions.col("label").cast(DataTypes.DoubleType), functions.col("features"))
              .javaRDD()
              .mapPartitions(
                  (Iterator<Row> it) -> List.of(score(bw.value().model(), labels, it)).iterator())
              .reduce((a, b) -> new double[] {a[0] + b[0], a[1] + b[1], a[2] + b[2]});
      return new Metrics((long) sums[2], sums[0] / sums[2], sums[1] / sums[2]);
    } finally {
      bw.destroy();
    }
  }

  private static double[] score(LinearModel m, Labels labels, Iterator<Row> it) {
    double[] yhat = new double[m.outputs()];
    Loss loss = m.loss();
    double[] s = new double[3];
    while (it.hasNext()) {
      Row r = it.next();
      SparseVector v = ((Vector) r.get(1)).toSparse();
      m.scores(v.indices(), v.values(), 0, v.indices().length, yhat);
      double y = labels.target(r.getDouble(0));
      s[0] += Metrics.loss(loss, m.multiclass(), y, yhat, m.outputs());
      s[1] += Metrics.error(m.multiclass(), y, yhat, m.outputs());
      s[2] += 1;
    }
    return s;
  }
}
