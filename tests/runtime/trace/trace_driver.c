/*
 * trace_driver.c - drives the trace writer (trace.h) and the metric sources
 * (metrics.h) directly, as the runtime core does, with a known call pattern.
 *
 *   trace_driver DIR THREADS CALLS BUDGET
 *
 * Thread k (0 = main) calls "outer" CALLS times, and inside each "inner"
 * k+1 times. Metrics come from the LIBWRAP_METRIC_* variables. Prints
 * "events N" (the count lw_trace_finalize returns) and "metrics M".
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "metrics.h"
#include "trace.h"

static libwrap_region outer = LIBWRAP_REGION_INIT("lib_outer", "outer", "lib.h", 10);
static libwrap_region inner = LIBWRAP_REGION_INIT("lib_inner", "inner", "lib.h", 20);
static long calls;

static uint64_t now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *run(void *arg)
{
    uint32_t tid = (uint32_t)(uintptr_t)arg;
    lw_metrics_thread mt = {0};
    uint64_t m[LW_MAX_METRICS];
    lw_trace_thread *t = lw_trace_thread_begin(tid);

    if (!t) {
        fprintf(stderr, "trace_driver: no event writer for thread %u\n", tid);
        exit(2);
    }
    lw_metrics_thread_init(&mt);
    for (long i = 0; i < calls; i++) {
        lw_metrics_read(&mt, m);
        lw_trace_enter(t, 1, now(), m);
        for (uint32_t j = 0; j <= tid; j++) {
            lw_metrics_read(&mt, m);
            lw_trace_enter(t, 2, now(), m);
            lw_metrics_read(&mt, m);
            lw_trace_leave(t, 2, now(), m);
        }
        lw_metrics_read(&mt, m);
        lw_trace_leave(t, 1, now(), m);
    }
    lw_metrics_thread_fini(&mt);
    lw_trace_thread_end(t);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: trace_driver DIR THREADS CALLS BUDGET\n");
        return 2;
    }
    int nthreads = atoi(argv[2]);
    calls = atol(argv[3]);
    size_t nmetrics = lw_metrics_init();
    uint64_t start = now();
    pthread_t th[64];

    if (nthreads < 1 || nthreads > 64 || lw_trace_init(argv[1], strtoull(argv[4], NULL, 0), nmetrics))
        return 2;
    for (int k = 1; k < nthreads; k++)
        pthread_create(&th[k], NULL, run, (void *)(uintptr_t)k);
    run((void *)0);
    for (int k = 1; k < nthreads; k++)
        pthread_join(th[k], NULL);

    const libwrap_region *regions[] = {&outer, &inner};
    uint64_t events = lw_trace_finalize(regions, 2, start, now(), 1000000000u, 0);
    printf("events %" PRIu64 "\nmetrics %zu\n", events, nmetrics);
    lw_metrics_fini();
    return 0;
}
