package org.onlinekernels.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The C contender's {@code exp} and {@code log1p} ({@code bench/c/contender/fdlibm.h}) give Java's
 * {@code StrictMath} bits, on which its bit-for-bit agreement with the library rests (the library's
 * check JVM computes {@code Math.exp} with fdlibm, {@link CCheck}): one million arguments like the
 * logistic loss's ({@code exp} of {@code -|z|}, {@code log1p} of {@code (0, 1]}) and beyond (all of
 * {@code exp}'s range, subnormal and negative {@code log1p} arguments), compared by the program
 * itself ({@code contender --check-libm}). Needs gcc (skipped without it).
 */
@Tag("long")
class FdlibmAgreementTest {
  private static final int N = 1_000_000;

  @Test
  void fdlibmHeaderGivesStrictMathsBits(@TempDir Path dir) throws IOException {
    Optional<CContender> c = CSide.build(WorkloadReport.root());
    assumeTrue(c.isPresent(), CContender.NO_GCC);
    Path records = dir.resolve("libm.bin");
    write(records, N);
    assertEquals(
        "{\"check\": \"libm\", \"n\": " + N + ", \"exp_mismatches\": 0, \"log1p_mismatches\": 0}",
        c.get().checkLibm(records));
  }

  /** {@code n} records {@code (x, StrictMath.exp(x), y, StrictMath.log1p(y))}, seeded. */
  static void write(Path file, int n) throws IOException {
    SplittableRandom r = new SplittableRandom(7);
    try (DataOutputStream out =
        new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16))) {
      for (int i = 0; i < n; i++) {
        double x =
            switch (i % 6) {
              case 0 -> -r.nextDouble() * 750;
              case 1 -> -r.nextDouble() * 2;
              case 2 -> -Math.abs(r.nextDouble() - r.nextDouble()) * 40;
              case 3 -> -Math.scalb(r.nextDouble(), -r.nextInt(60));
              case 4 -> (r.nextDouble() - 0.5) * 1420;
              default ->
                  Double.longBitsToDouble(r.nextLong() & 0xbfffffffffffffffL | 0x8000000000000000L);
            };
        double y =
            switch (i % 4) {
              case 0 -> r.nextDouble();
              case 1 -> StrictMath.exp(x);
              case 2 -> Math.scalb(r.nextDouble(), -r.nextInt(1100));
              default -> (r.nextDouble() - 0.5) * 4;
            };
        for (double v : new double[] {x, StrictMath.exp(x), y, StrictMath.log1p(y)}) {
          out.writeLong(Long.reverseBytes(Double.doubleToRawLongBits(v)));
        }
      }
    }
  }
}
