package example;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.data.SyntheticScInOL;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;
import org.onlinekernels.params.ScInOLParams;

/** A user's first program: ScInOL2 online on the ScInOL paper's synthetic problem, sparse rows. */
public final class Quickstart {
  private Quickstart() {}

  /** Mean progressive logistic loss of one pass over {@code n} synthetic examples. */
  public static double meanProgressiveLoss(int n) {
    SparseDataset data = SyntheticScInOL.generate(n, 1);
    int d = data.dimension();
    int[] idx = data.indices();
    double[] val = data.values();
    double loss = 0;
    try (Arena arena = Arena.ofConfined();
        ScInOL2Optimizer opt = new ScInOL2Optimizer(d, ElementType.FLOAT, ScInOLParams.defaults())) {
      MemorySegment xi = arena.allocate(ValueLayout.JAVA_INT, d);
      MemorySegment xv = arena.allocate(ValueLayout.JAVA_FLOAT, d);
      for (int r = 0; r < data.size(); r++) {
        int nnz = 0;
        for (int j = data.rowStart(r); j < data.rowEnd(r); j++, nnz++) {
          xi.setAtIndex(ValueLayout.JAVA_INT, nnz, idx[j]);
          xv.setAtIndex(ValueLayout.JAVA_FLOAT, nnz, (float) val[j]);
        }
        double yhat = opt.predictSparse(xi, xv, nnz);
        loss += Loss.LOGISTIC.value(data.label(r), yhat);
        opt.update(Loss.LOGISTIC.derivative(data.label(r), yhat));
      }
    }
    return loss / data.size();
  }

  /** Prints the mean progressive loss. */
  public static void main(String[] args) {
    System.out.println("mean progressive logistic loss: " + meanProgressiveLoss(20_000));
  }
}
