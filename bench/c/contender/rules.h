/*
 * The update rules, one fused round (predict, logistic loss and derivative, update) per row and
 * output, in the library's operation order (the scalar kernels of src/main/java/org/onlinekernels/
 * kernel/scalar and the optimizers of .../optimizer, default parameters). Included twice by
 * contender.c, with CONTENDER_FLOAT 1 (float) and 0 (double): the Double twins of the library are
 * generated from the Float sources by the same substitution (pom.xml, "Float/double twins").
 *
 * State: one record per coordinate (a coordinate's variables adjacent: one cache line per random
 * coordinate). ScInOL2 and AdaGrad gather the row's records into scratch, compute, and scatter
 * them back, as the library's fused rounds do (predict reads only; the update writes); the other
 * rules follow the library's predictSparse/updateSparse pairs (ScInOL1 writes M and beta in its
 * predict, as the library does). Every float rule keeps float arithmetic where Java does (C's float
 * arithmetic on x86-64 is single precision), double where Java uses double scalars, and fused
 * multiply-adds exactly where Java calls Math.fma (compile with -ffp-contract=off).
 */

#if CONTENDER_FLOAT
#define T float
#define SFX(x) x##_f
#define SQRT sqrtf
#define FABS fabsf
#define COPYSIGN copysignf
#define FMA fmaf
#define T_MAX FLT_MAX
#define WEALTH_CAP 0x1p90f /* ScInOL2Kernel.FLOAT_WEALTH_CAP */
#define EXP_CAP 64.0f      /* ScInOL1Kernel.FLOAT_EXP_CAP */
#define LANES 16           /* FloatVirtualLanes.LANES: a 512-bit vector of floats */
#define EXPM1_DEGREE 8
#define T_NAME "float"
#else
#define T double
#define SFX(x) x##_d
#define SQRT sqrt
#define FABS fabs
#define COPYSIGN copysign
#define FMA fma
#define T_MAX DBL_MAX
#define WEALTH_CAP 0x1p900
#define EXP_CAP 640.0
#define LANES 8
#define EXPM1_DEGREE 13
#define T_NAME "double"
#endif

/*
 * Four lanes of T for the ScInOL2 predict: SSE4.1 for float (a 16-byte record is one xmm), AVX for
 * double (a 32-byte record is one ymm). Without them (or with -DCONTENDER_NO_SIMD) the scalar
 * body runs alone; both give the same bits.
 */
#if CONTENDER_FLOAT && defined(__SSE4_1__) && !defined(CONTENDER_NO_SIMD)
#define CONTENDER_SIMD 1
#define VT __m128
#define V_REC(p) _mm_loadu_ps((const float *) (p))
#define V_STORE_REC(p, v) _mm_storeu_ps((float *) (p), v)
#define V_TRANSPOSE4(a, b, c, d) _MM_TRANSPOSE4_PS(a, b, c, d)
#define V_LOADU(p) _mm_loadu_ps(p)
#define V_STOREU(p, v) _mm_storeu_ps(p, v)
#define V_ZERO() _mm_setzero_ps()
#define V_SET1(x) _mm_set1_ps((float) (x))
#define V_ADD _mm_add_ps
#define V_SUB _mm_sub_ps
#define V_MUL _mm_mul_ps
#define V_DIV _mm_div_ps
#define V_SQRT _mm_sqrt_ps
#define V_MIN _mm_min_ps /* min(a, b) = a < b ? a : b: a NaN b comes back */
#define V_MAX _mm_max_ps /* max(a, b) = a > b ? a : b */
#define V_AND _mm_and_ps
#define V_OR _mm_or_ps
#define V_ANDNOT _mm_andnot_ps /* ~a & b */
#define V_CMPGT _mm_cmpgt_ps
#define V_CMPEQ _mm_cmpeq_ps
#define V_CMPNEQ _mm_cmpneq_ps
#define V_BLEND(a, b, mask) _mm_blendv_ps(a, b, mask) /* mask ? b : a */
#elif !CONTENDER_FLOAT && defined(__AVX__) && !defined(CONTENDER_NO_SIMD)
#define CONTENDER_SIMD 1
#define VT __m256d
#define V_REC(p) _mm256_loadu_pd((const double *) (p))
#define V_STORE_REC(p, v) _mm256_storeu_pd((double *) (p), v)
#define V_TRANSPOSE4(a, b, c, d)                              \
  do {                                                        \
    __m256d t0_ = _mm256_unpacklo_pd(a, b);                   \
    __m256d t1_ = _mm256_unpackhi_pd(a, b);                   \
    __m256d t2_ = _mm256_unpacklo_pd(c, d);                   \
    __m256d t3_ = _mm256_unpackhi_pd(c, d);                   \
    a = _mm256_permute2f128_pd(t0_, t2_, 0x20);               \
    b = _mm256_permute2f128_pd(t1_, t3_, 0x20);               \
    c = _mm256_permute2f128_pd(t0_, t2_, 0x31);               \
    d = _mm256_permute2f128_pd(t1_, t3_, 0x31);               \
  } while (0)
#define V_LOADU(p) _mm256_loadu_pd(p)
#define V_STOREU(p, v) _mm256_storeu_pd(p, v)
#define V_ZERO() _mm256_setzero_pd()
#define V_SET1(x) _mm256_set1_pd((double) (x))
#define V_ADD _mm256_add_pd
#define V_SUB _mm256_sub_pd
#define V_MUL _mm256_mul_pd
#define V_DIV _mm256_div_pd
#define V_SQRT _mm256_sqrt_pd
#define V_MIN _mm256_min_pd
#define V_MAX _mm256_max_pd
#define V_AND _mm256_and_pd
#define V_OR _mm256_or_pd
#define V_ANDNOT _mm256_andnot_pd
#define V_CMPGT(a, b) _mm256_cmp_pd(a, b, _CMP_GT_OQ)
#define V_CMPEQ(a, b) _mm256_cmp_pd(a, b, _CMP_EQ_OQ)
#define V_CMPNEQ(a, b) _mm256_cmp_pd(a, b, _CMP_NEQ_UQ)
#define V_BLEND(a, b, mask) _mm256_blendv_pd(a, b, mask)
#else
#define CONTENDER_SIMD 0
#endif

