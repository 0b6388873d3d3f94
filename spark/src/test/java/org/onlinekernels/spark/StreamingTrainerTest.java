package org.onlinekernels.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.onlinekernels.spark.SparkTestSession.data;

import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * Training on a Structured Streaming query in {@code local[2]} (a parquet file source, one file per
 * micro-batch, heart_scale cut in three): the first batch's model is the batch job's on that batch;
 * a query stopped after two batches and restarted from its checkpoint and state directory ends with
 * the bits of a query that ran all three without stopping, and its model file is readable in
 * between; a batch replayed after its state was committed changes nothing; a state directory of
 * another model is refused.
 */
@Tag("long")
class StreamingTrainerTest {
  private static final int D = 13;

  /** Writes heart_scale's rows {@code [90 k, 90 k + 90)} as batch file {@code k} of {@code in}. */
  private static Dataset<Row> chunk(
      SparkSession spark, List<Row> all, StructType schema, int k, Path in, Path tmp)
      throws Exception {
    return ParquetBatches.write(spark, all.subList(90 * k, 90 * k + 90), schema, k, in, tmp);
  }

  private static void runQuery(
      SparkSession spark, StreamingTrainer t, StructType schema, Path in, Path checkpoint)
      throws Exception {
    StreamingQuery q =
        t.writer(
                spark
                    .readStream()
                    .schema(schema)
                    .option("maxFilesPerTrigger", 1)
                    .parquet(in.toString()))
            .option("checkpointLocation", checkpoint.toString())
            .trigger(Trigger.AvailableNow())
            .start();
    q.awaitTermination();
  }

  @Test
  void aRestartedQueryContinuesBitForBit(@TempDir Path tmp) throws Exception {
    SparkSession spark = SparkTestSession.get();
    Dataset<Row> heart =
        spark
            .read()
            .format("libsvm")
            .option("numFeatures", Integer.toString(D))
            .load(data("heart_scale.svm").toString());
    StructType schema = heart.schema();
    List<Row> all = heart.collectAsList();
    JobSpec job = JobSpec.of(TrainerConfig.of(AlgorithmSpec.of("adagrad")), 40);

    // Without stopping: three batches.
    Path inA = tmp.resolve("inA");
    Dataset<Row> first = chunk(spark, all, schema, 0, inA, tmp);
    for (int k = 1; k < 3; k++) {
      chunk(spark, all, schema, k, inA, tmp);
    }
    Path stateA = tmp.resolve("stateA");
    StreamingTrainer a = new StreamingTrainer(job, D, 2, 2, "label", "features", stateA);
    runQuery(spark, a, schema, inA, tmp.resolve("ckA"));
    assertEquals(2, a.lastBatch());
    double[] uninterrupted = StreamingTrainer.latest(stateA).weights()[0];

    // Stopped after two batches, the model read, the third file added, restarted.
    Path inB = tmp.resolve("inB");
    chunk(spark, all, schema, 0, inB, tmp);
    Path stateB = tmp.resolve("stateB");
    StreamingTrainer b = new StreamingTrainer(job, D, 2, 2, "label", "features", stateB);
    runQuery(spark, b, schema, inB, tmp.resolve("ckB"));
    assertEquals(0, b.lastBatch());
    // Batch 0 continues nothing: it is the batch job's first pass (pass number = batch id 0).
    assertArrayEquals(
        SparkTrainer.train(job, first, 2).model().weights()[0],
        StreamingTrainer.latest(stateB).weights()[0]);
    Dataset<Row> second = chunk(spark, all, schema, 1, inB, tmp);
    runQuery(spark, b, schema, inB, tmp.resolve("ckB"));
    assertEquals(1, b.lastBatch());
    // Batch 1 continues batch 0's state: pass number 1 of the batch trainer from that state.
    try (PartitionedRows r0 = PartitionedRows.of(first, "label", "features", 2);
        PartitionedRows r1 = PartitionedRows.of(second, "label", "features", 2);
        MergedState s = new MergedState(job.config(), D, Labels.of(2))) {
      SparkTrainer.pass(job, r0, s, 0);
      SparkTrainer.pass(job, r1, s, 1);
      assertArrayEquals(s.model().weights()[0], StreamingTrainer.latest(stateB).weights()[0]);
    }
    chunk(spark, all, schema, 2, inB, tmp);
    runQuery(spark, b, schema, inB, tmp.resolve("ckB"));
    assertEquals(2, b.lastBatch());
    assertArrayEquals(uninterrupted, StreamingTrainer.latest(stateB).weights()[0]);

    // Spark replays a batch the state directory had committed: skipped, the model unchanged.
    assertNull(b.train(first, 2L));
    assertArrayEquals(uninterrupted, StreamingTrainer.latest(stateB).weights()[0]);

    // Another model on the same directory is refused.
    StreamingTrainer other =
        new StreamingTrainer(
            JobSpec.of(TrainerConfig.of(AlgorithmSpec.of("scinol2"))),
            D,
            2,
            2,
            "label",
            "features",
            stateB);
    assertThrows(IllegalStateException.class, () -> other.train(first, 3L));
  }
}
