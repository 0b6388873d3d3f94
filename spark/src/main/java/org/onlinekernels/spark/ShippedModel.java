package org.onlinekernels.spark;

import java.io.Serializable;
import java.util.List;
import java.util.Locale;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * A {@link LinearModel} in a form Spark can ship to the executors (the record is not serializable):
 * its fields as names and arrays, rebuilt once per deserialized copy.
 */
public final class ShippedModel implements Serializable {
  private static final long serialVersionUID = 1L;
  private final String algorithm;
  private final String params;
  private final String type;
  private final String loss;
  private final boolean multiclass;
  private final double[][] weights;
  private transient LinearModel built;

  /** The model's fields (the weights are not copied). */
  public ShippedModel(LinearModel m) {
    this.algorithm = m.algorithm().name();
    this.params = m.algorithm().paramString();
    this.type = m.type().name().toLowerCase(Locale.ROOT);
    this.loss = m.loss().name().toLowerCase(Locale.ROOT);
    this.multiclass = m.multiclass();
    this.weights = m.weights();
    this.built = m;
  }

  /** The model. */
  public LinearModel model() {
    if (built == null) {
      built =
          new LinearModel(
              AlgorithmSpec.parse(algorithm, List.of(params)),
              ElementType.parse(type),
              Loss.parse(loss),
              multiclass,
              weights);
    }
    return built;
  }
}