/* Java's Math.min and Math.max (NaN wins; -0.0 below +0.0). */
static inline T SFX(jmin)(T a, T b) {
  if (a != a) return a;
  if (a == 0 && b == 0 && signbit(b)) return b;
  return a <= b ? a : b;
}

static inline T SFX(jmax)(T a, T b) {
  if (a != a) return a;
  if (a == 0 && b == 0 && signbit(a)) return b;
  return a >= b ? a : b;
}

/*
 * A dense reduction in FloatVirtualLanes' order: `acc` accumulators of LANES lanes, each element
 * fused (Math.fma) into partial sum i mod (acc * LANES), the accumulators combined lane-wise
 * ((a0 + a1) + (a2 + a3)), the tail fused into lanes, the lanes summed in a fixed tree.
 */
static T SFX(dot_vl)(const T *a, const T *b, int64_t n, int acc) {
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
    p[l] = acc == 1 ? p[l] : acc == 2 ? p[l] + p[l + LANES]
        : (p[l] + p[l + LANES]) + (p[l + 2 * LANES] + p[l + 3 * LANES]);
  }
  for (int64_t k = bound1; k < n; k++) p[k - bound1] = FMA(a[k], b[k], p[k - bound1]);
  for (int half = LANES >> 1; half > 0; half >>= 1) {
    for (int k = 0; k < half; k++) p[k] = p[k] + p[k + half];
  }
  return p[0];
}

/*
 * FloatRowSums.sum4, the order of every fused round's prediction: entry j's contribution
 * CONTRIB(j) (the library's x != 0 ? x * w : 0) into partial sum j mod 4, each in entry order,
 * then (a0 + a1) + (a2 + a3). The contributions are computed in entry order.
 */
#define ROW_SUM4(CONTRIB, nnz, out)                 \
  do {                                              \
    T a_[4] = {0, 0, 0, 0};                         \
    int j_ = 0;                                     \
    for (; j_ + 3 < (nnz); j_ += 4) {               \
      a_[0] += CONTRIB(j_);                         \
      a_[1] += CONTRIB(j_ + 1);                     \
      a_[2] += CONTRIB(j_ + 2);                     \
      a_[3] += CONTRIB(j_ + 3);                     \
    }                                               \
    for (; j_ < (nnz); j_++) a_[j_ & 3] += CONTRIB(j_); \
    (out) = (a_[0] + a_[1]) + (a_[2] + a_[3]);      \
  } while (0)

/* x * w where x != 0, else exactly 0 (the fused rounds' contribution). */
#define X_TIMES(x, w) ((x) != 0 ? (x) * (w) : (T) 0)

/* FloatLinearAlgebraScalarKernel.dotSparseRange: entry j into s[j mod 2], then s0 + s1. */
#define SPARSE_DOT2(W_OF, idx, val, nnz, out)                  \
  do {                                                         \
    T s0_ = 0, s1_ = 0;                                        \
    int j_ = 0;                                                \
    for (; j_ + 1 < (nnz); j_ += 2) {                          \
      s0_ += (val)[j_] * W_OF((idx)[j_]);                      \
      s1_ += (val)[j_ + 1] * W_OF((idx)[j_ + 1]);              \
    }                                                          \
    for (; j_ < (nnz); j_++) s0_ += (val)[j_] * W_OF((idx)[j_]); \
    (out) = s0_ + s1_;                                         \
  } while (0)

/* ---------------------------------------------------------------- ScInOL2 (FloatScInOL2Round) */

typedef struct {
  T G, S2, M, eta;
} SFX(s2rec);

typedef struct {
  SFX(s2rec) *st;
  double t;
} SFX(scinol2_model);

typedef struct {
  SFX(s2rec) *rec;
  T *w, *m;
  T *g, *s2, *eta; /* the vector body's gathered G, S2, eta, entry by entry */
} SFX(scinol2_scratch);

/* FloatScInOL2ScalarKernel.weight. */
static inline T SFX(s2_weight)(T bigG, T q, T eta) {
  T s = SQRT(q);
  if (s == 0) return 0;
  T theta = bigG / s;
  T a = FABS(theta);
  T c = COPYSIGN(a > (T) 1 ? (T) 1 : a, theta); /* Math.min(|theta|, 1): NaN stays */
  T w = c * eta / ((T) 2 * s);
  return FABS(w) > T_MAX ? COPYSIGN(T_MAX, w) : w;
}

/* FloatScInOL2ScalarKernel.eta. */
static inline T SFX(s2_eta)(T eta, T gx, T w) {
  if (gx == 0) return eta;
  T e = eta - gx * w;
  return FABS(e) > WEALTH_CAP ? COPYSIGN(WEALTH_CAP, e) : e;
}

static int SFX(scinol2_init)(SFX(scinol2_model) *m, int d, void **scratch, int max_nnz) {
  m->st = state_alloc((size_t) d * sizeof(SFX(s2rec)));
  if (!m->st) return 1;
  for (int i = 0; i < d; i++) m->st[i].eta = (T) 1.0; /* eps = 1 */
  m->t = 1;
  if (!*scratch) {
    SFX(scinol2_scratch) *s = calloc(1, sizeof *s);
    s->rec = malloc((size_t) max_nnz * sizeof *s->rec);
    s->w = malloc((size_t) max_nnz * sizeof(T));
    s->m = malloc((size_t) max_nnz * sizeof(T));
    s->g = malloc((size_t) max_nnz * sizeof(T));
    s->s2 = malloc((size_t) max_nnz * sizeof(T));
    s->eta = malloc((size_t) max_nnz * sizeof(T));
    *scratch = s;
  }
  return 0;
}

