package org.onlinekernels.spark.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.onlinekernels.spark.SparkTestSession.data;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.onlinekernels.cli.Main;
import org.onlinekernels.spark.JobSpec;
import org.onlinekernels.spark.SparkTestSession;
import org.onlinekernels.spark.SparkTrainer;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * The Spark ML API in {@code local[2]}: the estimator's Params reach the trainer (its model is, bit
 * for bit, the job's with the same rule, type, epochs, merge period, seed and partitions), it fits
 * in a {@code Pipeline}, the model's columns are the linear model's scores, the logistic
 * probability and the class, a saved pipeline and a saved estimator load back equal, and the
 * command line's {@code predict} reads the saved model file; binary (labels 0/1) and multiclass.
 */
@Tag("long")
class OnlineLinearClassifierTest {
  private static Dataset<Row> read(String file, int d) {
    return SparkTestSession.get()
        .read()
        .format("libsvm")
        .option("numFeatures", Integer.toString(d))
        .load(data(file).toString());
  }

  @Test
  void aBinaryPipelineFitsTransformsSavesAndLoads(@TempDir Path tmp) throws Exception {
    // heart_scale's labels +1/-1 as the 0/1 Spark's classifiers use.
    Dataset<Row> heart =
        read("heart_scale.svm", 13)
            .withColumn("label", functions.when(functions.col("label").gt(0), 1.0).otherwise(0.0));
    OnlineLinearClassifier clf =
        new OnlineLinearClassifier()
            .setRule("adagrad")
            .setRuleParams("eta=0.5")
            .setElementType("double")
            .setEpochs(2)
            .setMergePeriod(100)
            .setSeed(7)
            .setNumPartitions(3);
    PipelineModel fitted = new Pipeline().setStages(new PipelineStage[] {clf}).fit(heart);
    OnlineLinearClassificationModel model = (OnlineLinearClassificationModel) fitted.stages()[0];
    LinearModel m = model.linearModel();
    JobSpec job = new JobSpec("adagrad", "eta=0.5", "double", "logistic", 2, 7, true, 100);
    assertArrayEquals(
        SparkTrainer.train(job, heart, "label", "features", 3).model().weights()[0],
        m.weights()[0]);
    assertEquals(2, model.numClasses());
    assertEquals(13, model.numFeatures());

    List<Row> out =
        fitted
            .transform(heart)
            .select("features", "rawPrediction", "probability", "prediction")
            .collectAsList();
    assertEquals(270, out.size());
    double[] s = new double[1];
    for (Row r : out) {
      SparseVector x = ((Vector) r.get(0)).toSparse();
      m.scores(x.indices(), x.values(), 0, x.indices().length, s);
      assertArrayEquals(new double[] {-s[0], s[0]}, ((Vector) r.get(1)).toArray());
      double p = 1 / (1 + Math.exp(-s[0]));
      assertEquals(p, ((Vector) r.get(2)).apply(1), 1e-15);
      assertEquals(1 - p, ((Vector) r.get(2)).apply(0), 1e-15);
      assertEquals(Double.valueOf(s[0] > 0 ? 1.0 : 0.0), Double.valueOf(r.getDouble(3)));
    }

    // The pipeline saved and loaded predicts the same; the estimator keeps its Params.
    fitted.write().save(tmp.resolve("pipeline").toString());
    PipelineModel loaded = PipelineModel.load(tmp.resolve("pipeline").toString());
    assertEquals(
        fitted.transform(heart).select("probability").collectAsList(),
        loaded.transform(heart).select("probability").collectAsList());
    assertEquals(model.uid(), loaded.stages()[0].uid());
    clf.write().save(tmp.resolve("estimator").toString());
    OnlineLinearClassifier again = OnlineLinearClassifier.load(tmp.resolve("estimator").toString());
    assertEquals(clf.jobSpec(), again.jobSpec());
    assertEquals(3, again.getNumPartitions());

    // The model file in the saved directory is the command line's.
    model.write().save(tmp.resolve("model").toString());
    Path file = tmp.resolve("model").resolve(ModelFiles.FILE);
    assertArrayEquals(m.weights()[0], LinearModel.load(file).weights()[0]);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        Main.run(
            new String[] {
              "predict",
              "--model",
              file.toString(),
              "--data",
              data("heart_scale.svm").toString(),
              "--out",
              tmp.resolve("p.txt").toString()
            },
            new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(err));
    assertEquals(0, code, err.toString());
    assertEquals(270, Files.readAllLines(tmp.resolve("p.txt")).size());

    assertThrows(IllegalArgumentException.class, () -> clf.setRule("nope"));
    assertThrows(IllegalArgumentException.class, () -> clf.setElementType("half"));
  }

  @Test
  void aMulticlassModelPredictsTheArgMaxOfItsOneVsRestScores(@TempDir Path tmp) throws Exception {
    Dataset<Row> digits = read("digits.svm", 64);
    OnlineLinearClassificationModel model =
        new OnlineLinearClassifier().setNumPartitions(2).fit(digits);
    LinearModel m = model.linearModel();
    assertEquals(10, model.numClasses());
    JobSpec job = new JobSpec("scinol2", "", "float", "logistic", 1, 1, true, 0);
    double[][] w = SparkTrainer.train(job, digits, "label", "features", 2).model().weights();
    for (int c = 0; c < 10; c++) {
      assertArrayEquals(w[c], m.weights()[c], "output " + c);
    }
    model.write().save(tmp.resolve("m").toString());
    OnlineLinearClassificationModel loaded =
        OnlineLinearClassificationModel.load(tmp.resolve("m").toString());
    List<Row> out =
        loaded
            .transform(digits)
            .select("features", "probability", "prediction")
            .limit(300)
            .collectAsList();
    double[] s = new double[10];
    for (Row r : out) {
      SparseVector x = ((Vector) r.get(0)).toSparse();
      m.scores(x.indices(), x.values(), 0, x.indices().length, s);
      int best = 0;
      for (int c = 1; c < 10; c++) {
        best = s[c] > s[best] ? c : best;
      }
      assertEquals(Double.valueOf(best), Double.valueOf(r.getDouble(2)));
      double[] p = ((Vector) r.get(1)).toArray();
      assertEquals(1.0, java.util.Arrays.stream(p).sum(), 1e-12);
      assertEquals(
          Double.valueOf(best), Double.valueOf(org.onlinekernels.trainer.Metrics.argmax(p, 10)));
    }
  }
}
