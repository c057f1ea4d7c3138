/*
 * bench_main.c - the measured loop: N calls of bench_fn, repeated; prints
 * the fastest repetition in ns per call (the least disturbed by other load).
 * Usage: bench_main N [REPEAT]
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
    double best = 0;
    int sum = 0;
    for (int r = 0; r < repeat; r++) {
        double t0 = now_ns();
        for (long i = 0; i < n; i++)
            sum += bench_fn((int)i);
        double ns = (now_ns() - t0) / (double)n;
        if (r == 0 || ns < best)
            best = ns;
    }
    printf("%.3f\n", best);
    return sum == 42; /* keeps the loop; practically always 0 */
}