static inline void SFX(scinol2_prefetch)(const SFX(scinol2_model) *m, const int32_t *idx, int nnz) {
  for (int j = 0; j < nnz; j++) __builtin_prefetch(&m->st[idx[j]], 1, 3);
}

static inline T SFX(s2_one)(SFX(scinol2_scratch) *s, int j, const SFX(s2rec) *st, const int32_t *idx, const T *val) {
  SFX(s2rec) r = st[idx[j]];
  s->rec[j] = r;
  T x = val[j];
  T ax = FABS(x);
  T mi = r.M >= ax ? r.M : ax; /* Math.max(M, |x|): both >= +0, neither NaN */
  T w = SFX(s2_weight)(r.G, r.S2 + mi * mi, r.eta);
  s->w[j] = w;
  s->m[j] = mi;
  return x != 0 ? x * w : 0; /* x == 0 contributes exactly 0 */
}

#if CONTENDER_SIMD
/*
 * Four entries at once, lane l = entry j + l: the partial sum j mod 4 of the library's predict,
 * so a lane-wise add is its a_l += c_j, in the same order. Every lane computes s2_weight's
 * operations in its order (IEEE sqrt, division, min, copysign, clamp and blends give the scalar
 * bits; no fused multiply-add). The records are gathered (and kept for the update) with one load
 * each and transposed into G, S2, M, eta.
 */
static inline VT SFX(s2_four)(SFX(scinol2_scratch) *s, int j, const SFX(s2rec) *st, const int32_t *idx,
    const T *val, VT acc) {
  VT g = V_REC(&st[idx[j]]), q2 = V_REC(&st[idx[j + 1]]), m = V_REC(&st[idx[j + 2]]), e = V_REC(&st[idx[j + 3]]);
  V_TRANSPOSE4(g, q2, m, e); /* now G, S2, M, eta of entries j .. j + 3 */
  V_STOREU(s->g + j, g);
  V_STOREU(s->s2 + j, q2);
  V_STOREU(s->eta + j, e);
  const VT zero = V_ZERO(), one = V_SET1(1), sign = V_SET1(-0.0), wmax = V_SET1(T_MAX);
  VT x = V_LOADU(val + j);
  VT ax = V_ANDNOT(sign, x);
  VT mi = V_MAX(ax, m); /* m >= ax ? m : ax */
  VT q = V_ADD(q2, V_MUL(mi, mi));
  VT sq = V_SQRT(q);
  VT theta = V_DIV(g, sq);
  VT a = V_ANDNOT(sign, theta);
  VT c = V_OR(V_MIN(one, a), V_AND(sign, theta)); /* min(|theta|, 1), NaN kept; sign of theta */
  VT w = V_DIV(V_MUL(c, e), V_MUL(V_SET1(2), sq));
  VT big = V_CMPGT(V_ANDNOT(sign, w), wmax);
  w = V_BLEND(w, V_OR(wmax, V_AND(sign, w)), big);
  w = V_BLEND(w, zero, V_CMPEQ(sq, zero));
  V_STOREU(s->w + j, w);
  V_STOREU(s->m + j, mi);
  VT contrib = V_BLEND(zero, V_MUL(x, w), V_CMPNEQ(x, zero));
  return V_ADD(acc, contrib);
}

/*
 * The update of entries j .. j + 3 gathered by s2_four: G - gx, S2 + gx*gx, the new M, the wealth
 * (s2_eta: unchanged where gx == 0, else eta - gx*w clamped to the cap), transposed back into
 * records and scattered with one store each.
 */
static inline void SFX(s2_four_update)(const SFX(scinol2_scratch) *s, int j, SFX(s2rec) *st, const int32_t *idx,
    const T *val, VT gv) {
  const VT zero = V_ZERO(), sign = V_SET1(-0.0), cap = V_SET1(WEALTH_CAP);
  VT gx = V_MUL(gv, V_LOADU(val + j));
  VT g = V_SUB(V_LOADU(s->g + j), gx);
  VT q2 = V_ADD(V_LOADU(s->s2 + j), V_MUL(gx, gx));
  VT m = V_LOADU(s->m + j);
  VT eta = V_LOADU(s->eta + j);
  VT e = V_SUB(eta, V_MUL(gx, V_LOADU(s->w + j)));
  e = V_BLEND(e, V_OR(cap, V_AND(sign, e)), V_CMPGT(V_ANDNOT(sign, e), cap));
  e = V_BLEND(e, eta, V_CMPEQ(gx, zero));
  V_TRANSPOSE4(g, q2, m, e);
  V_STORE_REC(&st[idx[j]], g);
  V_STORE_REC(&st[idx[j + 1]], q2);
  V_STORE_REC(&st[idx[j + 2]], m);
  V_STORE_REC(&st[idx[j + 3]], e);
}
#endif

