package org.onlinekernels.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link WorkloadResult#read}: a run's results file back, header and blank lines skipped. */
class WorkloadResultReadTest {
  private static final WorkloadResult ROW =
      new WorkloadResult(
          "zipf:14:40",
          "c",
          "adagrad",
          "float",
          2500,
          100000,
          1,
          1.5,
          0.1,
          1.25,
          1.5,
          2.0,
          11,
          1.4);

  @Test
  void readsEveryRowAfterTheHeaderAndSkipsBlankLines(@TempDir Path dir) throws Exception {
    Files.write(
        dir.resolve("workload-results.csv"),
        List.of(WorkloadResult.HEADER, ROW.csv(), "", ROW.csv(), "  "));
    assertEquals(List.of(ROW, ROW), WorkloadResult.read(dir));
  }

  @Test
  void aHeaderAloneIsNoResults(@TempDir Path dir) throws Exception {
    Files.write(dir.resolve("workload-results.csv"), List.of(WorkloadResult.HEADER));
    assertEquals(List.of(), WorkloadResult.read(dir));
  }

  @Test
  void aRunWithoutResultsFileSaysWhichFile(@TempDir Path dir) {
    NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> WorkloadResult.read(dir));
    assertEquals(dir.resolve("workload-results.csv").toString(), e.getFile());
  }
}
