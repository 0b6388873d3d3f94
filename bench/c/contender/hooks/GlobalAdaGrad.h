/*
 * The C twin of GlobalAdaGradOptimizer around the generated round, with the command line's
 * defaults (alpha = 1, delta = 0, D = 1, no box): the round's rate from the sum of squared
 * gradient norms before the update (beforeUpdate), the sum committed after it.
 */
#define RULE_NAME "adagrad-global"
#define RULE_INPUT_NORM 1 /* needsInputNormAtUpdate: ||x||^2 of the row */
#define GA_SUM 0
#define GA_NEXT 1

static void RULE(reset)(MODEL *m) {
  m->u[U_lo] = -INFINITY;
  m->u[U_hi] = INFINITY;
  m->s[GA_SUM] = 0;
}

/* beforeUpdate: 3 where the library throws; *go = 0 for a zero denominator (no change). */
static int RULE(before_update)(MODEL *m, double g, int *go) {
  double sum = m->s[GA_SUM] + g * g * m->input_norm;
  if (!isfinite(sum)) return 3;
  m->s[GA_NEXT] = sum;
  double den = 0.0 + sqrt(2 * sum); /* delta + sqrt(2 sum) */
  if (!(den > 0)) {
    *go = 0;
    return 0;
  }
  double eta = 1.0 * 1.0 / den; /* alpha * D / den */
  if (!(eta <= T_MAX)) return 3;
  m->u[U_eta] = eta;
  return 0;
}

static int RULE(after_update)(MODEL *m, double row_sum) {
  (void) row_sum;
  m->s[GA_SUM] = m->s[GA_NEXT];
  return 0;
}
