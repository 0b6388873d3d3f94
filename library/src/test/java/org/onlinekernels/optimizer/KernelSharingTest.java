package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.checkpoint.CheckpointTest;

/**
 * docs/GUARANTEES.md, Threads: "Kernels (*Kernel, KernelProvider) are stateless and thread-safe:
 * share them freely" (issue #41: a claim with no test). One provider instance of each kind shared
 * by four threads at once, each training every optimizer (float and double) on heart_scale's dense
 * rows, started together: each thread's predictions and final state are, bit for bit, those of the
 * same run alone on this thread. A race of threads: the long stage.
 */
@Tag("long")
class KernelSharingTest {
  private static final int THREADS = 4;

  /** Every optimizer's predictions and final state after one dense pass with {@code k}. */
  private static List<Object> pass(KernelProvider k, SparseDataset ds) {
    List<Object> out = new ArrayList<>();
    for (AllOptimizers.Named n : AllOptimizers.all()) {
      for (ElementType t : ElementType.values()) {
        try (Arena a = Arena.ofConfined();
            AbstractOptimizer o = n.factory().create(CheckpointTest.DENSE_D, t, null, k)) {
          out.add(CheckpointTest.runDense(o, ds, 0, ds.size(), a));
          out.add(StateSnapshot.of(o));
        }
      }
    }
    return out;
  }

  @Test
  void kernelsSharedByThreadsGiveEachTheBitsOfARunAlone() throws Exception {
    SparseDataset ds = CheckpointTest.data();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      for (KernelProvider k :
          new KernelProvider[] {KernelProvider.vector(), KernelProvider.scalar()}) {
        List<Object> alone = pass(k, ds);
        CyclicBarrier start = new CyclicBarrier(THREADS);
        List<Future<List<Object>>> shared = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
          shared.add(
              pool.submit(
                  () -> {
                    start.await();
                    return pass(k, ds);
                  }));
        }
        for (Future<List<Object>> f : shared) {
          List<Object> got = f.get(120, TimeUnit.SECONDS);
          for (int j = 0; j < alone.size(); j++) {
            String what = k + ", run " + (j / 2) + " of " + alone.size() / 2;
            if (alone.get(j) instanceof long[] bits) {
              assertArrayEquals(bits, (long[]) got.get(j), what + ": predictions");
            } else {
              StateSnapshot want = (StateSnapshot) alone.get(j);
              StateSnapshot have = (StateSnapshot) got.get(j);
              assertArrayEquals(
                  want.buffers().keySet().toArray(), have.buffers().keySet().toArray(), what);
              for (String b : want.buffers().keySet()) {
                assertArrayEquals(want.buffers().get(b), have.buffers().get(b), what + ": " + b);
              }
              assertArrayEquals(
                  want.scalars().values().toArray(), have.scalars().values().toArray(), what);
            }
          }
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
