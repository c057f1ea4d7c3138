/*
 * metrics.c - the metric dispatcher: reads LIBWRAP_METRIC_PAPI,
 * LIBWRAP_METRIC_PERF and LIBWRAP_METRIC_RUSAGE, lets each source open what
 * it can, and reads all sources into one value array (PAPI, perf, rusage).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "metrics_source.h"

static lw_metric_def lw_defs[LW_MAX_METRICS];
static size_t lw_ndefs;
/* Where each source's values start in the array, and how many it has. */
static size_t lw_papi_n, lw_perf_off, lw_perf_n, lw_rusage_off, lw_rusage_n;
static int lw_metrics_ready;

/* The runtime's warning, which names the rank inside a job (config.c);
 * absent when the metric sources are built alone into a test driver. */
void lw_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#pragma weak lw_warn

void lw_metrics_warn(const char *fmt, ...)
{
    va_list ap;
    char line[512];

    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap); /* truncates an overlong name, never overflows */
    va_end(ap);
    if (lw_warn)
        lw_warn("%s", line);
    else
        fprintf(stderr, "libwrap: warning: %s\n", line);
}

void lw_metrics_each_name(const char *list, void (*fn)(const char *name, size_t len, void *arg),
                          void *arg)
{
    const char *p = list;

    while (p && *p) {
        const char *end = strchr(p, ',');
        const char *stop = end ? end : p + strlen(p);
        const char *b = p, *e = stop;

        while (b < e && (*b == ' ' || *b == '\t'))
            b++;
        while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        if (e > b)
            fn(b, (size_t)(e - b), arg);
        p = end ? end + 1 : NULL;
    }
}

static const char *lw_env(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

size_t lw_metrics_init(void)
{
    if (lw_metrics_ready)
        return lw_ndefs;
    lw_metrics_ready = 1;

    const char *papi = lw_env("LIBWRAP_METRIC_PAPI");
    const char *perf = lw_env("LIBWRAP_METRIC_PERF");
    const char *rusage = lw_env("LIBWRAP_METRIC_RUSAGE");

    if (papi)
        lw_papi_n = lw_metrics_papi_init(papi, lw_defs, LW_MAX_METRICS);
    lw_perf_off = lw_papi_n;
    if (perf)
        lw_perf_n = lw_metrics_perf_init(perf, lw_defs + lw_perf_off, LW_MAX_METRICS - lw_perf_off);
    lw_rusage_off = lw_perf_off + lw_perf_n;
    if (rusage)
        lw_rusage_n = lw_metrics_rusage_init(rusage, lw_defs + lw_rusage_off,
                                             LW_MAX_METRICS - lw_rusage_off);
    lw_ndefs = lw_rusage_off + lw_rusage_n;
    return lw_ndefs;
}

size_t lw_metrics_count(void)
{
    return lw_ndefs;
}

const lw_metric_def *lw_metrics_def(size_t i)
{
    return i < lw_ndefs ? &lw_defs[i] : NULL;
}

void lw_metrics_thread_init(lw_metrics_thread *mt)
{
    if (mt->initialised)
        return;
    /* The core zero-fills the struct, and 0 is a valid descriptor. */
    for (size_t i = 0; i < LW_MAX_METRICS; i++)
        mt->perf_fd[i] = -1;
    mt->papi_eventset = -1;
    mt->initialised = 1;
    if (lw_papi_n)
        lw_metrics_papi_thread_init(mt);
    if (lw_perf_n)
        lw_metrics_perf_thread_init(mt);
}

void lw_metrics_thread_fini(lw_metrics_thread *mt)
{
    if (!mt->initialised)
        return;
    if (lw_papi_n)
        lw_metrics_papi_thread_fini(mt);
    if (lw_perf_n)
        lw_metrics_perf_thread_fini(mt);
    mt->initialised = 0;
}

void lw_metrics_read(lw_metrics_thread *mt, uint64_t *out)
{
    if (lw_ndefs == 0)
        return;
    if (!mt->initialised)
        lw_metrics_thread_init(mt);
    if (lw_papi_n)
        lw_metrics_papi_read(mt, out);
    if (lw_perf_n)
        lw_metrics_perf_read(mt, out + lw_perf_off);
    if (lw_rusage_n)
        lw_metrics_rusage_read(out + lw_rusage_off);
}

void lw_metrics_fini(void)
{
    if (lw_papi_n)
        lw_metrics_papi_fini();
    if (lw_perf_n)
        lw_metrics_perf_fini();
    if (lw_rusage_n)
        lw_metrics_rusage_fini();
    lw_papi_n = lw_perf_off = lw_perf_n = lw_rusage_off = lw_rusage_n = lw_ndefs = 0;
    lw_metrics_ready = 0;
}
