/**
 * Training on Apache Spark (provided): {@link org.onlinekernels.spark.SparkTrainer} trains on a
 * {@code Dataset} with the library's kernels inside the partitions and merges the partitions'
 * learners by merge summaries combined up a tree ({@link org.onlinekernels.spark.TreeMerge});
 * {@link org.onlinekernels.spark.StreamingTrainer} trains on a Structured Streaming query. See
 * docs/spark/README.md.
 */
package org.onlinekernels.spark;
