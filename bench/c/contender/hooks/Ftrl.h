/*
 * The C twin of FtrlOptimizer around the generated round, with the command line's defaults
 * (alpha = 0.5, beta = 1, lambda1 = lambda2 = 0): z = N = 0 to start.
 */
#define RULE_NAME "ftrl"

static void RULE(reset)(MODEL *m) {
  m->u[U_alpha] = 0.5;
  m->u[U_beta] = 1.0;
  m->u[U_lambda1] = 0.0;
  m->u[U_lambda2] = 0.0;
}