/* The predict half: yhat from the current state (the update follows with g). */
static inline int SFX(scinol2_predict)(SFX(scinol2_model) *m, void *scratch, const int32_t *idx, const T *val,
    int nnz, double *yhat_out) {
  SFX(scinol2_scratch) *s = scratch;
  SFX(s2rec) *st = m->st;
  /* Gather and predict: four interleaved partial sums, (a0 + a1) + (a2 + a3). */
  T a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  int j = 0;
#if CONTENDER_SIMD
  if (nnz >= 4) {
    VT acc = V_ZERO();
    for (; j + 3 < nnz; j += 4) acc = SFX(s2_four)(s, j, st, idx, val, acc);
    T lanes[4];
    V_STOREU(lanes, acc);
    a0 = lanes[0];
    a1 = lanes[1];
    a2 = lanes[2];
    a3 = lanes[3];
  }
#endif
  for (; j + 3 < nnz; j += 4) {
    a0 += SFX(s2_one)(s, j, st, idx, val);
    a1 += SFX(s2_one)(s, j + 1, st, idx, val);
    a2 += SFX(s2_one)(s, j + 2, st, idx, val);
    a3 += SFX(s2_one)(s, j + 3, st, idx, val);
  }
  for (; j < nnz; j++) {
    T c = SFX(s2_one)(s, j, st, idx, val);
    switch (j & 3) {
      case 0: a0 += c; break;
      case 1: a1 += c; break;
      default: a2 += c; break;
    }
  }
  double yhat = (double) ((a0 + a1) + (a2 + a3));
  *yhat_out = yhat;
  return 0;
}

/* The update half, with g = dLoss/dyhat at the predict's yhat. */
static inline int SFX(scinol2_update)(SFX(scinol2_model) *m, void *scratch, const int32_t *idx, const T *val,
    int nnz, double g) {
  SFX(scinol2_scratch) *s = scratch;
  SFX(s2rec) *st = m->st;
  int j;
  T gf = (T) g;
  /* Compute and scatter. */
  j = 0;
#if CONTENDER_SIMD
  {
    VT gv = V_SET1(gf);
    for (; j + 3 < nnz; j += 4) SFX(s2_four_update)(s, j, st, idx, val, gv);
  }
#endif
  for (; j < nnz; j++) {
    SFX(s2rec) r = s->rec[j];
    T gx = gf * val[j];
    r.G = r.G - gx;
    r.S2 = r.S2 + gx * gx;
    r.eta = SFX(s2_eta)(r.eta, gx, s->w[j]);
    r.M = s->m[j];
    st[idx[j]] = r;
  }
  m->t += 1;
  return 0;
}

/* -------------------------------------------------------- AdaGrad (FloatAdaGradRound, eta = 1) */

typedef struct {
  T w, Q;
} SFX(agrec);

typedef struct {
  SFX(agrec) *st;
} SFX(adagrad_model);

typedef struct {
  SFX(agrec) *rec;
  T *w, *q; /* the vector body's gathered w and Q, entry by entry */
} SFX(adagrad_scratch);

static int SFX(adagrad_init)(SFX(adagrad_model) *m, int d, void **scratch, int max_nnz) {
  m->st = state_alloc((size_t) d * sizeof(SFX(agrec))); /* w = 0 (no box), Q = q0 = 0 */
  if (!m->st) return 1;
  if (!*scratch) {
    SFX(adagrad_scratch) *s = calloc(1, sizeof *s);
    s->rec = malloc((size_t) max_nnz * sizeof *s->rec);
    s->w = malloc((size_t) max_nnz * sizeof(T));
    s->q = malloc((size_t) max_nnz * sizeof(T));
    *scratch = s;
  }
  return 0;
}

static inline void SFX(adagrad_prefetch)(const SFX(adagrad_model) *m, const int32_t *idx, int nnz) {
  for (int j = 0; j < nnz; j++) __builtin_prefetch(&m->st[idx[j]], 1, 3);
}

#if CONTENDER_SIMD
#if CONTENDER_FLOAT
/* Four 8-byte {w, Q} records into w and Q of entries j .. j + 3, and back. */
#define AG_GATHER(st, idx, j, wv_, qv_)                                                            \
  do {                                                                                         \
    __m128 v01_ = _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), (const __m64 *) &(st)[(idx)[j]]), \
        (const __m64 *) &(st)[(idx)[(j) + 1]]);                                                \
    __m128 v23_ = _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), (const __m64 *) &(st)[(idx)[(j) + 2]]), \
        (const __m64 *) &(st)[(idx)[(j) + 3]]);                                                \
    wv_ = _mm_shuffle_ps(v01_, v23_, _MM_SHUFFLE(2, 0, 2, 0));                                   \
    qv_ = _mm_shuffle_ps(v01_, v23_, _MM_SHUFFLE(3, 1, 3, 1));                                   \
  } while (0)
#define AG_SCATTER(st, idx, j, wv_, qv_)                                                           \
  do {                                                                                         \
    __m128 v01_ = _mm_unpacklo_ps(wv_, qv_), v23_ = _mm_unpackhi_ps(wv_, qv_);                         \
    _mm_storel_pi((__m64 *) &(st)[(idx)[j]], v01_);                                            \
    _mm_storeh_pi((__m64 *) &(st)[(idx)[(j) + 1]], v01_);                                      \
    _mm_storel_pi((__m64 *) &(st)[(idx)[(j) + 2]], v23_);                                      \
    _mm_storeh_pi((__m64 *) &(st)[(idx)[(j) + 3]], v23_);                                      \
  } while (0)
#else
/* Four 16-byte {w, Q} records into w and Q of entries j .. j + 3, and back. */
#define AG_GATHER(st, idx, j, wv_, qv_)                                                            \
  do {                                                                                         \
    __m256d lo_ = _mm256_set_m128d(_mm_loadu_pd(&(st)[(idx)[(j) + 2]].w), _mm_loadu_pd(&(st)[(idx)[j]].w)); \
    __m256d hi_ = _mm256_set_m128d(_mm_loadu_pd(&(st)[(idx)[(j) + 3]].w), _mm_loadu_pd(&(st)[(idx)[(j) + 1]].w)); \
    wv_ = _mm256_unpacklo_pd(lo_, hi_);                                                          \
    qv_ = _mm256_unpackhi_pd(lo_, hi_);                                                          \
  } while (0)
