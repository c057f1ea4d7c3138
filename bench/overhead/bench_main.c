/*
 * bench_main.c - the measured loop: N calls of bench_fn, repeated; prints
 * the fastest repetition in ns per call (the least disturbed by other load).
 * Usage: bench_main N [REPEAT]. With BENCH_TURN=1 in the environment, N
 * calls of bench_t0 to bench_t7 in turn instead: more children of main's
 * call path than the four a parent keeps at hand (docs/runtime.md).
 */
#include "bench_lib.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    int repeat = argc > 2 ? atoi(argv[2]) : 7;
    const char *turn = getenv("BENCH_TURN");
    int (*const fns[8])(int) = {bench_t0, bench_t1, bench_t2, bench_t3,
                                bench_t4, bench_t5, bench_t6, bench_t7};
    double best = 0;
    int sum = 0;
    for (int r = 0; r < repeat; r++) {
        double t0 = now_ns();
        if (turn && *turn == '1')
            for (long i = 0; i < n; i++)
                sum += fns[i & 7]((int)i);
        else
            for (long i = 0; i < n; i++)
                sum += bench_fn((int)i);
        double ns = (now_ns() - t0) / (double)n;
        if (r == 0 || ns < best)
            best = ns;
    }
    printf("%.3f\n", best);
    return sum == 42; /* keeps the loop; practically always 0 */
}
