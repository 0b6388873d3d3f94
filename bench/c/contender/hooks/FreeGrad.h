/*
 * The C twin of FreeGradOptimizer around the generated round, with the command line's defaults
 * (eps = 1): every field 0 to start.
 */
#define RULE_NAME "freegrad"

static void RULE(reset)(MODEL *m) {
  m->u[U_eps] = 1.0;
}
