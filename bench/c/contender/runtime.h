/*
 * What every generated rule of the C contender shares, in one element type: the C twins of the
 * library's engine helpers, in their operation orders. Included once per element type by the
 * generated rules (rules.h in bench/target/generated-sources/c), with
 *   T      the element type (float or double)
 *   TF(x)  x's name in that type (x_float, x_double)
 *   TF_IS_FLOAT  1 for float, 0 for double
 * defined. Java's float arithmetic is C's on x86-64 (SSE; FLT_EVAL_METHOD 0); fused multiply-adds
 * only where Java calls Math.fma (build with -ffp-contract=off).
 */

#if TF_IS_FLOAT
#define FMA fmaf
#define LANES 16 /* FloatVirtualLanes.LANES: a 512-bit vector of floats */
#define EXPM1_DEGREE 8
#define EXPM1_ROUNDER 0x1.8p23f
#define EXPM1_LN2_HI 0x1.62e4p-1f
#define EXPM1_LN2_LO 0x1.7f7d1cp-20f
#else
#define FMA fma
#define LANES 8
#define EXPM1_DEGREE 13
#define EXPM1_ROUNDER 0x1.8p52
#define EXPM1_LN2_HI 0x1.62e42feep-1
#define EXPM1_LN2_LO 0x1.a39ef35793c76p-33
#endif

/* Java's Math.min and Math.max (NaN wins; -0.0 below +0.0). */
static inline T TF(jmin)(T a, T b) {
  if (a != a) return a;
  if (a == 0 && b == 0 && signbit(b)) return b;
  return a <= b ? a : b;
}

static inline T TF(jmax)(T a, T b) {
  if (a != a) return a;
  if (a == 0 && b == 0 && signbit(a)) return b;
  return a >= b ? a : b;
}

/*
 * A dense reduction in FloatVirtualLanes' order (the linear-algebra kernels' sumOfSquares and
 * dot): `acc` accumulators of LANES lanes, each element fused (Math.fma) into partial sum
 * i mod (acc * LANES), the accumulators combined lane-wise ((a0 + a1) + (a2 + a3)), the tail fused
 * into lanes, the lanes summed in a fixed tree.
 */
static T TF(dot_vl)(const T *a, const T *b, int64_t n, int acc) {
  T p[4 * LANES];
  for (int i = 0; i < acc * LANES; i++) p[i] = 0;
  int64_t block = (int64_t) acc * LANES, i = 0;
  for (int64_t bound = n - n % block; i < bound; i += block) {
    for (int c = 0; c < block; c++) p[c] = FMA(a[i + c], b[i + c], p[c]);
  }
  int64_t bound1 = n - n % LANES;
  for (; i < bound1; i += LANES) {
    for (int l = 0; l < LANES; l++) p[l] = FMA(a[i + l], b[i + l], p[l]);
  }
  for (int l = 0; l < LANES; l++) {
    p[l] = acc == 1   ? p[l]
        : acc == 2 ? p[l] + p[l + LANES]
                   : (p[l] + p[l + LANES]) + (p[l + 2 * LANES] + p[l + 3 * LANES]);
  }
  for (int64_t k = bound1; k < n; k++) p[k - bound1] = FMA(a[k], b[k], p[k - bound1]);
  for (int half = LANES >> 1; half > 0; half >>= 1) {
    for (int k = 0; k < half; k++) p[k] = p[k] + p[k + half];
  }
  return p[0];
}

/* FloatLinearAlgebraScalarKernel.dotSparseRange: entry j into s[j mod 2], then s0 + s1. */
static T TF(dot_sparse2)(const T *w, const int32_t *idx, const T *val, int nnz) {
  T s0 = 0, s1 = 0;
  int j = 0;
  for (; j + 1 < nnz; j += 2) {
    s0 += val[j] * w[idx[j]];
    s1 += val[j + 1] * w[idx[j + 1]];
  }
  for (; j < nnz; j++) s0 += val[j] * w[idx[j]];
  return s0 + s1;
}

static T TF(expm1_coeffs)[EXPM1_DEGREE - 1];
static T TF(expm1_log2e);

/* Expm1Constants: 1/k! for k = degree..2 computed in double (then rounded to T), 1/ln 2. */
static void TF(expm1_setup)(void) {
  double f = 1;
  for (int k = 2; k <= EXPM1_DEGREE; k++) {
    f *= k;
    TF(expm1_coeffs)[EXPM1_DEGREE - k] = (T) (1 / f);
  }
  TF(expm1_log2e) = (T) (1 / 0x1.62e42fefa39efp-1); /* 1 / Math.log(2) */
}

