/*
 * The C twin of ScInOL1Optimizer around the generated round, with the command line's defaults
 * (eps = 1): beta starts at eps; the round counter t (a uniform of the rule) starts at 1 and
 * advances after every update.
 */
#define RULE_NAME "scinol1"

static void RULE(reset)(MODEL *m) {
  m->u[U_eps] = 1.0;
  m->u[U_t] = 1.0;
  for (int i = 0; i < m->d; i++) m->st[i].beta = (T) 1.0; /* store.fill("beta", eps) */
}

static int RULE(after_update)(MODEL *m, double row_sum) {
  (void) row_sum;
  m->u[U_t] += 1; /* setScalar("t", t + 1) */
  return 0;
}
