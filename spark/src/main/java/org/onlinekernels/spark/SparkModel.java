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
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.LinearModel;
import org.onlinekernels.trainer.Metrics;

/**
 * The model a {@link SparkTrainer} job returns: a {@link LinearModel} (saved with its own
 * {@link LinearModel#save}, so the command line's {@code predict} loads it) that also scores and
 * predicts LIBSVM datasets in Spark.
 */
public final class SparkModel {
  private final JobSpec job;
  private final LinearModel model;
  private final Metrics[] epochs;

  SparkModel(JobSpec job, LinearModel model, Metrics[] epochs) {
    this.job = job;
    this.model = model;
    this.epochs = epochs.clone();
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

  /** What the executors need to rebuild the model: weights and how to read them (rebuilt once per JVM copy). */
  private static final class Weights implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private final JobSpec job;
    private final boolean multiclass;
    private final double[][] w;
    private transient LinearModel built;

    Weights(JobSpec job, boolean multiclass, double[][] w) {
      this.job = job;
      this.multiclass = multiclass;
      this.w = w;
    }

    LinearModel model() {
      if (built == null) {
        AlgorithmSpec spec = job.config().algorithm();
        built = new LinearModel(spec, job.config().type(), Loss.parse(job.loss()), multiclass, w);
      }
      return built;
    }
  }

  private Weights weights() {
    return new Weights(job, model.multiclass(), model.weights());
  }

  /**
   * Mean loss and error rate of the model on a LIBSVM dataset, computed in Spark (the loss of a
   * multiclass model sums its one-vs-rest outputs' losses, as the trainer reports it).
   *
   * @param data rows as Spark's {@code libsvm} reader gives them
   * @return the metrics
   */
  public Metrics evaluate(Dataset<Row> data) {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(data.sparkSession().sparkContext());
    Broadcast<Weights> bw = jsc.broadcast(weights());
    try {
      double[] sums = data.select("label", "features").javaRDD()
          .mapPartitions((Iterator<Row> it) -> List.of(score(bw.value().model(), it)).iterator())
          .reduce((a, b) -> new double[] {a[0] + b[0], a[1] + b[1], a[2] + b[2]});
      return new Metrics((long) sums[2], sums[0] / sums[2], sums[1] / sums[2]);
    } finally {
      bw.destroy();
    }
  }

  private static double[] score(LinearModel m, Iterator<Row> it) {
    double[] yhat = new double[m.outputs()];
    Loss loss = m.loss();
    double[] s = new double[3];
    while (it.hasNext()) {
      Row r = it.next();
      SparseVector v = ((Vector) r.get(1)).toSparse();
      m.scores(v.indices(), v.values(), 0, v.indices().length, yhat);
      double y = r.getDouble(0);
      s[0] += Metrics.loss(loss, m.multiclass(), y, yhat, m.outputs());
      s[1] += Metrics.error(m.multiclass(), y, yhat, m.outputs());
      s[2] += 1;
    }
    return s;
  }

  /**
   * Adds a {@code prediction} column to a dataset with a {@code features} column: the class
   * ({@code +1/-1} for a binary model, the arg max of the outputs for a multiclass one).
   *
   * @param data rows with a {@code features} vector column
   * @return {@code data} with the {@code prediction} column
   */
  public Dataset<Row> transform(Dataset<Row> data) {
    Weights w = weights();
    UserDefinedFunction predict = functions.udf((UDF1<Vector, Double>) features -> {
      LinearModel m = w.model();
      SparseVector v = features.toSparse();
      double[] yhat = new double[m.outputs()];
      m.scores(v.indices(), v.values(), 0, v.indices().length, yhat);
      return m.multiclass() ? Metrics.argmax(yhat, yhat.length) : (yhat[0] > 0 ? 1.0 : -1.0);
    }, DataTypes.DoubleType);
    return data.withColumn("prediction", predict.apply(functions.col("features")));
  }
}
