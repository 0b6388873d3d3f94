/*
 * exp and log1p with the bits of Java's StrictMath (fdlibm 5.3's e_exp.c and s_log1p.c, the
 * algorithms java.lang.FdLibm ports), and of Math.exp on a JVM whose libm intrinsics are off
 * (-XX:+UnlockDiagnosticVMOptions -XX:-UseLibmIntrinsic: Math.exp then runs HotSpot's own
 * fdlibm exp). Math.log1p is StrictMath.log1p on every JVM (no intrinsic). glibc's exp and log1p
 * round differently (measured on 3 million loss inputs: exp differs from HotSpot's default
 * Math.exp in 0.25% of calls, log1p from Java's in 0.06%), hence these.
 *
 * Written for this benchmark after the fdlibm algorithms, whose notice is:
 *   Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
 *   Developed at SunPro, a Sun Microsystems, Inc. business.
 *   Permission to use, copy, modify, and distribute this software is freely granted, provided
 *   that this notice is preserved.
 *
 * Checked bit for bit against StrictMath.exp and StrictMath.log1p of JDK 25 on 10 million
 * arguments each (run.sh --check-libm). Compile with -ffp-contract=off: a contracted
 * multiply-add changes the bits.
 */
#ifndef CONTENDER_FDLIBM_H
#define CONTENDER_FDLIBM_H

#include <stdint.h>
#include <string.h>

static inline int32_t fd_hi(double x) {
  uint64_t b;
  memcpy(&b, &x, 8);
  return (int32_t) (b >> 32);
}

static inline uint32_t fd_lo(double x) {
  uint64_t b;
  memcpy(&b, &x, 8);
  return (uint32_t) b;
}

static inline double fd_with_hi(double x, int32_t hi) {
  uint64_t b;
  memcpy(&b, &x, 8);
  b = ((uint64_t) (uint32_t) hi << 32) | (b & 0xffffffffu);
  memcpy(&x, &b, 8);
  return x;
}

static inline double fd_bits(uint64_t b) {
  double x;
  memcpy(&x, &b, 8);
  return x;
}

/* StrictMath.exp. */
static inline double fd_exp(double x) {
  const double one = 1.0, huge = 1.0e+300;
  const double twom1000 = fd_bits(0x0170000000000000ull);  /* 2^-1000 */
  const double o_threshold = fd_bits(0x40862E42FEFA39EFull);
  const double u_threshold = fd_bits(0xC0874910D52D3051ull);
  const double ln2HI0 = fd_bits(0x3FE62E42FEE00000ull);
  const double ln2LO0 = fd_bits(0x3DEA39EF35793C76ull);
  const double invln2 = fd_bits(0x3FF71547652B82FEull);
  const double P1 = fd_bits(0x3FC555555555553Eull);
  const double P2 = fd_bits(0xBF66C16C16BEBD93ull);
  const double P3 = fd_bits(0x3F11566AAF25DE2Cull);
  const double P4 = fd_bits(0xBEBBBD41C5D26BF1ull);
  const double P5 = fd_bits(0x3E66376972BEA4D0ull);
  double y, hi = 0, lo = 0, c, t;
  int k = 0;
  int32_t hx = fd_hi(x);
  int xsb = (int) (((uint32_t) hx >> 31) & 1);
  uint32_t ahx = (uint32_t) hx & 0x7fffffffu;

  if (ahx >= 0x40862E42u) { /* |x| >= 709.78... */
    if (ahx >= 0x7ff00000u) {
      if (((ahx & 0xfffff) | fd_lo(x)) != 0) return x + x; /* NaN */
      return xsb == 0 ? x : 0.0;
    }
    if (x > o_threshold) return huge * huge;
    if (x < u_threshold) return twom1000 * twom1000;
  }
  if (ahx > 0x3fd62e42u) { /* |x| > 0.5 ln2 */
    if (ahx < 0x3FF0A2B2u) { /* and |x| < 1.5 ln2 */
      hi = xsb == 0 ? x - ln2HI0 : x + ln2HI0;
      lo = xsb == 0 ? ln2LO0 : -ln2LO0;
      k = 1 - xsb - xsb;
    } else {
      k = (int) (invln2 * x + (xsb == 0 ? 0.5 : -0.5));
      t = k;
      hi = x - t * ln2HI0; /* exact */
      lo = t * ln2LO0;
    }
    x = hi - lo;
  } else if (ahx < 0x3e300000u) { /* |x| < 2^-28 */
    if (huge + x > one) return one + x;
  } else {
    k = 0;
  }
  t = x * x;
  c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  if (k == 0) return one - ((x * c) / (c - 2.0) - x);
  y = one - ((lo - (x * c) / (2.0 - c)) - hi);
  if (k >= -1021) {
    return fd_with_hi(y, fd_hi(y) + (k << 20));
  }
  y = fd_with_hi(y, fd_hi(y) + ((k + 1000) << 20));
  return y * twom1000;
}

