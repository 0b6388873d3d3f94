/*
 * One-pass float reductions over 2^24 floats (64 MiB, from DRAM) with AVX-512 intrinsics:
 * sum (add), sum of squares (one FMA chain, four chains, mul + add) and a two-stream dot.
 * Shows that a multiply-add reduction streams at the rate of a plain sum when the loads are issued
 * in address order. Build: gcc -O3 -march=native reduction_rates.c -o reduction_rates
 */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
__attribute__((noinline)) float sadd(const float*x,long n){__m512 a=_mm512_setzero_ps();for(long i=0;i<n;i+=16)a=_mm512_add_ps(a,_mm512_loadu_ps(x+i));return _mm512_reduce_add_ps(a);}
__attribute__((noinline)) float sfma(const float*x,long n){__m512 a=_mm512_setzero_ps();for(long i=0;i<n;i+=16){__m512 v=_mm512_loadu_ps(x+i);a=_mm512_fmadd_ps(v,v,a);}return _mm512_reduce_add_ps(a);}
__attribute__((noinline)) float sfma4(const float*x,long n){__m512 a=_mm512_setzero_ps(),b=a,c=a,d=a;for(long i=0;i<n;i+=64){__m512 v=_mm512_loadu_ps(x+i),w=_mm512_loadu_ps(x+i+16),y=_mm512_loadu_ps(x+i+32),z=_mm512_loadu_ps(x+i+48);a=_mm512_fmadd_ps(v,v,a);b=_mm512_fmadd_ps(w,w,b);c=_mm512_fmadd_ps(y,y,c);d=_mm512_fmadd_ps(z,z,d);}return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(a,b),_mm512_add_ps(c,d)));}
__attribute__((noinline)) float smuladd(const float*x,long n){__m512 a=_mm512_setzero_ps();for(long i=0;i<n;i+=16){__m512 v=_mm512_loadu_ps(x+i);a=_mm512_add_ps(a,_mm512_mul_ps(v,v));}return _mm512_reduce_add_ps(a);}
__attribute__((noinline)) float sdot(const float*x,const float*y,long n){__m512 a=_mm512_setzero_ps(),b=a;for(long i=0;i<n;i+=32){a=_mm512_fmadd_ps(_mm512_loadu_ps(x+i),_mm512_loadu_ps(y+i),a);b=_mm512_fmadd_ps(_mm512_loadu_ps(x+i+16),_mm512_loadu_ps(y+i+16),b);}return _mm512_reduce_add_ps(_mm512_add_ps(a,b));}
int main(){long n=1L<<24;float*x=aligned_alloc(64,n*4),*y=aligned_alloc(64,n*4);for(long i=0;i<n;i++){x[i]=0.5f+(i%7)*0.01f;y[i]=x[i];}
 const char*nm[]={"add","fma","fma4","mul+add","dot2"};double sink=0;
 for(int k=0;k<5;k++){double best=1e9,med[9];for(int r=0;r<9;r++){double t0=now();int c=0;while(now()-t0<0.3){switch(k){case 0:sink+=sadd(x,n);break;case 1:sink+=sfma(x,n);break;case 2:sink+=sfma4(x,n);break;case 3:sink+=smuladd(x,n);break;case 4:sink+=sdot(x,y,n);break;}c++;}med[r]=(now()-t0)/c/n*1e9;}
  for(int i=0;i<9;i++)for(int j=i+1;j<9;j++)if(med[j]<med[i]){double t=med[i];med[i]=med[j];med[j]=t;}
  printf("C %-8s median %.3f ns/elem (min %.3f)\n",nm[k],med[4],med[0]);}
 printf("%g\n",sink);}