/* Expm1Constants.floatPow2 / doublePow2: 2^k from the rounded k + ROUNDER. */
static inline T TF(pow2)(T kr) {
#if TF_IS_FLOAT
  uint32_t b, off = (uint32_t) 127 - (uint32_t) 0x4b400000u; /* 127 - bits(0x1.8p23f) */
#else
  uint64_t b, off = (uint64_t) 1023 - (uint64_t) 0x4338000000000000ull; /* 1023 - bits(0x1.8p52) */
#endif
  memcpy(&b, &kr, sizeof b);
  b = (b + off) << (TF_IS_FLOAT ? 23 : 52);
  T r;
  memcpy(&r, &b, sizeof r);
  return r;
}

/* FloatLaneMath.expm1: the library's own polynomial, fused where it fuses. */
static inline T TF(lane_expm1)(T h) {
  T kr = FMA(h, TF(expm1_log2e), EXPM1_ROUNDER);
  T nk = -(kr - EXPM1_ROUNDER);
  T r = FMA(nk, EXPM1_LN2_LO, FMA(nk, EXPM1_LN2_HI, h));
  T p = TF(expm1_coeffs)[0];
  for (int c = 1; c < EXPM1_DEGREE - 1; c++) p = FMA(p, r, TF(expm1_coeffs)[c]);
  T twoK = TF(pow2)(kr);
  return FMA(FMA(r * r, p, r), twoK, twoK - 1);
}

/*
 * Four lanes of T (GCC's vector extensions), lane l doing entry j + l's scalar operations, so that
 * the library's four partial sums of a row are the lanes; with their masks (all bits set: true).
 * Every function gives, lane by lane, the bits of its scalar twin.
 */
#if TF_IS_FLOAT
typedef float TF(v4) __attribute__((vector_size(16)));
typedef int32_t TF(m4) __attribute__((vector_size(16)));
#else
typedef double TF(v4) __attribute__((vector_size(32)));
typedef int64_t TF(m4) __attribute__((vector_size(32)));
#endif

static inline TF(v4) TF(vset)(T x) { return (TF(v4)){x, x, x, x}; }

static inline TF(m4) TF(vmask)(int b) {
  TF(m4) m = {0, 0, 0, 0};
  return b ? ~m : m;
}

static inline TF(v4) TF(vload)(const T *p) {
  TF(v4) v;
  memcpy(&v, p, sizeof v);
  return v;
}

static inline void TF(vstore)(T *p, TF(v4) v) { memcpy(p, &v, sizeof v); }

/* m ? a : b, lane by lane, bit for bit. */
static inline TF(v4) TF(vsel)(TF(m4) m, TF(v4) a, TF(v4) b) {
  return (TF(v4)) (((TF(m4)) a & m) | ((TF(m4)) b & ~m));
}

static inline TF(m4) TF(vselm)(TF(m4) m, TF(m4) a, TF(m4) b) { return (a & m) | (b & ~m); }

static inline TF(m4) TF(vsign)(void) { return (TF(m4)) TF(vset)(-0.0); }

static inline TF(v4) TF(vabs)(TF(v4) a) { return (TF(v4)) ((TF(m4)) a & ~TF(vsign)()); }

static inline TF(v4) TF(vcopysign)(TF(v4) m, TF(v4) s) {
  return (TF(v4)) (((TF(m4)) m & ~TF(vsign)()) | ((TF(m4)) s & TF(vsign)()));
}

/* Java's Math.min lane-wise: a NaN a wins, then a NaN b; equal zeros give -0 if either is. */
static inline TF(v4) TF(vjmin)(TF(v4) a, TF(v4) b) {
  TF(v4) r = TF(vsel)(a < b, a, b);
  r = TF(vsel)(a == b, (TF(v4)) ((TF(m4)) a | (TF(m4)) b), r);
  return TF(vsel)(a != a, a, r);
}

/* Java's Math.max lane-wise: equal zeros give +0 unless both are -0. */
static inline TF(v4) TF(vjmax)(TF(v4) a, TF(v4) b) {
  TF(v4) r = TF(vsel)(a > b, a, b);
  r = TF(vsel)(a == b, (TF(v4)) ((TF(m4)) a & (TF(m4)) b), r);
  return TF(vsel)(a != a, a, r);
}

#if TF_IS_FLOAT
#define SQRT sqrtf
#else
#define SQRT sqrt
#endif

static inline TF(v4) TF(vsqrt)(TF(v4) a) {
  return (TF(v4)){SQRT(a[0]), SQRT(a[1]), SQRT(a[2]), SQRT(a[3])};
}

