package org.onlinekernels.spark.ml;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.spark.ml.classification.ProbabilisticClassificationModel;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsReader$;
import org.apache.spark.ml.util.DefaultParamsWriter$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.onlinekernels.spark.ShippedModel;
import org.onlinekernels.trainer.model.LinearModel;
import scala.Option;
import scala.Tuple3;

/**
 * The model of {@link OnlineLinearClassifier}: a {@link LinearModel} that transforms a data set's
 * {@code featuresCol} into {@code rawPredictionCol} (binary: {@code [-s, s]} for the score {@code s
 * = <w, x>}; K classes: the K one-vs-rest scores), {@code probabilityCol} (binary: the logistic
 * {@code [1 - sigma(s), sigma(s)]}; K classes: the softmax of the scores) and {@code predictionCol}
 * (the class index: binary 1 for the positive class, 0 for the negative, {@code -1} or {@code 0};
 * else the arg max). {@code write().save(path)} writes Spark's metadata and {@code
 * path/online-kernels.model}, the file the command line's {@code predict} reads.
 */
public final class OnlineLinearClassificationModel
    extends ProbabilisticClassificationModel<Vector, OnlineLinearClassificationModel>
    implements MLWritable {
  private static final long serialVersionUID = 1L;

  private final String uid;
  private final ShippedModel model;

  /** A model of {@code model}'s weights. */
  public OnlineLinearClassificationModel(String uid, LinearModel model) {
    this(ConstructingUid.set(uid), model);
  }

  private OnlineLinearClassificationModel(ConstructingUid.Token uid, LinearModel model) {
    super(); // creates the Params, which read uid(): ConstructingUid answers
    this.uid = uid.take();
    this.model = new ShippedModel(model);
  }

  @Override
  public String uid() {
    return uid != null ? uid : ConstructingUid.current();
  }

  /** The linear model (weights, rule, element type, loss, classes). */
  public LinearModel linearModel() {
    return model.model();
  }

  @Override
  public int numClasses() {
    LinearModel m = model.model();
    return m.multiclass() ? m.outputs() : 2;
  }

  @Override
  public int numFeatures() {
    return model.model().dimension();
  }

  @Override
  public Vector predictRaw(Vector features) {
    LinearModel m = model.model();
    SparseVector v = features.toSparse();
    double[] s = new double[m.outputs()];
    m.scores(v.indices(), v.values(), 0, v.indices().length, s);
    return m.multiclass() ? Vectors.dense(s) : Vectors.dense(-s[0], s[0]);
  }

  @Override
  public Vector raw2probabilityInPlace(Vector raw) {
    double[] v = ((DenseVector) raw).values();
    if (!model.model().multiclass()) {
      double s = v[1];
      double p = s >= 0 ? 1 / (1 + Math.exp(-s)) : Math.exp(s) / (1 + Math.exp(s));
      v[0] = 1 - p;
      v[1] = p;
      return raw;
    }
    double max = Double.NEGATIVE_INFINITY;
    for (double x : v) {
      max = Math.max(max, x);
    }
    double sum = 0;
    for (int k = 0; k < v.length; k++) {
      v[k] = Math.exp(v[k] - max);
      sum += v[k];
    }
    for (int k = 0; k < v.length; k++) {
      v[k] /= sum;
    }
    return raw;
  }

  /**
   * Spark's training-summary lookup, declared by two superclasses with Scala's covariant tuple,
   * which Java generics cannot express: the raw type satisfies both (and overriding with it is the
   * unchecked conversion javac reports).
   */
  @Override
  @SuppressWarnings({"rawtypes", "unchecked"})
  public Tuple3 findSummaryModel() {
    return super.findSummaryModel();
  }

  @Override
  public OnlineLinearClassificationModel copy(ParamMap extra) {
    OnlineLinearClassificationModel c =
        copyValues(new OnlineLinearClassificationModel(uid, model.model()), extra);
    return c.setParent(parent());
  }

  @Override
  public MLWriter write() {
    OnlineLinearClassificationModel self = this;
    return new MLWriter() {
      @Override
      public void saveImpl(String path) {
        DefaultParamsWriter$.MODULE$.saveMetadata(self, path, sparkSession());
        try {
          ModelFiles.write(self.linearModel(), path, sparkSession());
        } catch (IOException e) {
          throw new UncheckedIOException(
              "cannot write the model file in " + path + ": " + e.getMessage(), e);
        }
      }
    };
  }

  /** The reader of saved models (Spark's {@code PipelineModel} loader calls it by name). */
  public static MLReader<OnlineLinearClassificationModel> read() {
    return new MLReader<>() {
      @Override
      public OnlineLinearClassificationModel load(String path) {
        DefaultParamsReader.Metadata md =
            DefaultParamsReader$.MODULE$.loadMetadata(
                path, sparkSession(), OnlineLinearClassificationModel.class.getName());
        try {
          OnlineLinearClassificationModel m =
              new OnlineLinearClassificationModel(md.uid(), ModelFiles.read(path, sparkSession()));
          md.getAndSetParams(m, Option.empty());
          return m;
        } catch (IOException e) {
          throw new UncheckedIOException(
              "cannot read the model file in " + path + ": " + e.getMessage(), e);
        }
      }
    };
  }

  /** A model saved with {@code write().save(path)}. */
  public static OnlineLinearClassificationModel load(String path) {
    return read().load(path);
  }
}