/* StrictMath.log1p (= Math.log1p). */
static inline double fd_log1p(double x) {
  const double ln2_hi = fd_bits(0x3FE62E42FEE00000ull);
  const double ln2_lo = fd_bits(0x3DEA39EF35793C76ull);
  const double two54 = fd_bits(0x4350000000000000ull);
  const double Lp1 = fd_bits(0x3FE5555555555593ull);
  const double Lp2 = fd_bits(0x3FD999999997FA04ull);
  const double Lp3 = fd_bits(0x3FD2492494229359ull);
  const double Lp4 = fd_bits(0x3FCC71C51D8E78AFull);
  const double Lp5 = fd_bits(0x3FC7466496CB03DEull);
  const double Lp6 = fd_bits(0x3FC39A09D078C69Full);
  const double Lp7 = fd_bits(0x3FC2F112DF3E5244ull);
  const double zero = 0.0;
  double hfsq, f = 0, c = 0, s, z, R, u;
  int32_t k, hx, hu = 0, ax;

  hx = fd_hi(x);
  ax = hx & 0x7fffffff;
  k = 1;
  if (hx < 0x3FDA827A) { /* x < 0.41422 */
    if (ax >= 0x3ff00000) { /* x <= -1.0 */
      if (x == -1.0) return -two54 / zero;
      return (x - x) / (x - x);
    }
    if (ax < 0x3e200000) { /* |x| < 2^-29 */
      if (two54 + x > zero && ax < 0x3c900000) return x; /* |x| < 2^-54 */
      return x - x * x * 0.5;
    }
    if (hx > 0 || hx <= (int32_t) 0xbfd2bec3u) { /* -0.2929 < x < 0.41422 */
      k = 0;
      f = x;
      hu = 1;
    }
  }
  if (hx >= 0x7ff00000) return x + x;
  if (k != 0) {
    if (hx < 0x43400000) {
      u = 1.0 + x;
      hu = fd_hi(u);
      k = (hu >> 20) - 1023;
      c = (k > 0) ? 1.0 - (u - x) : x - (u - 1.0);
      c /= u;
    } else {
      u = x;
      hu = fd_hi(u);
      k = (hu >> 20) - 1023;
      c = 0;
    }
    hu &= 0x000fffff;
    if (hu < 0x6a09e) {
      u = fd_with_hi(u, hu | 0x3ff00000);
    } else {
      k += 1;
      u = fd_with_hi(u, hu | 0x3fe00000);
      hu = (0x00100000 - hu) >> 2;
    }
    f = u - 1.0;
  }
  hfsq = 0.5 * f * f;
  if (hu == 0) { /* |f| < 2^-20 */
    if (f == zero) {
      if (k == 0) return zero;
      c += k * ln2_lo;
      return k * ln2_hi + c;
    }
    R = hfsq * (1.0 - 0.66666666666666666 * f);
    if (k == 0) return f - R;
    return k * ln2_hi - ((R - (k * ln2_lo + c)) - f);
  }
  s = f / (2.0 + f);
  z = s * s;
  R = z * (Lp1 + z * (Lp2 + z * (Lp3 + z * (Lp4 + z * (Lp5 + z * (Lp6 + z * Lp7))))));
  if (k == 0) return f - (hfsq - s * (hfsq + R));
  return k * ln2_hi - ((hfsq - (s * (hfsq + R) + (k * ln2_lo + c))) - f);
}

#endif
