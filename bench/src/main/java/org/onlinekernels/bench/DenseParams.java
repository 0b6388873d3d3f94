package org.onlinekernels.bench;

import java.lang.foreign.Arena;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The dense benchmark grid of issue #4: dimension {@code d} x element type x implementation. Every
 * dense state extends this; JMH picks the {@code @Param}s up from the superclass. The fields are
 * public so the unit test ({@code BenchSuiteTest}) can run any state at a small {@code d}.
 */
@State(Scope.Thread)
public abstract class DenseParams {
  /** Coordinates per call: L1/L2 (1K, 16K), L2/L3 (256K), DRAM (4M, 16M). */
  @Param({"1024", "16384", "262144", "4194304", "16777216"})
  public int d;

  /** {@code float} or {@code double}. */
  @Param({"float", "double"})
  public String type;

  /** {@code vector} (SIMD) or {@code scalar} (the fallback). */
  @Param({"vector", "scalar"})
  public String impl;

  /** Owns every buffer of the trial; shared so JMH's setup and benchmark threads may differ. */
  protected Arena arena;

  /** Parsed {@link #type}. */
  protected ElementType t;

  /** Parsed {@link #impl}. */
  protected KernelProvider kernels;

  /** Parses the parameters and opens the arena; subclasses call it first in their trial setup. */
  protected final void open() {
    arena = Arena.ofShared();
    t = BenchData.type(type);
    kernels = BenchData.provider(impl);
  }

  /**
   * Size of the JIT warm-up in {@code setUp}. Until C2 has compiled a Vector API loop, the
   * interpreter and C1 box every vector (measured here: about 1 us per coordinate), so the first
   * call at d = 16M would take over 10 s; the states therefore run a few thousand calls at this
   * small size first, which compiles the same code path, before JMH's own warm-up.
   */
  public static final int WARM_D = 4096;

  /** Calls in the JIT warm-up; the unit test lowers it. */
  public int warmCalls = 3000;

  /** Frees the buffers; subclasses call it in their trial teardown. */
  protected final void close() {
    if (arena != null) arena.close();
    arena = null;
  }
}
