import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.util.SplittableRandom;

/**
 * Writes records (x, StrictMath.exp(x), y, StrictMath.log1p(y)) of little-endian doubles for
 * {@code contender --check-libm}: arguments like the logistic loss's (exp of -|z|, log1p of
 * (0, 1]) and beyond (all of exp's range, subnormal and negative log1p arguments).
 * {@code java bench/c/contender/LibmProbe.java OUT [N]} (N default 10,000,000).
 */
public final class LibmProbe {
  public static void main(String[] args) throws IOException {
    int n = args.length > 1 ? Integer.parseInt(args[1]) : 10_000_000;
    SplittableRandom r = new SplittableRandom(7);
    try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(args[0]), 1 << 16))) {
      for (int i = 0; i < n; i++) {
        double x = switch (i % 6) {
          case 0 -> -r.nextDouble() * 750;
          case 1 -> -r.nextDouble() * 2;
          case 2 -> -Math.abs(r.nextDouble() - r.nextDouble()) * 40;
          case 3 -> -Math.scalb(r.nextDouble(), -r.nextInt(60));
          case 4 -> (r.nextDouble() - 0.5) * 1420;
          default -> Double.longBitsToDouble(r.nextLong() & 0xbfffffffffffffffL | 0x8000000000000000L);
        };
        double y = switch (i % 4) {
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
