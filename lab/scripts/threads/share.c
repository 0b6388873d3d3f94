// Shared-state probe: T threads each do N random read-modify-writes of floats in one shared 8 MB
// array (Hogwild on a state that fits in L3), or each in its own 8 MB array. Speedup = T * t1 / tT.
// Two cores sharing an L3 give ~2 for both; cores in different L3 domains (CCDs) give ~2 for the
// private arrays and much less for the shared one (every line another core wrote moves between L3s).
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
#define D (1u << 21)
static long N; static float *shared; static float *priv[2]; static int mode;
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static void *work(void *a){ long id=(long)a; float *s = mode ? priv[id] : shared; uint64_t x=88172645463325252ull ^ (id*0x9E3779B97F4A7C15ull);
  for(long n=0;n<N;n++){ x^=x<<13; x^=x>>7; x^=x<<17; uint32_t i=(uint32_t)(x>>20)&(D-1); s[i]=s[i]*0.999f+1.0f; } return 0;}
static double run(int t){pthread_t th[2];double s=now();for(long i=0;i<t;i++)pthread_create(&th[i],0,work,(void*)i);for(int i=0;i<t;i++)pthread_join(th[i],0);return now()-s;}
int main(int c,char**v){N=atol(v[1]);shared=calloc(D,4);priv[0]=calloc(D,4);priv[1]=calloc(D,4);
  for(mode=0;mode<2;mode++){run(1);double t1=run(1),t2=run(2);printf("%s t1=%.3f t2=%.3f speedup=%.2f  ",mode?"private":"shared",t1,t2,2*t1/t2);}printf("\n");return 0;}
