/**
 * Training on Apache Spark (docs/spark/README.md): the batch job by iterative parameter mixing
 * ({@link org.onlinekernels.spark.SparkTrainer}: partitions, rounds, a pairwise merge tree), the
 * streaming trainer ({@link org.onlinekernels.spark.StreamingTrainer}), and their command-line
 * entry points for {@code spark-submit} ({@link org.onlinekernels.spark.SparkTrain}, {@link
 * org.onlinekernels.spark.SparkStream}).
 */
package org.onlinekernels.spark;
