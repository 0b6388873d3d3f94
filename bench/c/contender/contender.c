/*
 * The C contender of the workload benchmark (issue #21, part 1): one online pass with progressive
 * validation, as `online-kernels train --data F --no-shuffle --epochs 1 --algorithm A --type T`
 * runs it (OnlineTrainer's sparse path: per row and output predict, logistic loss and derivative
 * from the prediction, update; binary labels one output, classes 0..K-1 K one-vs-rest outputs),
 * as a fused C loop per rule, generated from the rule's source as the library's Java forms are
 * (rules.h, written by online-kernels-codegen's CRuleGenerator), with the next row's state records
 * prefetched. Prints one line of JSON: the mean progressive loss (17 significant
 * digits and its bits), rows, seconds of the pass and steady-state nanoseconds per row (the
 * second half of the rows, the CLI's "steady state").
 *
 * Build: gcc -O3 -march=native -fno-math-errno -fno-trapping-math -ffp-contract=off \
 *          -I bench/target/generated-sources/c -I bench/c/contender \
 *          -o contender contender.c libsvm_read.c -lm          (CContender does it)
 * Usage: contender --data FILE [--algorithm scinol2|adagrad|scinol1|dfeg|adagrad-global|aogd-coord|aogd-ball|
 *          ftrl|kt|freegrad]
 *          [--type float|double] [--repeat R] [--dimension N] [--hugepages]
 *        contender --check-libm FILE   (fdlibm.h against a file of Java's StrictMath results)
 *        contender --bits DECIMAL      (the bits of the nearest double, e.g. of the CLI's printed loss)
 *        contender --rules             (the rules it has, one per line)
 *        contender --unported          (the library's rules it has not, with why)
 *
 * The mean progressive loss is summed as OnlineTrainer sums it (per row the outputs' losses in
 * double, in output order, starting from 0; rows in file order into one double; divided by n) and
 * passed through Metrics.combine ((0 + (sum / n) * n) / n), which is what `train --json` prints as
 * progressive.loss ("loss", "loss_bits"); "pass_loss" is sum / n before the combine, what
 * OnlineTrainer.fit(...)[0].meanLoss() returns (the workload benchmark's
 * TrainerContender.pass()). Its exp and log1p are fdlibm's (fdlibm.h): bit-identical to the
 * library on a JVM whose Math.exp is fdlibm's (-XX:+UnlockDiagnosticVMOptions -XX:-UseLibmIntrinsic), see
 * README.md for the default JVM.
 */
#define _GNU_SOURCE
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "fdlibm.h"
#include "libsvm_read.h"

static int use_hugepages;

/* Zeroed, 64-byte aligned state (huge pages on request; else as the JVM's default heap: none). */
static void *state_alloc(size_t bytes) {
  size_t align = use_hugepages ? (size_t) 2 << 20 : 64;
  size_t size = (bytes + align - 1) / align * align;
  void *p = aligned_alloc(align, size ? size : align);
  if (!p) return NULL;
  if (use_hugepages) madvise(p, size, MADV_HUGEPAGE);
  memset(p, 0, size);
  return p;
}

/* Java's Math.max on doubles (NaN wins, +0.0 above -0.0). */
static inline double fmax_java(double a, double b) {
  if (a != a) return a;
  if (a == 0 && b == 0 && signbit(a)) return b;
  return a >= b ? a : b;
}

/*
 * Loss.LOGISTIC.derivativeAndValue: one exp of -|z| for the loss and the derivative (-fabs(z) has
 * the bits of Java's Math.min(z, -z) wherever z is a number).
 */
