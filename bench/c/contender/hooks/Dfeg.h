/*
 * The C twin of DfegOptimizer around the generated round, with the command line's defaults
 * (a = 0.882, L = 1, delta = 1): H and ||theta||^2 in double; yhat is the row's sum scaled by
 * exp(||theta|| / alpha) / (beta ||theta||) (finishPredict), H committed only for a finite yhat;
 * ||theta||^2 advances by the rule's row sum (afterUpdate).
 */
#define RULE_NAME "dfeg"
#define RULE_INPUT_NORM 1 /* needsInputNorm: ||x||^2 of the row before the predict */
#define DFEG_H 0
#define DFEG_NORM_SQ 1

static void RULE(reset)(MODEL *m) {
  m->s[DFEG_H] = 1.0; /* delta */
  m->s[DFEG_NORM_SQ] = 0;
}

/* predictFrom and weightScale; 3 where the library throws ArithmeticException. */
static int RULE(finish_predict)(MODEL *m, double sum, double *yhat) {
  const double a = 0.882, l = 1.0;
  double h_new = m->s[DFEG_H] + l * l * fmax_java(sqrt(m->input_norm), m->input_norm);
  double c = 0;
  double norm = sqrt(m->s[DFEG_NORM_SQ]);
  if (norm != 0) {
    double alpha = a * sqrt(h_new);
    double beta = h_new * sqrt(h_new);
    c = fd_exp(norm / alpha) / (beta * norm);
    if (!isfinite(c)) return 3;
  }
  double y = c * sum;
  if (!isfinite(y)) return 3;
  m->s[DFEG_H] = h_new;
  *yhat = y;
  return 0;
}

static int RULE(after_update)(MODEL *m, double row_sum) {
  m->s[DFEG_NORM_SQ] = fmax_java(0.0, m->s[DFEG_NORM_SQ] + row_sum);
  return 0;
}
