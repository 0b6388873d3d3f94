/*
 * The C twin of AdaptiveOgdBallOptimizer around the generated round, with the command line's
 * defaults (R = 100): every coordinate shrinks in every round, so the round's update is the
 * optimizer's own (roundUpdate -> updateSparse -> apply): the scalar recurrence in double from
 * ||w||^2, <w, x> and ||x||^2, then the rule's update of every coordinate with the rate eta, the
 * shrink lambda and the projection factor p as its uniforms.
 */
#define RULE_NAME "aogd-ball"
#define BALL_HSUM 0
#define BALL_LSUM 1

static void RULE(reset)(MODEL *m) {
  m->s[BALL_HSUM] = 0;
  m->s[BALL_LSUM] = 0;
}

/* updateSparse and apply; 3 where the library throws. */
static int RULE(round_update)(MODEL *m, const int32_t *idx, const T *val, int nnz, double g) {
  _Static_assert(sizeof *m->st == sizeof(T), "the ball's record is its weight alone");
  const T *w = (const T *) m->st;
  const double radius = 100.0;
  double hs = m->s[BALL_HSUM] + 0.0; /* nextHsum(H_t = 0) */
  if (!isfinite(hs)) return 3;
  double ww = (double) TF(dot_vl)(w, w, m->d, 4);         /* linalg.sumOfSquares(w, d) */
  double wg = g * (double) TF(dot_sparse2)(w, idx, val, nnz); /* g * linalg.dotSparse */
  double gg = g * g * (double) TF(dot_vl)(val, val, nnz, 4); /* g^2 * sumOfSquares(val) */
  double s = hs + m->s[BALL_LSUM];
  double c = 8 * gg / (3 * radius * radius);
  double den = 2 * (sqrt(s * s + c) + s);
  double lambda = den > 0 ? c / den : 0;
  double ls = m->s[BALL_LSUM] + lambda;
  double den2 = hs + ls;
  if (den2 > 0) {
    double eta = 1 / den2;
    if (eta > T_MAX) return 3;
    double a = 1 - eta * lambda;
    double vv = a * a * ww - 2 * eta * a * wg + eta * eta * gg;
    double nv = sqrt(fmax_java(vv, 0));
    m->u[U_eta] = eta;
    m->u[U_lambda] = lambda;
    m->u[U_p] = nv > radius ? radius / nv : 1;
    RULE(update_every)(m, idx, val, nnz, (T) g); /* super.updateDense(x, g) */
  }
  m->s[BALL_HSUM] = hs;
  m->s[BALL_LSUM] = ls;
  return 0;
}
