package org.onlinekernels.codegen;

/** A rule source the generator cannot turn into code, with the reason and the place. */
final class GeneratorException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  GeneratorException(String message) {
    super(message);
  }
}