#define AG_SCATTER(st, idx, j, wv_, qv_)                                                           \
  do {                                                                                         \
    __m256d lo_ = _mm256_unpacklo_pd(wv_, qv_), hi_ = _mm256_unpackhi_pd(wv_, qv_);                    \
    _mm_storeu_pd(&(st)[(idx)[j]].w, _mm256_castpd256_pd128(lo_));                            \
    _mm_storeu_pd(&(st)[(idx)[(j) + 2]].w, _mm256_extractf128_pd(lo_, 1));                     \
    _mm_storeu_pd(&(st)[(idx)[(j) + 1]].w, _mm256_castpd256_pd128(hi_));                       \
    _mm_storeu_pd(&(st)[(idx)[(j) + 3]].w, _mm256_extractf128_pd(hi_, 1));                     \
  } while (0)
#endif
#endif

/* The predict half: yhat from the current state (the update follows with g). */
static inline int SFX(adagrad_predict)(SFX(adagrad_model) *m, void *scratch, const int32_t *idx, const T *val,
    int nnz, double *yhat_out) {
  SFX(adagrad_scratch) *s = scratch;
  SFX(agrec) *st = m->st;
  T a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  int j = 0;
#if CONTENDER_SIMD
  /* Lane l = entry j + l = the library's partial sum j mod 4 (a lane-wise multiply, then add). */
  if (nnz >= 4) {
    VT acc = V_ZERO();
    for (; j + 3 < nnz; j += 4) {
      VT w, q;
      AG_GATHER(st, idx, j, w, q);
      V_STOREU(s->w + j, w);
      V_STOREU(s->q + j, q);
      acc = V_ADD(acc, V_MUL(V_LOADU(val + j), w));
    }
    T lanes[4];
    V_STOREU(lanes, acc);
    a0 = lanes[0];
    a1 = lanes[1];
    a2 = lanes[2];
    a3 = lanes[3];
  }
#endif
  for (; j + 3 < nnz; j += 4) {
    SFX(agrec) r0 = st[idx[j]], r1 = st[idx[j + 1]], r2 = st[idx[j + 2]], r3 = st[idx[j + 3]];
    s->rec[j] = r0;
    s->rec[j + 1] = r1;
    s->rec[j + 2] = r2;
    s->rec[j + 3] = r3;
    a0 += val[j] * r0.w;
    a1 += val[j + 1] * r1.w;
    a2 += val[j + 2] * r2.w;
    a3 += val[j + 3] * r3.w;
  }
  for (; j < nnz; j++) {
    SFX(agrec) r = st[idx[j]];
    s->rec[j] = r;
    T c = val[j] * r.w;
    switch (j & 3) {
      case 0: a0 += c; break;
      case 1: a1 += c; break;
      default: a2 += c; break;
    }
  }
  double yhat = (double) ((a0 + a1) + (a2 + a3));
  *yhat_out = yhat;
  return 0;
}

/* The update half, with g = dLoss/dyhat at the predict's yhat. */
static inline int SFX(adagrad_update)(SFX(adagrad_model) *m, void *scratch, const int32_t *idx, const T *val,
    int nnz, double g) {
  SFX(adagrad_scratch) *s = scratch;
  SFX(agrec) *st = m->st;
  int j;
  /* AdaGradOptimizer.fusedUpdate: (T) g, (T) eta = 1, (T) delta = 0, box infinite (no clamp). */
  const T scale = (T) g, eta = (T) 1.0, delta = (T) 0.0;
  j = 0;
#if CONTENDER_SIMD
  {
    const VT vs = V_SET1(scale), ve = V_SET1(eta), vd = V_SET1(delta), zero = V_ZERO();
    for (; j + 3 < nnz; j += 4) {
      VT gj = V_MUL(vs, V_LOADU(val + j));
      VT qn = V_ADD(V_LOADU(s->q + j), V_MUL(gj, gj));
      VT denom = V_ADD(vd, V_SQRT(qn));
      VT w = V_LOADU(s->w + j);
      w = V_BLEND(w, V_SUB(w, V_DIV(V_MUL(ve, gj), denom)), V_CMPGT(denom, zero));
      AG_SCATTER(st, idx, j, w, qn);
    }
  }
#endif
  for (; j < nnz; j++) {
    SFX(agrec) r = s->rec[j];
    T gj = scale * val[j];
    T qn = r.Q + gj * gj;
    r.Q = qn;
    T denom = delta + SQRT(qn);
    if (denom > 0) r.w = r.w - (eta * gj) / denom;
    st[idx[j]] = r;
  }
  return 0;
}

/* ------------------------------------------- ScInOL1 (FloatScInOL1ScalarKernel, eps = 1) */

typedef struct {
  T G, S2, M, beta;
} SFX(s1rec);

typedef struct {
  SFX(s1rec) *st;
  double t;
} SFX(scinol1_model);

static T SFX(expm1_coeffs)[EXPM1_DEGREE - 1];
static T SFX(expm1_log2e);

/* Expm1Constants: 1/k! for k = degree..2 computed in double (then rounded to T), 1/ln 2. */
static void SFX(expm1_setup)(void) {
  double f = 1;
  for (int k = 2; k <= EXPM1_DEGREE; k++) {
    f *= k;
    SFX(expm1_coeffs)[EXPM1_DEGREE - k] = (T) (1 / f);
  }
  SFX(expm1_log2e) = (T) (1 / 0x1.62e42fefa39efp-1); /* 1 / Math.log(2) */
}

