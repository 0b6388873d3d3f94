/*
 * The load order C2 gives a 16x unrolled sum-of-squares loop (disassembled from the JIT's code:
 * offsets 0, 0x3c0, 0x380, ..., 0x40, then sixteen FMAs), against the same loop with ascending
 * loads, over 2^24 floats from DRAM. An empty asm statement pins each load where it is written.
 * Build: gcc -O3 -march=native load_order.c -o load_order
 * Results: bench-report/kernels-notes.md ("Reductions from DRAM").
 */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
#define L(k) __m512 v##k = _mm512_loadu_ps(x+i+16*k); __asm__ volatile("" : "+v"(v##k));
#define F(k) a=_mm512_fmadd_ps(v##k,v##k,a);
__attribute__((noinline)) float fwd(const float*x,long n){__m512 a=_mm512_setzero_ps();for(long i=0;i<n;i+=256){L(0)L(1)L(2)L(3)L(4)L(5)L(6)L(7)L(8)L(9)L(10)L(11)L(12)L(13)L(14)L(15)
 F(0)F(1)F(2)F(3)F(4)F(5)F(6)F(7)F(8)F(9)F(10)F(11)F(12)F(13)F(14)F(15)}return _mm512_reduce_add_ps(a);}
__attribute__((noinline)) float rev(const float*x,long n){__m512 a=_mm512_setzero_ps();for(long i=0;i<n;i+=256){L(0)L(15)L(14)L(13)L(12)L(11)L(10)L(9)L(8)L(7)L(6)L(5)L(4)L(3)L(2)L(1)
 F(0)F(1)F(2)F(3)F(4)F(5)F(6)F(7)F(8)F(9)F(10)F(11)F(12)F(13)F(14)F(15)}return _mm512_reduce_add_ps(a);}
int main(){long n=1L<<24;float*x=aligned_alloc(64,n*4);for(long i=0;i<n;i++)x[i]=0.5f;double s=0;
 for(int k=0;k<6;k++){double t0=now();for(int r=0;r<20;r++)s+=(k&1)?rev(x,n):fwd(x,n);printf("%s %.3f ns/elem\n",(k&1)?"C loads 0,15,14..1 (C2 order)":"C loads ascending            ",(now()-t0)/20/n*1e9);}
 printf("%g\n",s);}
