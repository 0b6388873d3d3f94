/*
 * FTRL-Proximal, KT coin betting and FreeGrad: the library's gathered fused round (the generated
 * Float<Rule>Forms.predictGathered / updateGathered of rules/<name>/<Rule>.java, default
 * parameters) on one record per coordinate. Included by rules.h for each type, with its T, SFX,
 * jmin/jmax, ROW_SUM4, X_TIMES, lane_expm1, WEALTH_CAP, EXP_CAP and (FTRL's SIMD body, four
 * entries at a time as AdaGrad's) the V_* operations and AG_GATHER/AG_SCATTER; KT and FreeGrad
 * run entry by entry.
 *
 * The predict computes each entry's weight (kept in scratch for the update, as the library's
 * outW) and sums the contributions in FloatRowSums.sum4's order; the update runs the rule's
 * @Update functions in source order, each reading the fields as the record held them before the
 * round (the library's recX[j], loaded once) and the earlier functions' values.
 */

typedef struct {
  T *w; /* the predict's weights, entry by entry */
} SFX(entry_scratch);

static int SFX(entry_scratch_init)(void **scratch, int max_nnz) {
  if (*scratch) return 0;
  SFX(entry_scratch) *s = calloc(1, sizeof *s);
  if (!s) return 1;
  s->w = malloc((size_t) (max_nnz > 0 ? max_nnz : 1) * sizeof(T));
  *scratch = s;
  return s->w == NULL;
}

#define DEFINE_RECORD_PREFETCH(rule)                                                              \
  static inline void SFX(rule##_prefetch)(const SFX(rule##_model) *m, const int32_t *idx, int nnz) { \
    for (int j = 0; j < nnz; j++) __builtin_prefetch(&m->st[idx[j]], 1, 3);                     \
  }

/* ------------------------- FTRL-Proximal (Ftrl.Rule; alpha = 0.5, beta = 1, lambda1 = lambda2 = 0) */

typedef struct {
  T z, N;
} SFX(ftrlrec);

typedef struct {
  SFX(ftrlrec) *st;
} SFX(ftrl_model);

#define FTRL_ALPHA ((T) 0.5)
#define FTRL_BETA ((T) 1.0)
#define FTRL_L1 ((T) 0.0)
#define FTRL_L2 ((T) 0.0)

static int SFX(ftrl_init)(SFX(ftrl_model) *m, int d, void **scratch, int max_nnz) {
  m->st = state_alloc((size_t) d * sizeof(SFX(ftrlrec))); /* z = N = 0 */
  return !m->st || SFX(entry_scratch_init)(scratch, max_nnz);
}

DEFINE_RECORD_PREFETCH(ftrl)

/* Ftrl.Rule.w: the soft threshold, then (sign(z) lambda1 - z) / ((beta + sqrt(N)) / alpha + lambda2). */
static inline T SFX(ftrl_weight)(T z, T n) {
  if (FABS(z) <= FTRL_L1) return 0;
  T den = (FTRL_BETA + SQRT(n)) / FTRL_ALPHA + FTRL_L2;
  if (!(den > 0)) return 0;
  T w = (COPYSIGN(FTRL_L1, z) - z) / den;
  return SFX(jmax)(-T_MAX, SFX(jmin)(w, T_MAX));
}

static inline T SFX(ftrl_one)(T *wout, const SFX(ftrlrec) *st, const int32_t *idx, const T *val, int j) {
  const SFX(ftrlrec) r = st[idx[j]];
  T w = SFX(ftrl_weight)(r.z, r.N);
  wout[j] = w;
  return X_TIMES(val[j], w);
}

#if CONTENDER_SIMD
/*
 * Four entries at once, as AdaGrad's body (a {z, N} record has a {w, Q} record's layout): lane l
 * is entry j + l, the library's partial sum j mod 4, and does ftrl_weight's operations in order
 * (IEEE sqrt and division; min/max and blends give Math.min/max's results on these operands).
 */
