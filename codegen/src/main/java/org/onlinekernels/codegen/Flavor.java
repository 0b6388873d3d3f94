package org.onlinekernels.codegen;

/**
 * The element types a rule is generated for: {@code FLOAT} and {@code DOUBLE} state, inputs and
 * arithmetic; {@code MIXED}: float inputs and weights, the rule's {@code mixed} fields in float and
 * the others in double, arithmetic in double (the double lanes).
 */
enum Flavor {
  FLOAT("Float", "float", "float", "Float"),
  DOUBLE("Double", "double", "double", "Double"),
  MIXED("Mixed", "double", "float", "Double");

  /** Class-name prefix of this flavor's generated classes. */
  final String prefix;

  /** Arithmetic type of the lane functions. */
  final String t;

  /** Type of inputs {@code x} and of weights read out. */
  final String in;

  /** Prefix of the lanes class and of the engine's typed helpers (virtual lanes, lane math). */
  final String lanes;

  Flavor(String prefix, String t, String in, String lanes) {
    this.prefix = prefix;
    this.t = t;
    this.in = in;
    this.lanes = lanes;
  }

  /** Storage type of {@code field} of {@code rule}. */
  String storage(LaneRule rule, String field) {
    return this == MIXED && rule.mixedFloatFields.contains(field) ? "float" : t;
  }

  /** The ValueLayout constant name for a storage type. */
  static String layout(String storage) {
    return storage.equals("float") ? "F" : "D";
  }

  /** {@code ElementType} constant of the inputs. */
  String elementType() {
    return in.equals("float") ? "FLOAT" : "DOUBLE";
  }

  /** The vector class of the arithmetic type. */
  String vector() {
    return t.equals("float") ? "FloatVector" : "DoubleVector";
  }

  /** The boxed type name of the arithmetic type, for {@code VectorMask<...>}. */
  String boxed() {
    return t.equals("float") ? "Float" : "Double";
  }

  /** Bytes of a storage type. */
  static int bytes(String storage) {
    return storage.equals("float") ? 4 : 8;
  }

  /** The class-name of the generated lanes class of {@code rule} for this flavor. */
  String lanesClass(LaneRule rule) {
    return lanes + rule.name + "Lanes";
  }
}
