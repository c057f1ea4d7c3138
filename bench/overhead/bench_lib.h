/* bench_lib.h - the trivial library function whose calls are measured. */
#ifndef BENCH_LIB_H
#define BENCH_LIB_H
int bench_fn(int x);
#endif