static inline VT SFX(ftrl_four)(T *wout, const SFX(ftrlrec) *st, const int32_t *idx, const T *val, int j, VT acc) {
  const SFX(agrec) *as = (const SFX(agrec) *) st;
  const VT zero = V_ZERO(), sign = V_SET1(-0.0), wmax = V_SET1(T_MAX);
  VT z, n;
  AG_GATHER(as, idx, j, z, n);
  VT den = V_ADD(V_DIV(V_ADD(V_SET1(FTRL_BETA), V_SQRT(n)), V_SET1(FTRL_ALPHA)), V_SET1(FTRL_L2));
  VT w = V_DIV(V_SUB(V_OR(V_SET1(FTRL_L1), V_AND(sign, z)), z), den);
  w = V_MAX(V_SET1(-T_MAX), V_MIN(wmax, w)); /* a NaN w stays NaN, as Java's max(-MAX, min(w, MAX)) */
  VT inside = V_CMPGT(V_ANDNOT(sign, z), V_SET1(FTRL_L1)); /* |z| > lambda1 */
  w = V_BLEND(zero, w, V_AND(inside, V_CMPGT(den, zero)));
  V_STOREU(wout + j, w);
  VT x = V_LOADU(val + j);
  return V_ADD(acc, V_BLEND(zero, V_MUL(x, w), V_CMPNEQ(x, zero)));
}
#endif

static inline int SFX(ftrl_predict)(SFX(ftrl_model) *m, void *scratch, const int32_t *idx, const T *val, int nnz,
    double *yhat_out) {
  T *wout = ((SFX(entry_scratch) *) scratch)->w;
  T a[4] = {0, 0, 0, 0};
  int j = 0;
#if CONTENDER_SIMD
  if (nnz >= 4) {
    VT acc = V_ZERO();
    for (; j + 3 < nnz; j += 4) acc = SFX(ftrl_four)(wout, m->st, idx, val, j, acc);
    V_STOREU(a, acc);
  }
#endif
  for (; j < nnz; j++) a[j & 3] += SFX(ftrl_one)(wout, m->st, idx, val, j);
  *yhat_out = (double) ((a[0] + a[1]) + (a[2] + a[3]));
  return 0;
}

/* Ftrl.Rule.sig, z, N. */
static inline int SFX(ftrl_update)(SFX(ftrl_model) *m, void *scratch, const int32_t *idx, const T *val, int nnz,
    double g) {
  const T *wout = ((SFX(entry_scratch) *) scratch)->w;
  const T gf = (T) g;
  int j = 0;
#if CONTENDER_SIMD
  {
    SFX(agrec) *as = (SFX(agrec) *) m->st;
    const VT gv = V_SET1(gf), zero = V_ZERO();
    for (; j + 3 < nnz; j += 4) {
      VT z, n;
      AG_GATHER(as, idx, j, z, n);
      VT gx = V_MUL(gv, V_LOADU(val + j));
      VT gg = V_MUL(gx, gx);
      VT den = V_MUL(V_SET1(FTRL_ALPHA), V_ADD(V_SQRT(V_ADD(n, gg)), V_SQRT(n)));
      VT sig = V_BLEND(zero, V_DIV(gg, den), V_CMPGT(den, zero));
      VT moved = V_CMPNEQ(gx, zero);
      z = V_BLEND(z, V_ADD(z, V_SUB(gx, V_MUL(sig, V_LOADU(wout + j)))), moved);
      n = V_BLEND(n, V_ADD(n, gg), moved);
      AG_SCATTER(as, idx, j, z, n);
    }
  }
#endif
  for (; j < nnz; j++) {
    SFX(ftrlrec) *r = &m->st[idx[j]];
    T gx = gf * val[j];
    T gg = gx * gx;
    T den = FTRL_ALPHA * (SQRT(r->N + gg) + SQRT(r->N));
    T sig = den > 0 ? gg / den : 0;
    T z = gx == 0 ? r->z : r->z + (gx - sig * wout[j]);
    T n = gx == 0 ? r->N : r->N + gx * gx;
    r->z = z;
    r->N = n;
  }
  return 0;
}

/* ------------------------------------------------ KT coin betting (Kt.Rule; eps = 1, Lg = 1) */

typedef struct {
  T theta, W, k;
} SFX(ktrec);

typedef struct {
  SFX(ktrec) *st;
} SFX(kt_model);

static int SFX(kt_init)(SFX(kt_model) *m, int d, void **scratch, int max_nnz) {
  m->st = state_alloc((size_t) d * sizeof(SFX(ktrec)));
  if (!m->st) return 1;
  for (int i = 0; i < d; i++) m->st[i].W = (T) 1.0; /* the wealth starts at eps */
  return SFX(entry_scratch_init)(scratch, max_nnz);
}

DEFINE_RECORD_PREFETCH(kt)

static inline T SFX(kt_one)(T *wout, const SFX(ktrec) *st, const int32_t *idx, const T *val, int j) {
  const SFX(ktrec) r = st[idx[j]];
  T w = r.theta / (r.k + 1) * r.W; /* Kt.Rule.w */
  wout[j] = w;
  return X_TIMES(val[j], w);
}

