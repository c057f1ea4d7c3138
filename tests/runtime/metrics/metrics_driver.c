/*
 * metrics_driver.c - drives the metric sources (metrics.h) as the runtime
 * core does: lw_metrics_init from the LIBWRAP_METRIC_* variables, then per
 * thread init / read / fini around known work.
 *
 * Prints "count N", one "def NAME UNIT SOURCE" per metric, then for the main
 * thread and for a second thread "delta main|thread NAME VALUE": the change
 * over work that burns CPU and touches fresh pages.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "metrics.h"

#define PAGES 64

static volatile uint64_t sink;

static void work(void)
{
    long page = sysconf(_SC_PAGESIZE);
    char *mem = mmap(NULL, PAGES * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (mem == MAP_FAILED) {
        perror("metrics_driver: mmap");
        return;
    }
    for (int i = 0; i < PAGES; i++)
        mem[i * page] = (char)i; /* one page fault each */
    uint64_t x = 1;
    for (long i = 0; i < 2000000; i++) /* a few milliseconds of CPU */
        x = x * 6364136223846793005u + 1442695040888963407u;
    sink = x;
    munmap(mem, PAGES * page);
}

static void measure(const char *who)
{
    lw_metrics_thread mt;
    uint64_t before[LW_MAX_METRICS], after[LW_MAX_METRICS];
    size_t n = lw_metrics_count();

    memset(&mt, 0, sizeof mt); /* as the core hands it over */
    lw_metrics_thread_init(&mt);
    lw_metrics_read(&mt, before);
    work();
    lw_metrics_read(&mt, after);
    for (size_t i = 0; i < n; i++)
        printf("delta %s %s %" PRIu64 "\n", who, lw_metrics_def(i)->name, after[i] - before[i]);
    lw_metrics_thread_fini(&mt);
}

static void *thread_main(void *arg)
{
    measure("thread");
    return arg;
}

int main(void)
{
    size_t n = lw_metrics_init();
    pthread_t th;

    printf("count %zu\n", n);
    if (n != lw_metrics_count())
        return 1;
    for (size_t i = 0; i < n; i++) {
        const lw_metric_def *d = lw_metrics_def(i);
        printf("def %s %s %s\n", d->name, d->unit, d->source);
    }
    measure("main");
    fflush(stdout);
    if (pthread_create(&th, NULL, thread_main, NULL) != 0 || pthread_join(th, NULL) != 0)
        return 1;
    lw_metrics_fini();
    return 0;
}
