/**
 * The lab's probe of the Spark module ({@link org.onlinekernels.spark.SparkScaling}: {@code
 * local[2]} against {@code local[1]} for the batch job, and the latency of a streaming micro-batch;
 * docs/spark/README.md, "Figures"). It keeps the Spark module's package it was written in (it
 * shipped in the Spark jar until issue #37 moved it here), though it uses public API only.
 * lab/README.md says how to run it.
 */
package org.onlinekernels.spark;
