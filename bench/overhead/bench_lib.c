/* bench_lib.c - built as libbench.so: a call through the PLT, as to any library. */
#include "bench_lib.h"

int bench_fn(int x)
{
    return x + 1;
}

/* Each its own constant, so that the compiler folds none of them. */
#define BENCH_T(k)                                                                                 \
    int bench_t##k(int x)                                                                          \
    {                                                                                              \
        return x + k;                                                                              \
    }
BENCH_T(0)
BENCH_T(1)
BENCH_T(2)
BENCH_T(3)
BENCH_T(4)
BENCH_T(5)
BENCH_T(6)
BENCH_T(7)
