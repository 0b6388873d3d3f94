/*
 * Sparse AdaGrad in C, the reference setting reproduced: d = 2^22 float state (w, Q),
 * a pool of about 2^20 nonzeros in vectors of nnz strictly increasing random indices, cycled;
 * argument 2 = 1 asks for transparent huge pages on w and Q (madvise). Prints ns per nonzero.
 * Build: gcc -O3 -march=native -fno-math-errno -fno-trapping-math sparse_adagrad.c -o sparse_adagrad -lm
 * Run:   ./sparse_adagrad 16 0; ./sparse_adagrad 128 0; ./sparse_adagrad 1024 0
 * Results on this machine kind are in bench-report/kernels-notes.md ("Sparse AdaGrad").
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static unsigned long long s=12345;static unsigned rnd(){s^=s<<13;s^=s>>7;s^=s<<17;return (unsigned)s;}
static int cmp(const void*a,const void*b){return *(int*)a-*(int*)b;}
int main(int argc,char**argv){
  int d=1<<22; int nnz=atoi(argv[1]); int huge=atoi(argv[2]);
  size_t bytes=(size_t)d*4;
  float *w,*q;
  w=mmap(0,bytes,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0);
  q=mmap(0,bytes,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0);
  if(huge){madvise(w,bytes,MADV_HUGEPAGE);madvise(q,bytes,MADV_HUGEPAGE);}
  memset(w,0,bytes);memset(q,0,bytes);
  int count=(1<<20)/nnz; if(count<16)count=16;
  int *idx=malloc((size_t)count*nnz*4); float*val=malloc((size_t)count*nnz*4);
  for(int k=0;k<count;k++){int*a=idx+(size_t)k*nnz;
    for(;;){for(int j=0;j<nnz;j++)a[j]=rnd()%d; qsort(a,nnz,4,cmp); int ok=1; for(int j=1;j<nnz;j++)if(a[j]==a[j-1])ok=0; if(ok)break;}
    for(int j=0;j<nnz;j++)val[(size_t)k*nnz+j]=(rnd()&1?1:-1)*(0.25f+0.75f*(rnd()/4294967296.0f));}
  float eta=0.1f,delta=1e-6f; double best=1e9;
  for(int rep=0;rep<7;rep++){
    long calls=0; double t0=now(); float sc=1;
    while(now()-t0<0.4){ for(int c=0;c<count;c++){const int*ix=idx+(size_t)c*nnz;const float*v=val+(size_t)c*nnz;
      for(int j=0;j<nnz;j++){int i=ix[j];float g=sc*v[j];float qi=q[i]+g*g;q[i]=qi;w[i]-=eta*g/(delta+sqrtf(qi));}
      sc=-sc;calls++;} }
    double t=(now()-t0)/calls/nnz*1e9; if(t<best)best=t; printf("nnz=%d huge=%d rep %d: %.2f ns/nnz\n",nnz,huge,rep,t);}
  printf("BEST nnz=%d huge=%d %.2f\n",nnz,huge,best);
  return (int)w[0];
}
