// Is the second vCPU a full core in this run? Three loads, each timed on 1 thread and then on 2
// threads doing the same work each (speedup = 2 * t1 / t2; 1 thread is timed again after the 2, and
// t1 is the faster of the two, since one-thread times on a VM vary from run to run):
//   reg     each thread a register-only loop (xorshift and a chain of FMAs): no memory at all.
//           About 2 on two full cores; about 1 when the two vCPUs share one core (SMT siblings)
//           or one host CPU.
//   priv    each thread random read-modify-writes in an 8 MiB array of its own: memory, but none
//           shared. About 2 unless the two cores share a cache or memory path that saturates.
//   shared  both threads in one 8 MiB array (the shared-state trainer's pattern): lines move
//           between the cores.
// Prints one line: ... speedup=REG/PRIV/SHARED (series.sh keeps what follows "speedup=").
// usage: cores [scale]   (scale 1: about 0.1 s per timing on one thread of a 2026 server core)
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define D (1u << 21)
static long N;
static int mode;
static float *shared, *priv[2];
static volatile double sink;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static void *work(void *a) {
  long id = (long) a;
  uint64_t x = 88172645463325252ull ^ ((uint64_t) (id + 1) * 0x9E3779B97F4A7C15ull);
  if (mode == 0) {
    double f0 = 1, f1 = 1.5, f2 = 2, f3 = 2.5;
    for (long n = 0; n < N; n++) {
      x ^= x << 13; x ^= x >> 7; x ^= x << 17;
      double r = (double) (x >> 11) * 0x1p-53;
      f0 = __builtin_fma(f0, 0.999999, r); f1 = __builtin_fma(f1, 0.999998, r);
      f2 = __builtin_fma(f2, 0.999997, r); f3 = __builtin_fma(f3, 0.999996, r);
    }
    sink = f0 + f1 + f2 + f3 + (double) x;
  } else {
    float *s = mode == 1 ? priv[id] : shared;
    long m = N / 4;
    for (long n = 0; n < m; n++) {
      x ^= x << 13; x ^= x >> 7; x ^= x << 17;
      uint32_t i = (uint32_t) (x >> 20) & (D - 1);
      s[i] = s[i] * 0.999f + 1.0f;
    }
  }
  return NULL;
}
static double run(int t) {
  pthread_t th[2];
  double s = now();
  for (long i = 0; i < t; i++) pthread_create(&th[i], NULL, work, (void *) i);
  for (int i = 0; i < t; i++) pthread_join(th[i], NULL);
  return now() - s;
}
int main(int argc, char **argv) {
  double scale = argc > 1 ? atof(argv[1]) : 1;
  N = (long) (40000000 * scale);
  shared = calloc(D, 4); priv[0] = calloc(D, 4); priv[1] = calloc(D, 4);
  // Every page touched before any timing: a first touch (a page fault, dear in a VM) inside the
  // two-thread timing of priv[1] would otherwise be counted as the threads' slowdown.
  for (uint32_t i = 0; i < D; i++) shared[i] = priv[0][i] = priv[1][i] = 1.0f;
  const char *name[] = {"reg", "priv", "shared"};
  double sp[3];
  for (mode = 0; mode < 3; mode++) {
    run(1);
    double a = run(1), t2 = run(2), b = run(1), t1 = a < b ? a : b;
    sp[mode] = 2 * t1 / t2;
    printf("%s t1=%.3f/%.3f t2=%.3f  ", name[mode], a, b, t2);
  }
  printf("speedup=%.2f/%.2f/%.2f\n", sp[0], sp[1], sp[2]);
  return 0;
}
