package org.onlinekernels.codegen;

/** A rule source the generator cannot turn into code, with the reason and the place. */
final class GeneratorException extends RuntimeException {
  GeneratorException(String message) {
    super(message);
  }
}
