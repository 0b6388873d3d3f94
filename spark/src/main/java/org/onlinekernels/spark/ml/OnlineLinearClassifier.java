package org.onlinekernels.spark.ml;

import java.util.List;
import org.apache.spark.ml.classification.ProbabilisticClassifier;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsWritable;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;
import org.onlinekernels.rules.Rules;
import org.onlinekernels.spark.JobSpec;
import org.onlinekernels.spark.SparkTrainer;

/**
 * The Spark ML estimator of online-kernels: a linear classifier trained online with one of the
 * library's rules ({@link Rules#ALL}), data-parallel over the input's partitions with the merge
 * rules of docs/MERGING.md, logistic loss. Labels {@code 0/1} (or {@code -1/+1}) train one binary
 * output; labels {@code 0..K-1} train K outputs one-vs-rest, as the command line's {@code train}
 * does. Usable as a {@code Pipeline} stage; saved and loaded with {@code write().save(path)} and
 * {@link #load}. Its model is {@link OnlineLinearClassificationModel}.
 */
public final class OnlineLinearClassifier
    extends ProbabilisticClassifier<Vector, OnlineLinearClassifier, OnlineLinearClassificationModel>
    implements DefaultParamsWritable {
  private static final long serialVersionUID = 1L;

  private final String uid;
  private final Param<String> rule;
  private final Param<String> ruleParams;
  private final Param<String> elementType;
  private final IntParam epochs;
  private final IntParam mergePeriod;
  private final LongParam seed;
  private final IntParam numPartitions;

  /** An estimator with a fresh uid and the defaults. */
  public OnlineLinearClassifier() {
    this(Identifiable$.MODULE$.randomUID("onlineLinear"));
  }

  /** An estimator with the given uid (what {@link #load} and {@code copy} use). */
  public OnlineLinearClassifier(String uid) {
    this(ConstructingUid.set(uid));
  }

  private OnlineLinearClassifier(ConstructingUid.Token uid) {
    // Spark's Scala traits create their Params (featuresCol, ...) in the super constructor, and
    // each Param asks its parent's uid() then: ConstructingUid answers.
    super();
    this.uid = uid.take();
    rule =
        new Param<>(
            this,
            "rule",
            "the update rule, one of " + String.join(", ", Rules.names()),
            ParamValidators.inArray(Rules.names()));
    ruleParams =
        new Param<>(
            this, "ruleParams", "the rule's parameters as name=value,... (empty: its defaults)");
    elementType =
        new Param<>(
            this,
            "elementType",
            "element type of the state: float, double or mixed (float weights,"
                + " double accumulators; adagrad and scinol2)",
            ParamValidators.inArray(List.of("float", "double", "mixed")));
    epochs = new IntParam(this, "epochs", "passes over the data (>= 1)", ParamValidators.gtEq(1));
    mergePeriod =
        new IntParam(
            this,
            "mergePeriod",
            "examples (all partitions together) between merges of the"
                + " partitions' learners (>= 0; 0: once per epoch)",
            ParamValidators.gtEq(0));
    seed = new LongParam(this, "seed", "seed of the partitions' shuffles");
    numPartitions =
        new IntParam(
            this,
            "numPartitions",
            "partitions that train learners of their own (>= 0; 0: the"
                + " input's number of partitions)",
            ParamValidators.gtEq(0));
    setDefault(rule, "scinol2");
    setDefault(ruleParams, "");
    setDefault(elementType, "float");
    setDefault(epochs, 1);
    setDefault(mergePeriod, 0);
    setDefault(seed, 1L);
    setDefault(numPartitions, 0);
  }

  @Override
  public String uid() {
    return uid != null ? uid : ConstructingUid.current();
  }

  /** The update rule. */
  public Param<String> rule() {
    return rule;
  }

  /** The rule's parameters, {@code name=value,...}. */
  public Param<String> ruleParams() {
    return ruleParams;
  }

  /** {@code float}, {@code double} or {@code mixed}. */
  public Param<String> elementType() {
    return elementType;
  }

  /** Passes over the data. */
  public IntParam epochs() {
    return epochs;
  }

  /** Examples between merges; 0: once per epoch. */
  public IntParam mergePeriod() {
    return mergePeriod;
  }

  /** Seed of the shuffles. */
  public LongParam seed() {
    return seed;
  }

  /** Partitions; 0: the input's. */
  public IntParam numPartitions() {
    return numPartitions;
  }

  public String getRule() {
    return getOrDefault(rule);
  }

  public String getRuleParams() {
    return getOrDefault(ruleParams);
  }

  public String getElementType() {
    return getOrDefault(elementType);
  }

  public int getEpochs() {
    return (Integer) getOrDefault(epochs);
  }

  public int getMergePeriod() {
    return (Integer) getOrDefault(mergePeriod);
  }

  public long getSeed() {
    return (Long) getOrDefault(seed);
  }

  public int getNumPartitions() {
    return (Integer) getOrDefault(numPartitions);
  }

  public OnlineLinearClassifier setRule(String value) {
    return (OnlineLinearClassifier) set(rule, value);
  }

  public OnlineLinearClassifier setRuleParams(String value) {
    return (OnlineLinearClassifier) set(ruleParams, value);
  }

  public OnlineLinearClassifier setElementType(String value) {
    return (OnlineLinearClassifier) set(elementType, value);
  }

  public OnlineLinearClassifier setEpochs(int value) {
    return (OnlineLinearClassifier) set(epochs, value);
  }

  public OnlineLinearClassifier setMergePeriod(int value) {
    return (OnlineLinearClassifier) set(mergePeriod, value);
  }

  public OnlineLinearClassifier setSeed(long value) {
    return (OnlineLinearClassifier) set(seed, value);
  }

  public OnlineLinearClassifier setNumPartitions(int value) {
    return (OnlineLinearClassifier) set(numPartitions, value);
  }

  /** What the trainer runs: these params, logistic loss, shuffled passes. */
  public JobSpec jobSpec() {
    return new JobSpec(
        getRule(),
        getRuleParams(),
        getElementType(),
        "logistic",
        getEpochs(),
        getSeed(),
        true,
        getMergePeriod());
  }

  @Override
  public OnlineLinearClassificationModel train(Dataset<?> dataset) {
    int p =
        getNumPartitions() > 0 ? getNumPartitions() : Math.max(1, dataset.rdd().getNumPartitions());
    return new OnlineLinearClassificationModel(
        uid, SparkTrainer.train(jobSpec(), dataset, getLabelCol(), getFeaturesCol(), p).model());
  }

  @Override
  public OnlineLinearClassifier copy(ParamMap extra) {
    return defaultCopy(extra);
  }

  /** The reader of saved estimators (Spark's {@code Pipeline} loader calls it by name). */
  public static MLReader<OnlineLinearClassifier> read() {
    return new DefaultParamsReader<>();
  }

  /** An estimator saved with {@code write().save(path)}. */
  public static OnlineLinearClassifier load(String path) {
    return read().load(path);
  }
}
