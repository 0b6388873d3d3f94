/**
 * The Spark ML API of the Spark job: an estimator ({@link
 * org.onlinekernels.spark.ml.OnlineLinearClassifier}) and its model, usable in a {@code Pipeline}.
 */
package org.onlinekernels.spark.ml;
