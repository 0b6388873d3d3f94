/**
 * The Spark ML API of the Spark job: an estimator ({@link
 * org.onlinekernels.spark.ml.OnlineLinearClassifier}) and its model, with Params, {@code Pipeline}
 * support, save and load.
 */
package org.onlinekernels.spark.ml;
