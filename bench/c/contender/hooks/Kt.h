/*
 * The C twin of KtOptimizer around the generated round, with the command line's defaults (eps = 1,
 * Lg = 1): the wealth W starts at eps.
 */
#define RULE_NAME "kt"

static void RULE(reset)(MODEL *m) {
  m->u[U_Lg] = 1.0;
  for (int i = 0; i < m->d; i++) m->st[i].W = (T) 1.0; /* store.fill("W", eps) */
}
