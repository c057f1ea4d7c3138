/*
 * trace_driver.c - drives the built-in otf2 listener and the metric
 * sources through libwrap/plugin.h (../plugin_host.h), as the runtime does,
 * with a known call pattern.
 *
 *   trace_driver DIR THREADS CALLS BUDGET
 *
 * Thread k (0 = main) calls "outer" CALLS times, and inside each "inner"
 * k+1 times. Metrics come from the LIBWRAP_METRIC_* variables. Prints
 * "events N" (what the listener says it wrote) and "metrics M". Exits 2
 * when the listener gives a thread no writer (the archive was refused).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "../plugin_host.h"

static libwrap_region outer = LIBWRAP_REGION_INIT("lib_outer", "outer", "lib.h", 10);
static libwrap_region inner = LIBWRAP_REGION_INIT("lib_inner", "inner", "lib.h", 20);
static long calls;
static const libwrap_listener *otf2;

static void *run(void *arg)
{
    uint32_t tid = (uint32_t)(uintptr_t)arg;
    th_thread mt;
    uint64_t m[LIBWRAP_MAX_METRICS];
    void *t = otf2->thread_begin(tid);

    if (!t) /* the listener has said why */
        exit(2);
    th_metrics_begin(&mt, tid);
    for (long i = 0; i < calls; i++) {
        th_metrics_read(&mt, m);
        otf2->enter(t, 1, th_now(), m);
        for (uint32_t j = 0; j <= tid; j++) {
            th_metrics_read(&mt, m);
            otf2->enter(t, 2, th_now(), m);
            th_metrics_read(&mt, m);
            otf2->exit(t, 2, th_now(), m);
        }
        th_metrics_read(&mt, m);
        otf2->exit(t, 1, th_now(), m);
    }
    th_metrics_end(&mt);
    otf2->thread_end(t);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: trace_driver DIR THREADS CALLS BUDGET\n");
        return 2;
    }
    th_dir = argv[1];
    th_memory = argv[4];
    int nthreads = atoi(argv[2]);
    calls = atol(argv[3]);
    uint32_t nmetrics = th_load_metrics();
    const libwrap_plugin *p = th_load("otf2");
    if (!p || !p->listener || nthreads < 1 || nthreads > 64)
        return 2;
    otf2 = p->listener;
    if (otf2->init(&th_host, NULL, th_metrics, nmetrics) < 0)
        return 2;
    uint64_t start = th_now();
    pthread_t th[64];

    for (int k = 1; k < nthreads; k++)
        pthread_create(&th[k], NULL, run, (void *)(uintptr_t)k);
    run((void *)0);
    for (int k = 1; k < nthreads; k++)
        pthread_join(th[k], NULL);

    const libwrap_region *regions[] = {&outer, &inner};
    libwrap_process_end end = {.regions = regions,
                               .nregions = 2,
                               .tick0 = start,
                               .tick_end = th_now(),
                               .resolution = 1000000000u,
                               .rank = -1,
                               .size = -1,
                               .metrics = th_metrics,
                               .nmetrics = nmetrics};
    otf2->finalize(&end);
    printf("metrics %u\n", nmetrics);
    th_metrics_finalize();
    return 0;
}
