/*
 * The C twin of AdaptiveOgdCoordinateOptimizer around the generated round, with the command
 * line's defaults (R = 100): Hsum (a uniform of the rule) advances by the curvature H_t, which the
 * trainer does not give (0), before the update, and is committed after it.
 */
#define RULE_NAME "aogd-coord"
#define AOGD_HSUM 0
#define AOGD_NEXT 1

static void RULE(reset)(MODEL *m) {
  m->u[U_R] = 100.0;
  m->u[U_Hsum] = 0;
  m->s[AOGD_HSUM] = 0;
}

/* beforeUpdate: nextHsum(curvature()); 3 where it overflows. */
static int RULE(before_update)(MODEL *m, double g, int *go) {
  (void) g;
  (void) go;
  double next = m->s[AOGD_HSUM] + 0.0;
  if (!isfinite(next)) return 3;
  m->s[AOGD_NEXT] = next;
  m->u[U_Hsum] = next;
  return 0;
}

static int RULE(after_update)(MODEL *m, double row_sum) {
  (void) row_sum;
  m->s[AOGD_HSUM] = m->s[AOGD_NEXT];
  return 0;
}
