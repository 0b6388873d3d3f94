package org.onlinekernels.kernel.lanes;

import java.util.List;

/**
 * What the optimizers' engine needs to know of a rule to hold its state and run its forms, as
 * generated from the rule's source: its fields in record order, the fields kept in float under
 * mixed precision, its uniforms in order, the uniforms a per-coordinate variant keeps in buffers,
 * and the factory of its {@link RuleForms}.
 *
 * @param fields state fields in record order
 * @param mixedFloatFields fields kept in float under mixed precision (empty: no mixed form)
 * @param uniforms the uniforms, in the order of the forms' {@code u}
 * @param perCoordinate uniforms kept per coordinate in the per-coordinate variant (empty: none)
 * @param kept the per-entry values a fused round keeps between its halves
 * @param forms the rule's forms for an element type ({@link #FLOAT}, {@link #DOUBLE}, {@link
 *     #MIXED}), provider and variant
 */
public record RuleShape(
    List<String> fields,
    List<String> mixedFloatFields,
    List<String> uniforms,
    List<String> perCoordinate,
    int kept,
    Factory forms) {
  /** Flavor numbers of {@link Factory#of}. */
  public static final int FLOAT = 0, DOUBLE = 1, MIXED = 2;

  /** Makes a rule's forms. */
  @FunctionalInterface
  public interface Factory {
    /**
     * The forms for {@code flavor}, on the vector provider or not, in the per-coordinate variant or
     * not.
     */
    RuleForms of(int flavor, boolean vector, boolean perCoordinate);
  }

  /** Copies the lists. */
  public RuleShape {
    fields = List.copyOf(fields);
    mixedFloatFields = List.copyOf(mixedFloatFields);
    uniforms = List.copyOf(uniforms);
    perCoordinate = List.copyOf(perCoordinate);
  }

  /** Whether the rule has a mixed-precision form. */
  public boolean hasMixed() {
    return !mixedFloatFields.isEmpty();
  }

  /** Index of uniform {@code name} in {@code u}. */
  public int uniform(String name) {
    int k = uniforms.indexOf(name);
    if (k < 0) {
      throw new IllegalArgumentException("no uniform '" + name + "'; the rule has " + uniforms);
    }
    return k;
  }
}