static inline double logistic_dv(double y, double yhat, double *loss) {
  double z = y * yhat;
  double e = fd_exp(-fabs(z));
  *loss = z > 0 ? fd_log1p(e) : -z + fd_log1p(e);
  return z >= 0 ? -y * e / (1 + e) : -y / (1 + e);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* This thread's CPU time: what the pass cost when other processes share the cores. */
static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct {
  double loss_sum;
  double seconds;
  double steady_seconds;
  double steady_cpu_seconds;
  double cpu_seconds; /* the whole pass in thread CPU time */
  int steady_rows;
  int failed_row; /* 1-based; 0: none */
  int fail_code;  /* 1: refused gradient (CLI exit 1), 3: arithmetic overflow (CLI exit 3), 2: memory */
} result;

/*
 * One pass: rows in file order; per row, the records of the next row prefetched, then every
 * output's predict, the outputs' losses and derivatives, every output's update. The outputs share
 * no state, so predicting output k+1 before updating output k changes no bit (OnlineTrainer runs
 * each output over a block of rows in turn, for the same reason), and the K losses, independent,
 * overlap in the pipeline. The row's loss is the outputs' losses summed in output order from 0,
 * added to the pass's sum. The clock starts before the first row and stops after the last; the
 * steady span starts at row n / 2, as OnlineTrainer's second half. Defined for each generated rule and type P (P##model, P##init, P##predict, ... in rules.h).
 */
#define DEFINE_TRAIN(P, T)                                                                       \
  static void P##train(const dataset *ds, const T *val, result *res) {                           \
    int K = ds->outputs, n = ds->n;                                                             \
    P##model *mods = calloc((size_t) K, sizeof *mods);                                          \
    double *yh = malloc((size_t) K * sizeof *yh), *gk = malloc((size_t) K * sizeof *gk);         \
    double *lk = malloc((size_t) K * sizeof *lk);                                               \
    memset(res, 0, sizeof *res);                                                                \
    for (int k = 0; k < K; k++) {                                                               \
      if (P##init(&mods[k], ds->d, ds->max_nnz)) {                                              \
        res->fail_code = 2;                                                                     \
        return;                                                                                 \
      }                                                                                         \
    }                                                                                           \
    const int64_t *start = ds->start;                                                           \
    const int32_t *idx = ds->idx;                                                               \
    const double *label = ds->label;                                                            \
    const int half = n / 2;                                                                     \
    double loss_sum = 0;                                                                        \
    double t0 = now(), th = t0, c0 = cpu_now(), ch = c0;                                        \
    for (int r = 0; r < n; r++) {                                                               \
      if (r == half) {                                                                          \
        th = now();                                                                             \
        ch = cpu_now();                                                                         \
      }                                                                                         \
      const int64_t s = start[r];                                                               \
      const int nnz = (int) (start[r + 1] - s);                                                 \
      if (r + 1 < n) {                                                                          \
        const int64_t ps = start[r + 1];                                                        \
        const int pn = (int) (start[r + 2] - ps);                                               \
        for (int k = 0; k < K; k++) P##prefetch(&mods[k], idx + ps, pn);                        \
      }                                                                                         \
      int rc = 0, k;                                                                            \
      for (k = 0; k < K && !rc; k++) rc = P##predict(&mods[k], idx + s, val + s, nnz, &yh[k]);   \
      if (!rc) {                                                                                \
        if (K == 1) {                                                                           \
          gk[0] = logistic_dv(label[r], yh[0], &lk[0]);                                         \
        } else {                                                                                \
          for (k = 0; k < K; k++) gk[k] = logistic_dv(k == label[r] ? 1.0 : -1.0, yh[k], &lk[k]); \
        }                                                                                       \
        double row_loss = 0;                                                                    \
        for (k = 0; k < K; k++) {                                                               \
          if (!isfinite(gk[k])) {                                                               \
            rc = 1;                                                                             \
            break;                                                                              \
          }                                                                                     \
          row_loss += lk[k];                                                                    \
        }                                                                                       \
        loss_sum += row_loss;                                                                   \
      }                                                                                         \
      for (k = 0; k < K && !rc; k++) rc = P##update(&mods[k], idx + s, val + s, nnz, gk[k]);     \
      if (rc) {                                                                                 \
        res->failed_row = r + 1;                                                                \
        res->fail_code = rc;                                                                    \
        return;                                                                                 \
      }                                                                                         \
    }                                                                                           \
    double t1 = now(), c1 = cpu_now();                                                          \
    res->steady_cpu_seconds = c1 - ch;                                                          \
    res->cpu_seconds = c1 - c0;                                                                 \
    res->loss_sum = loss_sum;                                                                   \
    res->seconds = t1 - t0;                                                                     \
    res->steady_seconds = t1 - th;                                                              \
    res->steady_rows = n - half;                                                                \
    for (int k = 0; k < K; k++) P##free(&mods[k]);                                              \
    free(mods);                                                                                 \
    free(yh);                                                                                   \
    free(gk);                                                                                   \
    free(lk);                                                                                   \
  }

typedef void (*train_f)(const dataset *, const float *, result *);
typedef void (*train_d)(const dataset *, const double *, result *);

/* A rule as the command line names it, and its pass in float and in double. */
typedef struct {
  const char *name;
  train_f f;
  train_d d;
} rule_entry;

