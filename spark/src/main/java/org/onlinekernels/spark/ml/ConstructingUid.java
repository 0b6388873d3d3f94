package org.onlinekernels.spark.ml;

/**
 * Hands a Spark ML stage's uid to its {@code uid()} while the stage's Scala super constructor runs:
 * Spark's traits create their Params there ({@code featuresCol}, ...), and each Param asks its
 * parent's {@code uid()} before the stage's own field is set. The public constructor passes {@link
 * #set}'s token to a private one, whose {@code super()} then finds the uid here ({@link #current});
 * the private constructor {@link Token#take}s it. Java 25 would allow assigning the field before
 * {@code super()}, but the build's Checkstyle (the newest that runs on Maven's JDK 17) cannot parse
 * that, and must check every file.
 */
final class ConstructingUid {
  private static final ThreadLocal<String> UID = new ThreadLocal<>();

  private ConstructingUid() {}

  /** The uid of a stage being constructed on this thread. */
  record Token(String uid) {
    /** The uid, no longer handed to this thread's {@code uid()} calls. */
    String take() {
      UID.remove();
      return uid;
    }
  }

  /** Hands {@code uid} to this thread's {@code uid()} calls until {@link Token#take}. */
  static Token set(String uid) {
    UID.set(uid);
    return new Token(uid);
  }

  /** The uid handed over on this thread (for {@code uid()} during {@code super()}), or null. */
  static String current() {
    return UID.get();
  }
}
