package org.onlinekernels.kernel;

/**
 * Prints the name of the implementation {@link KernelProvider#get()} chooses in this JVM, for
 * scripts and for the test that starts a JVM without the Vector API module.
 */
public final class ProviderProbe {
  private ProviderProbe() {}

  /** Prints {@code vector} or {@code scalar}. */
  public static void main(String[] args) {
    System.out.println(KernelProvider.get().name());
  }
}