#if CONTENDER_FLOAT
static inline float pow2_f(float kr) { /* Expm1Constants.floatPow2 */
  uint32_t b, off = (uint32_t) 127 - (uint32_t) 0x4b400000u; /* 127 - bits(0x1.8p23f) */
  memcpy(&b, &kr, 4);
  b = (b + off) << 23;
  float r;
  memcpy(&r, &b, 4);
  return r;
}
#define EXPM1_ROUNDER 0x1.8p23f
#define EXPM1_LN2_HI 0x1.62e4p-1f
#define EXPM1_LN2_LO 0x1.7f7d1cp-20f
#else
static inline double pow2_d(double kr) { /* Expm1Constants.doublePow2 */
  uint64_t b, off = (uint64_t) 1023 - (uint64_t) 0x4338000000000000ull; /* 1023 - bits(0x1.8p52) */
  memcpy(&b, &kr, 8);
  b = (b + off) << 52;
  double r;
  memcpy(&r, &b, 8);
  return r;
}
#define EXPM1_ROUNDER 0x1.8p52
#define EXPM1_LN2_HI 0x1.62e42feep-1
#define EXPM1_LN2_LO 0x1.a39ef35793c76p-33
#endif

/* FloatLaneMath.expm1 (ScInOL1, FreeGrad): the library's own polynomial, fused where it fuses. */
static inline T SFX(lane_expm1)(T h) {
  T kr = FMA(h, SFX(expm1_log2e), EXPM1_ROUNDER);
  T nk = -(kr - EXPM1_ROUNDER);
  T r = FMA(nk, EXPM1_LN2_LO, FMA(nk, EXPM1_LN2_HI, h));
  T p = SFX(expm1_coeffs)[0];
  for (int c = 1; c < EXPM1_DEGREE - 1; c++) p = FMA(p, r, SFX(expm1_coeffs)[c]);
  T twoK = SFX(pow2)(kr);
  return FMA(FMA(r * r, p, r), twoK, twoK - 1);
}

static inline T SFX(s1_sgn)(T v) {
  return v > 0 ? (T) 1 : v < 0 ? (T) -1 : v;
}

/* FloatScInOL1ScalarKernel.weight. */
static inline T SFX(s1_weight)(T bigG, T q, T beta) {
  T s = SQRT(q);
  if (s == 0) return 0;
  T theta = bigG / s;
  T v = beta * SFX(s1_sgn)(theta) * SFX(lane_expm1)(SFX(jmin)(FABS(theta) / 2, EXP_CAP)) / ((T) 2 * s);
  return SFX(jmax)(-T_MAX, SFX(jmin)(v, T_MAX));
}

static int SFX(scinol1_init)(SFX(scinol1_model) *m, int d, void **scratch, int max_nnz) {
  (void) scratch;
  (void) max_nnz;
  m->st = state_alloc((size_t) d * sizeof(SFX(s1rec)));
  if (!m->st) return 1;
  for (int i = 0; i < d; i++) m->st[i].beta = (T) 1.0; /* beta = eps */
  m->t = 1;
  return 0;
}

static inline void SFX(scinol1_prefetch)(const SFX(scinol1_model) *m, const int32_t *idx, int nnz) {
  for (int j = 0; j < nnz; j++) __builtin_prefetch(&m->st[idx[j]], 1, 3);
}

static inline T SFX(s1_one)(SFX(s1rec) *st, int32_t i, T x, T eps, T t) {
  SFX(s1rec) *r = &st[i];
  T mi = SFX(jmax)(r->M, FABS(x));
  r->M = mi;
  T q = r->S2 + mi * mi;
  T x2 = x * x;
  T b = x2 != 0 ? SFX(jmin)(r->beta, eps * q / (x2 * t)) : r->beta;
  r->beta = b;
  T w = SFX(s1_weight)(r->G, q, b);
  return x != 0 ? x * w : 0;
}

/* The predict half: yhat from the current state (the update follows with g). */
static inline int SFX(scinol1_predict)(SFX(scinol1_model) *m, void *scratch, const int32_t *idx, const T *val,
    int nnz, double *yhat_out) {
  (void) scratch;
  SFX(s1rec) *st = m->st;
  const T eps = (T) 1.0, t = (T) m->t;
  T yh;
#define S1_CONTRIB(j) SFX(s1_one)(st, idx[j], val[j], eps, t)
  ROW_SUM4(S1_CONTRIB, nnz, yh);
#undef S1_CONTRIB
  *yhat_out = (double) yh;
  return 0;
}

/* The update half, with g = dLoss/dyhat at the predict's yhat. */
static inline int SFX(scinol1_update)(SFX(scinol1_model) *m, void *scratch, const int32_t *idx, const T *val,
    int nnz, double g) {
  (void) scratch;
  SFX(s1rec) *st = m->st;
  int j;
  T gf = (T) g;
  for (j = 0; j < nnz; j++) {
    SFX(s1rec) *r = &st[idx[j]];
    T gx = gf * val[j];
    r->G = r->G - gx;
    r->S2 = r->S2 + gx * gx;
  }
  m->t += 1;
  return 0;
}

/* --------------------------------- DFEG (DfegOptimizer + FloatDfegScalarKernel, a = 0.882, L = 1, delta = 1) */

typedef struct {
  T *theta;
  double h, normSq;
} SFX(dfeg_model);

static int SFX(dfeg_init)(SFX(dfeg_model) *m, int d, void **scratch, int max_nnz) {
  (void) scratch;
  (void) max_nnz;
  m->theta = state_alloc((size_t) d * sizeof(T));
  if (!m->theta) return 1;
  m->h = 1.0; /* delta */
  m->normSq = 0;
  return 0;
}

static inline void SFX(dfeg_prefetch)(const SFX(dfeg_model) *m, const int32_t *idx, int nnz) {
  for (int j = 0; j < nnz; j++) __builtin_prefetch(&m->theta[idx[j]], 1, 3);
}

