package org.onlinekernels.spark;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.streaming.DataStreamWriter;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * Keeps one model training on a Structured Streaming query: a {@code foreachBatch} sink that trains
 * on every micro-batch, one pass from the state the previous batch left, with the rounds,
 * partitions and pairwise merges of {@link SparkTrainer} (the batch id seeds the partitions'
 * shuffles), and commits the state to a directory on the driver ({@link StreamState}) before the
 * query commits the batch.
 *
 * <p>Restarts: Spark replays, with the same id and rows, a batch it had not committed. A batch
 * whose id the directory has already committed is skipped, and any other starts from the committed
 * state, so a query restarted from its checkpoint (same {@code checkpointLocation}, same state
 * directory, same source) continues bit for bit as if it had never stopped.
 *
 * <p>The model is readable at any time: {@code <state>/model} is the command line's model file of
 * the last committed batch, replaced atomically ({@link #latest}).
 */
public final class StreamingTrainer implements Serializable {
  private static final long serialVersionUID = 1L;
  private final JobSpec job;
  private final int numFeatures;
  private final Labels labels;
  private final int partitions;
  private final String labelCol;
  private final String featuresCol;
  private final String stateDir;

  /**
   * @param job the rule and its configuration; one pass per batch ({@code job.epochs()} must be 1)
   * @param numFeatures the model's dimension (feature vectors of at most that size)
   * @param numClasses 2: binary labels ({@code 0/1} or {@code -1/+1}); {@code K >= 3}: classes
   *     {@code 0..K-1}, one-vs-rest
   * @param partitions partitions that train learners of their own in each batch
   * @param stateDir the state directory, on the driver's file system
   */
  public StreamingTrainer(
      JobSpec job,
      int numFeatures,
      int numClasses,
      int partitions,
      String labelCol,
      String featuresCol,
      Path stateDir) {
    if (job.epochs() != 1) {
      throw new IllegalArgumentException(
          "a stream is trained in one pass per micro-batch; set epochs to 1, got " + job.epochs());
    }
    if (numFeatures < 1 || partitions < 1) {
      throw new IllegalArgumentException(
          "numFeatures and partitions must be >= 1, got " + numFeatures + " and " + partitions);
    }
    this.job = job;
    this.numFeatures = numFeatures;
    this.labels = Labels.of(numClasses);
    this.partitions = partitions;
    this.labelCol = labelCol;
    this.featuresCol = featuresCol;
    this.stateDir = stateDir.toString();
  }

  /**
   * {@code stream.writeStream()} with this trainer as its {@code foreachBatch} sink; add the
   * query's {@code checkpointLocation} and trigger, then {@code start()}.
   */
  public DataStreamWriter<Row> writer(Dataset<Row> stream) {
    VoidFunction2<Dataset<Row>, Long> sink = this::train;
    return stream.writeStream().foreachBatch(sink);
  }

  /** What identifies the model a state directory holds. */
  private Map<String, String> identity() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("algorithm", job.algorithm());
    m.put("params", job.params());
    m.put("type", job.type());
    m.put("loss", job.loss());
    m.put("d", Integer.toString(numFeatures));
    m.put("classes", Integer.toString(labels.classes()));
    return m;
  }

  /**
   * Trains on one micro-batch (the sink's body; also callable directly with increasing ids).
   *
   * @return the batch's progressive metrics, or null if the batch was skipped (already committed,
   *     or empty)
   */
  public Metrics train(Dataset<Row> batch, Long batchId) throws IOException {
    StreamState state = StreamState.open(Path.of(stateDir), identity());
    if (batchId <= state.lastBatch) {
      return null;
    }
    try (PartitionedRows rows = PartitionedRows.of(batch, labelCol, featuresCol, partitions)) {
      if (rows.n == 0) {
        return null;
      }
      for (double y : rows.labels) {
        labels.target(y);
      }
      try (MergedState merged = new MergedState(job.config(), numFeatures, labels)) {
        state.restore(merged.outputs);
        Metrics m = SparkTrainer.pass(job, rows, merged, batchId);
        state.commit(batchId, state.examples + rows.n, merged.outputs, merged.model());
        return m;
      }
    }
  }

  /** The id of the last committed batch, or -1. */
  public long lastBatch() throws IOException {
    return StreamState.open(Path.of(stateDir), identity()).lastBatch;
  }

  /** The model of the last committed batch in {@code stateDir} (the command line's file). */
  public static LinearModel latest(Path stateDir) throws IOException {
    return LinearModel.load(stateDir.resolve(StreamState.MODEL));
  }
}