/*
 * The rules, generated from the library's rule sources (bench/target/generated-sources/c/rules.h,
 * written by online-kernels-codegen's CRuleGenerator): RULES, and UNPORTED with why.
 */
#include "rules.h"

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* Checks fdlibm.h against records (x, StrictMath.exp(x), y, StrictMath.log1p(y)) of doubles. */
static int check_libm(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "error: cannot read %s\n", path);
    return 1;
  }
  double r[4];
  long n = 0, bad_exp = 0, bad_log = 0;
  while (fread(r, sizeof(double), 4, f) == 4) {
    n++;
    double e = fd_exp(r[0]), l = fd_log1p(r[2]);
    if (memcmp(&e, &r[1], 8) && !(e != e && r[1] != r[1])) bad_exp++;
    if (memcmp(&l, &r[3], 8) && !(l != l && r[3] != r[3])) bad_log++;
  }
  fclose(f);
  printf("{\"check\": \"libm\", \"n\": %ld, \"exp_mismatches\": %ld, \"log1p_mismatches\": %ld}\n", n, bad_exp, bad_log);
  return bad_exp || bad_log || n == 0;
}

/* A JSON string: quotes, backslashes and control characters escaped. */
static void print_json_string(const char *v) {
  putchar('"');
  for (const unsigned char *c = (const unsigned char *) v; *c; c++) {
    if (*c == '"' || *c == '\\') printf("\\%c", *c);
    else if (*c < 0x20) printf("\\u%04x", *c);
    else putchar(*c);
  }
  putchar('"');
}

static void usage(void) {
  fprintf(stderr,
      "usage: contender --data FILE [--algorithm A] [--type float|double] [--repeat R]\n"
      "                 [--dimension N] [--hugepages]\n"
      "       contender --check-libm FILE | --bits DECIMAL | --rules | --unported\n"
      "  A: scinol2 (default), adagrad, scinol1, dfeg, adagrad-global, aogd-coord, aogd-ball, ftrl, kt,\n"
      "     freegrad (default parameters)\n");
}

