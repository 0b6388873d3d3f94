/*
 * The C twin of AdaGradOptimizer around the generated round, with the command line's defaults
 * (eta = 1, delta = 0, q0 = 0, R = inf: no box): w = 0 and Q = 0 to start.
 */
#define RULE_NAME "adagrad"

static void RULE(reset)(MODEL *m) {
  m->u[U_eta] = 1.0;
  m->u[U_delta] = 0.0;
  m->u[U_lo] = -INFINITY;
  m->u[U_hi] = INFINITY;
}
