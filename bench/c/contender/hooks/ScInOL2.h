/*
 * The C twin of ScInOL2Optimizer around the generated round, with the command line's defaults
 * (eps = 1): the wealth eta starts at eps. Its round counter t is not read by the rule.
 */
#define RULE_NAME "scinol2"

static void RULE(reset)(MODEL *m) {
  for (int i = 0; i < m->d; i++) m->st[i].eta = (T) 1.0; /* store.fill("eta", eps) */
}
