/* bench_lib.h - the trivial library function whose calls are measured,
 * and eight more that the loop calls in turn (BENCH_TURN, bench_main.c). */
#ifndef BENCH_LIB_H
#define BENCH_LIB_H
int bench_fn(int x);
int bench_t0(int x);
int bench_t1(int x);
int bench_t2(int x);
int bench_t3(int x);
int bench_t4(int x);
int bench_t5(int x);
int bench_t6(int x);
int bench_t7(int x);
#endif
