package org.onlinekernels.kernel;

import java.lang.foreign.ValueLayout;

/**
 * Element type of a kernel's buffers: state, weights and dense or sparse input values of one kernel
 * instance share it. Shared scalars (counters, norms, {@code H}, step sizes) stay {@code double}
 * and are rounded to the element type once per call.
 *
 * <p>Byte order: every buffer is read and written in the platform's native byte order ({@link
 * java.nio.ByteOrder#nativeOrder()}, little-endian on x86-64 and aarch64), at any byte offset (no
 * alignment is required).
 */
public enum ElementType {
  /** 32-bit IEEE 754 {@code float}. */
  FLOAT(ValueLayout.JAVA_FLOAT_UNALIGNED),
  /** 64-bit IEEE 754 {@code double}. */
  DOUBLE(ValueLayout.JAVA_DOUBLE_UNALIGNED);

  private final ValueLayout layout;

  ElementType(ValueLayout layout) {
    this.layout = layout;
  }

  /** Bytes per element. */
  public int bytes() {
    return (int) layout.byteSize();
  }

  /** The unaligned, native-order layout of one element. */
  public ValueLayout layout() {
    return layout;
  }

  /** Parses {@code float}/{@code double} (case-insensitive). */
  public static ElementType parse(String s) {
    for (ElementType t : values()) {
      if (t.name().equalsIgnoreCase(s)) return t;
    }
    throw new IllegalArgumentException("element type must be float or double, got '" + s + "'");
  }
}
