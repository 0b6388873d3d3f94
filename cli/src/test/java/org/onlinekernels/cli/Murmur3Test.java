package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.apache.commons.codec.digest.MurmurHash3;
import org.junit.jupiter.api.Test;

/** The feature hash read four bytes at a time against Apache Commons Codec's MurmurHash3. */
class Murmur3Test {
  @Test
  void equalsCommonsCodecForEveryLengthOffsetAndSeed() {
    SplittableRandom r = new SplittableRandom(35);
    byte[] b = new byte[64];
    for (int round = 0; round < 200; round++) {
      r.nextBytes(b); // every byte value, the high ones (negative in Java) too
      int seed = round < 2 ? round - 1 : r.nextInt();
      for (int off = 0; off < 8; off++) {
        for (int len = 0; off + len <= b.length; len++) {
          assertEquals(
              MurmurHash3.hash32x86(b, off, len, seed),
              Murmur3.hash(b, off, len, seed),
              "offset " + off + ", length " + len + ", seed " + seed);
        }
      }
    }
  }

  @Test
  void aTailAtTheArraysEndIsReadByteByByte() {
    SplittableRandom r = new SplittableRandom(36);
    for (int n = 0; n < 12; n++) {
      byte[] b = new byte[n];
      r.nextBytes(b);
      for (int off = 0; off <= n; off++) {
        assertEquals(
            MurmurHash3.hash32x86(b, off, n - off, 7),
            Murmur3.hash(b, off, n - off, 7),
            "the last " + (n - off) + " bytes of " + n);
      }
    }
  }
}
