/*
 * metrics_driver.c - drives the built-in metric sources (the papi, perf and
 * rusage plugins) through libwrap/plugin.h as the runtime does: loaded for
 * the LIBWRAP_METRIC_* variables, then per thread begin / read / end around
 * known work.
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
#include <time.h>
#include <unistd.h>

#include "../plugin_host.h"

#define PAGES 64

static volatile uint64_t sink;

static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

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
    /* 30 ms of this thread's CPU time: several ticks of the kernel at
     * any HZ, so that CPU time counted by ticks (ru_utime, ru_stime)
     * cannot stay at zero on a loaded machine. */
    uint64_t x = 1, start = thread_cpu_ns();
    do {
        for (long i = 0; i < 100000; i++)
            x = x * 6364136223846793005u + 1442695040888963407u;
    } while (thread_cpu_ns() - start < 30000000);
    sink = x;
    munmap(mem, PAGES * page);
}

static void measure(const char *who)
{
    th_thread t;
    uint64_t before[LIBWRAP_MAX_METRICS], after[LIBWRAP_MAX_METRICS];

    th_metrics_begin(&t, strcmp(who, "main") != 0);
    th_metrics_read(&t, before);
    work();
    th_metrics_read(&t, after);
    for (size_t i = 0; i < th_nmetrics; i++)
        printf("delta %s %s %" PRIu64 "\n", who, th_metrics[i].name, after[i] - before[i]);
    th_metrics_end(&t);
}

static void *thread_main(void *arg)
{
    measure("thread");
    return arg;
}

int main(void)
{
    uint32_t n = th_load_metrics();
    pthread_t th;

    printf("count %u\n", n);
    for (size_t i = 0; i < n; i++)
        printf("def %s %s %s %s\n", th_metrics[i].name, th_metrics[i].unit, th_metric_source[i],
               th_metrics[i].mode == LIBWRAP_METRIC_ABSOLUTE ? "absolute" : "accumulated");
    measure("main");
    fflush(stdout);
    if (pthread_create(&th, NULL, thread_main, NULL) != 0 || pthread_join(th, NULL) != 0)
        return 1;
    th_metrics_finalize();
    return 0;
}