static inline int SFX(kt_predict)(SFX(kt_model) *m, void *scratch, const int32_t *idx, const T *val, int nnz,
    double *yhat_out) {
  T *wout = ((SFX(entry_scratch) *) scratch)->w;
  T yh;
#define KT_CONTRIB(j) SFX(kt_one)(wout, m->st, idx, val, j)
  ROW_SUM4(KT_CONTRIB, nnz, yh);
#undef KT_CONTRIB
  *yhat_out = (double) yh;
  return 0;
}

/* Kt.Rule.coin, W, theta, k. */
static inline int SFX(kt_update)(SFX(kt_model) *m, void *scratch, const int32_t *idx, const T *val, int nnz,
    double g) {
  const T *wout = ((SFX(entry_scratch) *) scratch)->w;
  const T gf = (T) g, lg = (T) 1.0;
  for (int j = 0; j < nnz; j++) {
    SFX(ktrec) *r = &m->st[idx[j]];
    T gx = gf * val[j];
    T coin = SFX(jmin)(SFX(jmax)(-(gx / lg), (T) -1), (T) 1);
    if (gx == 0) continue; /* W, theta and k all unchanged */
    r->W = SFX(jmin)(SFX(jmax)(r->W + coin * wout[j], (T) 0), WEALTH_CAP);
    r->theta = r->theta + coin;
    r->k = r->k + 1;
  }
  return 0;
}

/* ---------------------------------------------------------------- FreeGrad (FreeGrad.Rule; eps = 1) */

typedef struct {
  T G, Vsum, h1, ht;
} SFX(fgrec);

typedef struct {
  SFX(fgrec) *st;
} SFX(freegrad_model);

static int SFX(freegrad_init)(SFX(freegrad_model) *m, int d, void **scratch, int max_nnz) {
  m->st = state_alloc((size_t) d * sizeof(SFX(fgrec))); /* every field 0 */
  return !m->st || SFX(entry_scratch_init)(scratch, max_nnz);
}

DEFINE_RECORD_PREFETCH(freegrad)

/* FreeGrad.Rule.w. */
static inline T SFX(fg_weight)(T bigG, T vsum, T h1, T ht, T eps) {
  if (h1 == 0 || vsum == 0) return 0;
  T a = FABS(bigG);
  T d = vsum + ht * a;
  T r = -bigG / d;
  T mm = (1 + vsum / d) / 2;
  T q = h1 / SQRT(vsum);
  T e = SFX(jmin)(a * (a / d) / 2, EXP_CAP);
  T w = r * eps * mm * h1 * q * (SFX(lane_expm1)(e) + 1);
  return SFX(jmax)(-T_MAX, SFX(jmin)(w, T_MAX));
}

static inline T SFX(fg_one)(const SFX(fgrec) *st, const int32_t *idx, const T *val, int j) {
  const SFX(fgrec) r = st[idx[j]];
  return X_TIMES(val[j], SFX(fg_weight)(r.G, r.Vsum, r.h1, r.ht, (T) 1.0));
}

static inline int SFX(freegrad_predict)(SFX(freegrad_model) *m, void *scratch, const int32_t *idx, const T *val,
    int nnz, double *yhat_out) {
  (void) scratch;
  T yh;
#define FG_CONTRIB(j) SFX(fg_one)(m->st, idx, val, j)
  ROW_SUM4(FG_CONTRIB, nnz, yh);
#undef FG_CONTRIB
  *yhat_out = (double) yh;
  return 0;
}

/* FreeGrad.Rule.clip, G, Vsum, h1, ht: every one reads the hints h1, ht from before the round. */
static inline int SFX(freegrad_update)(SFX(freegrad_model) *m, void *scratch, const int32_t *idx, const T *val,
    int nnz, double g) {
  (void) scratch;
  const T gf = (T) g;
  for (int j = 0; j < nnz; j++) {
    SFX(fgrec) *r = &m->st[idx[j]];
    T gx = gf * val[j];
    T h1 = r->h1, ht = r->ht;
    T a = FABS(gx);
    T clip = h1 != 0 && a > ht ? gx * (ht / a) : gx;
    if (gx != 0) {
      r->G = r->G + clip;
      T v = h1 == 0 ? r->Vsum + a * a : r->Vsum;
      r->Vsum = v + clip * clip;
    }
    r->h1 = h1 == 0 ? a : h1;
    r->ht = SFX(jmax)(ht, a);
  }
  return 0;
}

#undef DEFINE_RECORD_PREFETCH
#undef FTRL_ALPHA
#undef FTRL_BETA
#undef FTRL_L1
#undef FTRL_L2
