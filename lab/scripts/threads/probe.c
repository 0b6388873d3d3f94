// Two-core probe: T threads each run the same pure ALU loop (no shared memory, no allocation);
// prints the wall seconds of 1 thread and of T threads and the speedup T * t1 / tT. Independent
// cores give T; two vCPUs sharing one physical core (or one host CPU) give about 1.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static long iters;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static void *spin(void *arg) {
  uint64_t x = 88172645463325252ULL + (uintptr_t) arg;
  for (long i = 0; i < iters; i++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; }
  volatile uint64_t sink = x; (void) sink; return NULL;
}
static double run(int t) {
  pthread_t th[64]; double s = now();
  for (int i = 0; i < t; i++) pthread_create(&th[i], NULL, spin, (void *) (uintptr_t) i);
  for (int i = 0; i < t; i++) pthread_join(th[i], NULL);
  return now() - s;
}
int main(int argc, char **argv) {
  int t = argc > 1 ? atoi(argv[1]) : 2;
  iters = argc > 2 ? atol(argv[2]) : 200000000L;
  double t1 = run(1), tt = run(t);
  printf("probe t1=%.3f t%d=%.3f speedup=%.2f\n", t1, t, tt, t * t1 / tt);
  return 0;
}