int main(int argc, char **argv) {
  const char *data = NULL, *algorithm = "scinol2", *type = "float";
  int repeat = 1, dimension = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--check-libm") && v) return check_libm(v);
    if (!strcmp(a, "--bits") && v) { /* the bits of a decimal (e.g. the CLI's loss), nearest double */
      double x = strtod(v, NULL);
      uint64_t b;
      memcpy(&b, &x, 8);
      printf("0x%016llx\n", (unsigned long long) b);
      return 0;
    }
    if (!strcmp(a, "--rules")) { /* the rules this program has, one per line (the Java harness asks) */
      for (size_t k = 0; RULES[k].name; k++) puts(RULES[k].name);
      return 0;
    }
    if (!strcmp(a, "--unported")) { /* the library's rules it has not: "Rule: why", one per line */
      for (size_t k = 0; UNPORTED[k][0]; k++) printf("%s: %s\n", UNPORTED[k][0], UNPORTED[k][1]);
      return 0;
    }
    if (!strcmp(a, "--hugepages")) {
      use_hugepages = 1;
      continue;
    }
    if (!v) {
      usage();
      return 2;
    }
    i++;
    if (!strcmp(a, "--data")) data = v;
    else if (!strcmp(a, "--algorithm")) algorithm = v;
    else if (!strcmp(a, "--type")) type = v;
    else if (!strcmp(a, "--repeat")) repeat = atoi(v);
    else if (!strcmp(a, "--dimension")) dimension = atoi(v);
    else {
      usage();
      return 2;
    }
  }
  int is_float = !strcmp(type, "float");
  int rule = -1;
  for (size_t k = 0; RULES[k].name; k++) {
    if (!strcmp(RULES[k].name, algorithm)) rule = (int) k;
  }
  if (!data || rule < 0 || (!is_float && strcmp(type, "double")) || repeat < 1 || dimension < 0) {
    usage();
    return 2;
  }
  expm1_setup_float();
  expm1_setup_double();

  dataset ds;
  double p0 = now();
  /* InputPolicy.magnitudeLimit: 2^40 for float, 2^480 for double. */
  if (libsvm_read(data, is_float ? 0x1p40 : 0x1p480, dimension, &ds)) return 1;
  double parse_seconds = now() - p0;

  double *secs = malloc((size_t) repeat * sizeof *secs);
  double *steady = malloc((size_t) repeat * sizeof *steady);
  double *steady_sorted = malloc((size_t) repeat * sizeof *steady_sorted);
  double *steady_cpu = malloc((size_t) repeat * sizeof *steady_cpu);
  double *cpu = malloc((size_t) repeat * sizeof *cpu);
  double loss_sum = 0;
  int steady_rows = 0;
  for (int t = 0; t < repeat; t++) {
    result res;
    if (is_float) RULES[rule].f(&ds, ds.valf, &res);
    else RULES[rule].d(&ds, ds.val, &res);
    if (res.fail_code == 2) {
      fprintf(stderr, "error: cannot allocate the state (d = %d, %d outputs)\n", ds.d, ds.outputs);
      return 1;
    }
    if (res.fail_code) {
      fprintf(stderr, "error: training stopped at epoch 1, example %d: %s\n", res.failed_row,
          res.fail_code == 1 ? "the gradient is not finite" : "arithmetic overflow (the library throws ArithmeticException)");
      return res.fail_code;
    }
    if (t > 0 && memcmp(&loss_sum, &res.loss_sum, sizeof loss_sum)) {
      fprintf(stderr, "error: repetition %d summed another loss (%a against %a)\n", t + 1, res.loss_sum, loss_sum);
      return 3;
    }
    loss_sum = res.loss_sum;
    secs[t] = res.seconds;
    steady[t] = res.steady_seconds / res.steady_rows * 1e9;
    steady_cpu[t] = res.steady_cpu_seconds / res.steady_rows * 1e9;
    cpu[t] = res.cpu_seconds;
    steady_rows = res.steady_rows;
  }
  /* OnlineTrainer: lossSum / n; Metrics.combine: (0 + mean * n) / n. */
  double n = (double) ds.n;
  double mean = loss_sum / n;
  double combined = (0.0 + mean * n) / n;
  uint64_t bits, pass_bits;
  memcpy(&bits, &combined, 8);
  memcpy(&pass_bits, &mean, 8);
  memcpy(steady_sorted, steady, (size_t) repeat * sizeof *steady);
  qsort(steady_sorted, (size_t) repeat, sizeof *steady_sorted, cmp_double);
  double *secs_sorted = malloc((size_t) repeat * sizeof *secs_sorted);
  memcpy(secs_sorted, secs, (size_t) repeat * sizeof *secs);
  qsort(secs_sorted, (size_t) repeat, sizeof *secs_sorted, cmp_double);
  qsort(steady_cpu, (size_t) repeat, sizeof *steady_cpu, cmp_double);

  printf("{\"contender\": \"c\", \"algorithm\": \"%s\", \"type\": \"%s\", \"data\": ", RULES[rule].name, type);
  print_json_string(data);
  printf(", \"n\": %d, \"d\": %d, "
         "\"outputs\": %d, \"labels\": \"%s\", \"nonzeros\": %lld, "
         "\"loss\": %.17g, \"loss_bits\": \"0x%016llx\", \"pass_loss\": %.17g, \"pass_loss_bits\": \"0x%016llx\", "
         "\"seconds\": %.6f, \"ns_per_row\": %.2f, \"steady_examples\": %d, \"steady_ns_per_row\": %.2f, "
         "\"steady_cpu_ns_per_row\": %.2f, \"repeat\": %d, \"steady_ns_per_row_all\": [",
      ds.n, ds.d, ds.outputs, ds.labels_rule, (long long) ds.nnz, combined,
      (unsigned long long) bits, mean, (unsigned long long) pass_bits, secs_sorted[(repeat - 1) / 2], secs_sorted[(repeat - 1) / 2] / ds.n * 1e9,
      steady_rows, steady_sorted[(repeat - 1) / 2], steady_cpu[(repeat - 1) / 2], repeat);
  for (int t = 0; t < repeat; t++) printf("%s%.2f", t ? ", " : "", steady[t]);
  printf("], \"seconds_all\": [");
  for (int t = 0; t < repeat; t++) printf("%s%.9f", t ? ", " : "", secs[t]);
  printf("], \"cpu_seconds_all\": [");
  for (int t = 0; t < repeat; t++) printf("%s%.9f", t ? ", " : "", cpu[t]);
  printf("], \"parse_seconds\": %.3f, \"hugepages\": %s, \"exp\": \"fdlibm\"}\n", parse_seconds,
      use_hugepages ? "true" : "false");
  return 0;
}