/* The predict half: yhat from the current state (the update follows with g). */
static inline int SFX(dfeg_predict)(SFX(dfeg_model) *m, void *scratch, const int32_t *idx, const T *val,
    int nnz, double *yhat_out) {
  (void) scratch;
  T *theta = m->theta;
  const double a = 0.882, l = 1.0;
  T tdx;
#define THETA_CONTRIB(j) X_TIMES(val[j], theta[idx[j]])
  ROW_SUM4(THETA_CONTRIB, nnz, tdx);
#undef THETA_CONTRIB
  double xNormSq = (double) SFX(dot_vl)(val, val, nnz, 4);
  double hNew = m->h + l * l * fmax_java(sqrt(xNormSq), xNormSq);
  double c = 0;
  double norm = sqrt(m->normSq);
  if (norm != 0) {
    double alpha = a * sqrt(hNew);
    double beta = hNew * sqrt(hNew);
    c = fd_exp(norm / alpha) / (beta * norm);
    if (!isfinite(c)) return 3; /* ArithmeticException: exp overflows */
  }
  double yhat = c * (double) tdx;
  if (!isfinite(yhat)) return 3;
  m->h = hNew;
  *yhat_out = yhat;
  return 0;
}

/* The update half, with g = dLoss/dyhat at the predict's yhat. */
static inline int SFX(dfeg_update)(SFX(dfeg_model) *m, void *scratch, const int32_t *idx, const T *val,
    int nnz, double g) {
  (void) scratch;
  T *theta = m->theta;
  T gf = (T) g;
  T delta = 0;
  for (int j = 0; j < nnz; j++) {
    int32_t i = idx[j];
    T old = theta[i];
    T gx = gf * val[j];
    theta[i] = old - gx;
    delta += gx * (gx - 2 * old);
  }
  m->normSq = fmax_java(0.0, m->normSq + (double) delta);
  return 0;
}

/* ------------------ Global AdaGrad (GlobalAdaGradOptimizer, alpha = 1, delta = 0, D = 1, no box) */

typedef struct {
  T *w;
  double sumSquares;
} SFX(aglobal_model);

static int SFX(aglobal_init)(SFX(aglobal_model) *m, int d, void **scratch, int max_nnz) {
  (void) scratch;
  (void) max_nnz;
  m->w = state_alloc((size_t) d * sizeof(T));
  if (!m->w) return 1;
  m->sumSquares = 0;
  return 0;
}

static inline void SFX(aglobal_prefetch)(const SFX(aglobal_model) *m, const int32_t *idx, int nnz) {
  for (int j = 0; j < nnz; j++) __builtin_prefetch(&m->w[idx[j]], 1, 3);
}

/* The predict half: yhat from the current state (the update follows with g). */
static inline int SFX(aglobal_predict)(SFX(aglobal_model) *m, void *scratch, const int32_t *idx, const T *val,
    int nnz, double *yhat_out) {
  (void) scratch;
  T *w = m->w;
  T yh;
#define W_CONTRIB(j) X_TIMES(val[j], w[idx[j]])
  ROW_SUM4(W_CONTRIB, nnz, yh);
#undef W_CONTRIB
  *yhat_out = (double) yh;
  return 0;
}

/* The update half, with g = dLoss/dyhat at the predict's yhat. */
static inline int SFX(aglobal_update)(SFX(aglobal_model) *m, void *scratch, const int32_t *idx, const T *val,
    int nnz, double g) {
  (void) scratch;
  T *w = m->w;
  double sum = m->sumSquares + g * g * (double) SFX(dot_vl)(val, val, nnz, 4);
  if (!isfinite(sum)) return 3;
  double den = 0.0 + sqrt(2 * sum);
  double eta = NAN;
  if (den > 0) {
    eta = 1.0 * 1.0 / den;
    if (!(eta <= T_MAX)) return 3;
  }
  if (!isnan(eta)) {
    const T scale = (T) g, et = (T) eta, lo = (T) -INFINITY, hi = (T) INFINITY;
    for (int j = 0; j < nnz; j++) {
      int32_t i = idx[j];
      T gj = scale * val[j];
      w[i] = SFX(jmin)(SFX(jmax)(w[i] - et * gj, lo), hi);
    }
  }
  m->sumSquares = sum;
  return 0;
}

/* ------------------------------- Adaptive OGD per coordinate (FloatAdaptiveOgdScalarKernel, R = 100) */

typedef struct {
  T w, L;
} SFX(aocrec);

typedef struct {
  SFX(aocrec) *st;
  double hsum;
} SFX(aogdc_model);

static int SFX(aogdc_init)(SFX(aogdc_model) *m, int d, void **scratch, int max_nnz) {
  (void) scratch;
  (void) max_nnz;
  m->st = state_alloc((size_t) d * sizeof(SFX(aocrec)));
  if (!m->st) return 1;
  m->hsum = 0;
  return 0;
}

static inline void SFX(aogdc_prefetch)(const SFX(aogdc_model) *m, const int32_t *idx, int nnz) {
  for (int j = 0; j < nnz; j++) __builtin_prefetch(&m->st[idx[j]], 1, 3);
}

/* The predict half: yhat from the current state (the update follows with g). */
static inline int SFX(aogdc_predict)(SFX(aogdc_model) *m, void *scratch, const int32_t *idx, const T *val,
    int nnz, double *yhat_out) {
  (void) scratch;
  SFX(aocrec) *st = m->st;
  T yh;
#define W_CONTRIB(j) X_TIMES(val[j], st[idx[j]].w)
  ROW_SUM4(W_CONTRIB, nnz, yh);
#undef W_CONTRIB
  *yhat_out = (double) yh;
  return 0;
}