static inline TF(v4) TF(vfma)(TF(v4) a, TF(v4) b, TF(v4) c) {
  return (TF(v4)){FMA(a[0], b[0], c[0]), FMA(a[1], b[1], c[1]), FMA(a[2], b[2], c[2]),
                  FMA(a[3], b[3], c[3])};
}

static inline TF(v4) TF(vexpm1)(TF(v4) h) {
  return (TF(v4)){TF(lane_expm1)(h[0]), TF(lane_expm1)(h[1]), TF(lane_expm1)(h[2]),
                  TF(lane_expm1)(h[3])};
}

/*
 * Four records of 4 (or 2) fields into the fields' arrays at [j, j + 4), and back: whole-record
 * loads and stores, the fields transposed in registers. A gathered round's gather and scatter,
 * the same values as field by field.
 */
static inline void TF(gather4x4)(const T *r0, const T *r1, const T *r2, const T *r3, T *f0, T *f1,
    T *f2, T *f3) {
  TF(v4) a = TF(vload)(r0), b = TF(vload)(r1), c = TF(vload)(r2), d = TF(vload)(r3);
  TF(v4) t0 = __builtin_shufflevector(a, b, 0, 4, 1, 5), t1 = __builtin_shufflevector(a, b, 2, 6, 3, 7);
  TF(v4) t2 = __builtin_shufflevector(c, d, 0, 4, 1, 5), t3 = __builtin_shufflevector(c, d, 2, 6, 3, 7);
  TF(vstore)(f0, __builtin_shufflevector(t0, t2, 0, 1, 4, 5));
  TF(vstore)(f1, __builtin_shufflevector(t0, t2, 2, 3, 6, 7));
  TF(vstore)(f2, __builtin_shufflevector(t1, t3, 0, 1, 4, 5));
  TF(vstore)(f3, __builtin_shufflevector(t1, t3, 2, 3, 6, 7));
}

static inline void TF(scatter4x4)(T *r0, T *r1, T *r2, T *r3, TF(v4) f0, TF(v4) f1, TF(v4) f2,
    TF(v4) f3) {
  TF(v4) t0 = __builtin_shufflevector(f0, f1, 0, 4, 1, 5), t1 = __builtin_shufflevector(f0, f1, 2, 6, 3, 7);
  TF(v4) t2 = __builtin_shufflevector(f2, f3, 0, 4, 1, 5), t3 = __builtin_shufflevector(f2, f3, 2, 6, 3, 7);
  TF(vstore)(r0, __builtin_shufflevector(t0, t2, 0, 1, 4, 5));
  TF(vstore)(r1, __builtin_shufflevector(t0, t2, 2, 3, 6, 7));
  TF(vstore)(r2, __builtin_shufflevector(t1, t3, 0, 1, 4, 5));
  TF(vstore)(r3, __builtin_shufflevector(t1, t3, 2, 3, 6, 7));
}

#if TF_IS_FLOAT
typedef float TF(v2) __attribute__((vector_size(8)));
#else
typedef double TF(v2) __attribute__((vector_size(16)));
#endif

static inline TF(v2) TF(vload2)(const T *p) {
  TF(v2) v;
  memcpy(&v, p, sizeof v);
  return v;
}

static inline void TF(vstore2)(T *p, TF(v2) v) { memcpy(p, &v, sizeof v); }

static inline void TF(gather4x2)(const T *r0, const T *r1, const T *r2, const T *r3, T *f0, T *f1) {
  TF(v4) a = __builtin_shufflevector(TF(vload2)(r0), TF(vload2)(r1), 0, 1, 2, 3);
  TF(v4) b = __builtin_shufflevector(TF(vload2)(r2), TF(vload2)(r3), 0, 1, 2, 3);
  TF(vstore)(f0, __builtin_shufflevector(a, b, 0, 2, 4, 6));
  TF(vstore)(f1, __builtin_shufflevector(a, b, 1, 3, 5, 7));
}

static inline void TF(scatter4x2)(T *r0, T *r1, T *r2, T *r3, TF(v4) f0, TF(v4) f1) {
  TF(v4) a = __builtin_shufflevector(f0, f1, 0, 4, 1, 5), b = __builtin_shufflevector(f0, f1, 2, 6, 3, 7);
  TF(vstore2)(r0, __builtin_shufflevector(a, a, 0, 1));
  TF(vstore2)(r1, __builtin_shufflevector(a, a, 2, 3));
  TF(vstore2)(r2, __builtin_shufflevector(b, b, 0, 1));
  TF(vstore2)(r3, __builtin_shufflevector(b, b, 2, 3));
}

#undef SQRT
#undef FMA
#undef LANES
#undef EXPM1_DEGREE
#undef EXPM1_ROUNDER
#undef EXPM1_LN2_HI
#undef EXPM1_LN2_LO
