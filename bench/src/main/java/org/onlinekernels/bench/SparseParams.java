package org.onlinekernels.bench;

import java.lang.foreign.Arena;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The sparse grid of issue #4: d = 2^22, nnz in {16, 128, 1024}, x element type x implementation,
 * with a pre-generated {@link SparsePool} cycled per call. Time is per call; the report divides by
 * {@code nnz}.
 */
@State(Scope.Thread)
public abstract class SparseParams {
  /** Model dimension; fixed by the issue, a parameter only so the unit test can shrink it. */
  @Param({"4194304"})
  public int d;

  /** Nonzeros per sparse vector. */
  @Param({"16", "128", "1024"})
  public int nnz;

  /** {@code float} or {@code double}. */
  @Param({"float", "double"})
  public String type;

  /** {@code vector} or {@code scalar}. */
  @Param({"vector", "scalar"})
  public String impl;

  /** Total nonzeros in the pool (not a JMH parameter; the unit test lowers it). */
  public int poolNonzeros = 1 << 20;

  /**
   * Calls run in the trial setup, before JMH's warm-up, so that C2 has compiled the Vector API code
   * (see {@code DenseParams.WARM_D}); the unit test lowers it.
   */
  public int warmCalls = 5000;

  /** Owns every buffer of the trial. */
  protected Arena arena;

  /** Parsed {@link #type}. */
  protected ElementType t;

  /** Parsed {@link #impl}. */
  protected KernelProvider kernels;

  /** The cycled inputs. */
  protected SparsePool pool;

  /** Parses the parameters, opens the arena and builds the pool. */
  protected final void open() {
    arena = Arena.ofShared();
    t = BenchData.type(type);
    kernels = BenchData.provider(impl);
    pool = new SparsePool(arena, t, d, nnz, poolNonzeros, BenchData.SEED_SPARSE);
  }

  /** Frees the buffers. */
  protected final void close() {
    if (arena != null) arena.close();
    arena = null;
  }
}
