package org.onlinekernels.cli;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * MurmurHash3_x86_32 (Austin Appleby's, as Vowpal Wabbit's {@code uniform_hash} and Apache Commons
 * Codec's {@code MurmurHash3.hash32x86}) of a slice of a byte array, read straight from the array
 * four bytes at a time (a name of up to eight bytes in one load): the feature hashing of {@link
 * VwLine}, without copying a name. The tests hold it to Commons Codec's for every length and
 * alignment.
 */
final class Murmur3 {
  private Murmur3() {}

  private static final int C1 = 0xcc9e2d51;
  private static final int C2 = 0x1b873593;

  /** Four bytes of an array as one little-endian int (any alignment). */
  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  /** Eight bytes of an array as one little-endian long (any alignment). */
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** The 32-bit hash of {@code b[off..off+len)} with {@code seed}. */
  static int hash(byte[] b, int off, int len, int seed) {
    if (len <= Long.BYTES && off + Long.BYTES <= b.length) {
      return upTo8((long) LONGS.get(b, off), len, seed);
    }
    int h = seed;
    int end = off + (len & ~3);
    for (int i = off; i < end; i += 4) {
      h = block(h, (int) INTS.get(b, i));
    }
    int rem = len & 3;
    if (rem != 0) {
      int k;
      if (end + 4 <= b.length) {
        // The tail's bytes in the low end of one load; the bytes past the slice masked off.
        k = (int) INTS.get(b, end) & (-1 >>> (32 - 8 * rem));
      } else {
        k = b[end] & 0xff;
        if (rem > 1) {
          k |= (b[end + 1] & 0xff) << 8;
        }
        if (rem > 2) {
          k |= (b[end + 2] & 0xff) << 16;
        }
      }
      h ^= mixK(k);
    }
    return finish(h, len);
  }

  /**
   * The hash of the first {@code len} (at most eight) bytes of {@code w}, without a branch on the
   * length (a name's length varies from one feature to the next): both blocks are mixed and the
   * right state chosen; the tail is the bytes after the whole blocks, masked, and a tail of none
   * mixes to 0 (as the algorithm, which skips it).
   */
  private static int upTo8(long w, int len, int seed) {
    int lo = (int) w;
    int hi = (int) (w >>> 32);
    int h1 = block(seed, lo);
    int h2 = block(h1, hi);
    int h = len >= 8 ? h2 : len >= 4 ? h1 : seed;
    int tail = (len >= 4 ? hi : lo) & (int) ((1L << ((len & 3) << 3)) - 1);
    return finish(h ^ mixK(tail), len);
  }

  private static int block(int h, int k) {
    return Integer.rotateLeft(h ^ mixK(k), 13) * 5 + 0xe6546b64;
  }

  private static int finish(int h, int len) {
    h ^= len;
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    return h ^ (h >>> 16);
  }

  private static int mixK(int k) {
    return Integer.rotateLeft(k * C1, 15) * C2;
  }
}