/* The update half, with g = dLoss/dyhat at the predict's yhat. */
static inline int SFX(aogdc_update)(SFX(aogdc_model) *m, void *scratch, const int32_t *idx, const T *val,
    int nnz, double g) {
  (void) scratch;
  SFX(aocrec) *st = m->st;
  double hs = m->hsum + 0.0; /* nextHsum(H_t = 0): the trainer gives no curvature */
  if (!isfinite(hs)) return 3;
  const T sc = (T) g, hsf = (T) hs, r = (T) 100.0;
  for (int j = 0; j < nnz; j++) {
    SFX(aocrec) *rec = &st[idx[j]];
    T gj = sc * val[j];
    T l = rec->L;
    /* lambda(g, hsum, lsum, r) */
    T s = hsf + l;
    T c = 8 * gj * gj / (3 * (r * r));
    T den = 2 * (SQRT(s * s + c) + s);
    T lambda = den > 0 ? c / den : 0;
    T ln = l + lambda;
    rec->L = ln;
    /* coordinateStep */
    T den2 = hsf + ln;
    if (!(den2 > 0) || gj == 0) continue;
    T eta = 1 / den2;
    rec->w = SFX(jmin)(SFX(jmax)(rec->w - eta * (gj + lambda * rec->w), -r), r);
  }
  m->hsum = hs;
  return 0;
}

/* --------------------------------- Adaptive OGD, L2 ball (AdaptiveOgdBallOptimizer, R = 100) */

typedef struct {
  T *w;
  int d;
  double hsum, lsum;
} SFX(aogdb_model);

static int SFX(aogdb_init)(SFX(aogdb_model) *m, int d, void **scratch, int max_nnz) {
  (void) scratch;
  (void) max_nnz;
  m->w = state_alloc((size_t) d * sizeof(T));
  if (!m->w) return 1;
  m->d = d;
  m->hsum = m->lsum = 0;
  return 0;
}

static inline void SFX(aogdb_prefetch)(const SFX(aogdb_model) *m, const int32_t *idx, int nnz) {
  (void) m;
  (void) idx;
  (void) nnz; /* the update streams all of w */
}

/* The predict half: yhat from the current state (the update follows with g). */
static inline int SFX(aogdb_predict)(SFX(aogdb_model) *m, void *scratch, const int32_t *idx, const T *val,
    int nnz, double *yhat_out) {
  (void) scratch;
  T *w = m->w;
  T yh;
#define W_CONTRIB(j) X_TIMES(val[j], w[idx[j]])
  ROW_SUM4(W_CONTRIB, nnz, yh);
#undef W_CONTRIB
  *yhat_out = (double) yh;
  return 0;
}

/* The update half, with g = dLoss/dyhat at the predict's yhat. */
static inline int SFX(aogdb_update)(SFX(aogdb_model) *m, void *scratch, const int32_t *idx, const T *val,
    int nnz, double g) {
  (void) scratch;
  T *w = m->w;
  const double radius = 100.0;
  double scale = g;
  double hs = m->hsum + 0.0;
  if (!isfinite(hs)) return 3;
  double ww = (double) SFX(dot_vl)(w, w, m->d, 4);
  T wx; /* linalg.dotSparse: two partial sums */
#define W_AT(i) w[i]
  SPARSE_DOT2(W_AT, idx, val, nnz, wx);
#undef W_AT
  double wg = scale * (double) wx;
  double gg = scale * scale * (double) SFX(dot_vl)(val, val, nnz, 4);
  /* apply */
  double s = hs + m->lsum;
  double c = 8 * gg / (3 * radius * radius);
  double den = 2 * (sqrt(s * s + c) + s);
  double lambda = den > 0 ? c / den : 0;
  double ls = m->lsum + lambda;
  double den2 = hs + ls;
  if (den2 > 0) {
    double eta = 1 / den2;
    if (eta > T_MAX) return 3;
    double a = 1 - eta * lambda;
    double vv = a * a * ww - 2 * eta * a * wg + eta * eta * gg;
    double nv = sqrt(fmax_java(vv, 0));
    double p = nv > radius ? radius / nv : 1;
    /* ballSparseRange over [0, d): coordinates outside the row see g = scale * 0 */
    const T sc = (T) scale, et = (T) eta, la = (T) lambda, pp = (T) p;
    const T gz = sc * (T) 0;
    int j = 0;
    int32_t next = nnz > 0 ? idx[0] : INT32_MAX;
    for (int i = 0; i < m->d; i++) {
      T gi = gz;
      if (i == next) {
        gi = sc * val[j];
        j++;
        next = j < nnz ? idx[j] : INT32_MAX;
      }
      w[i] = (w[i] - et * (gi + la * w[i])) * pp;
    }
  }
  m->hsum = hs;
  m->lsum = ls;
  return 0;
}

#include "rules_ftrl_kt_freegrad.h"

#undef T
#undef SFX
#undef SQRT
#undef FABS
#undef COPYSIGN
#undef FMA
#undef T_MAX
#undef WEALTH_CAP
#undef EXP_CAP
#undef LANES
#undef EXPM1_DEGREE
#undef T_NAME
#undef EXPM1_ROUNDER
#undef EXPM1_LN2_HI
#undef EXPM1_LN2_LO
#undef CONTENDER_SIMD
#undef AG_GATHER
#undef AG_SCATTER
#undef VT
#undef V_REC
#undef V_STORE_REC
#undef V_TRANSPOSE4
#undef V_LOADU
#undef V_STOREU
#undef V_ZERO
#undef V_SET1
#undef V_ADD
#undef V_SUB
#undef V_MUL
#undef V_DIV
#undef V_SQRT
#undef V_MIN
#undef V_MAX
#undef V_AND
#undef V_OR
#undef V_ANDNOT
#undef V_CMPGT
#undef V_CMPEQ
#undef V_CMPNEQ
#undef V_BLEND
