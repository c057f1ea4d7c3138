/*
 * plugin_host.h - a minimal host of libwrap plugins for the test drivers of
 * the built-in ones (tests/runtime/trace, tests/runtime/metrics): loads
 * them from the build's plugin directory (TH_PLUGIN_DIR) through
 * libwrap/plugin.h alone, as a third-party tool would, and drives them with
 * known call patterns. Messages go out as the runtime's do
 * ("libwrap: warning: NAME: ..."); verbose ones on stdout ("verbose:
 * NAME: ...").
 */
#ifndef LIBWRAP_TEST_PLUGIN_HOST_H
#define LIBWRAP_TEST_PLUGIN_HOST_H

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libwrap/plugin.h"

static const char *th_dir = ".";
static const char *th_memory = "16777216";

static void th_vsay(FILE *f, const char *what, const libwrap_plugin *self, const char *fmt,
                    va_list ap)
{
    fprintf(f, "%s%s: ", what, self && self->name ? self->name : "?");
    vfprintf(f, fmt, ap);
    fputc('\n', f);
    fflush(f);
}

__attribute__((format(printf, 2, 3))) static void th_warn(const libwrap_plugin *self,
                                                           const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    th_vsay(stderr, "libwrap: warning: ", self, fmt, ap);
    va_end(ap);
}

__attribute__((format(printf, 2, 3))) static void th_verbose(const libwrap_plugin *self,
                                                              const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    th_vsay(stdout, "verbose: ", self, fmt, ap);
    va_end(ap);
    /* The otf2 listener says how many events it wrote: "events N". */
    char line[512];
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    unsigned long long n;
    if (sscanf(line, "wrote %llu events", &n) == 1)
        printf("events %llu\n", n);
}

static const char *th_experiment_directory(void)
{
    return th_dir;
}

static uint64_t th_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t th_ns(uint64_t ticks)
{
    return ticks;
}

static void th_sample(const libwrap_plugin *self, uint32_t metric, uint64_t ticks, uint64_t value)
{
    (void)self, (void)metric, (void)ticks, (void)value;
}

static const char *th_setting(const char *name)
{
    return strcmp(name, "LIBWRAP_TOTAL_MEMORY") == 0 ? th_memory : NULL;
}

static void th_thread_ignore(void)
{
}

static int th_directory_pending(void)
{
    return 0;
}

static const libwrap_host th_host = {LIBWRAP_PLUGIN_ABI_VERSION, sizeof(libwrap_host), th_warn,
                                     th_verbose, th_experiment_directory, th_now, th_ns,
                                     th_sample, th_setting, th_thread_ignore, th_directory_pending};

/* The built-in plugin NAME, or NULL after a message on stderr. */
static const libwrap_plugin *th_load(const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/libwrap_plugin_%s.so", TH_PLUGIN_DIR, name);
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        fprintf(stderr, "test host: cannot load %s: %s\n", path, dlerror());
        return NULL;
    }
    libwrap_plugin_entry_fn entry;
    *(void **)&entry = dlsym(dl, "libwrap_plugin_entry");
    const libwrap_plugin *p = entry ? entry(LIBWRAP_PLUGIN_ABI_VERSION) : NULL;
    if (!p || p->abi_version != LIBWRAP_PLUGIN_ABI_VERSION) {
        fprintf(stderr, "test host: %s is not a plugin of this ABI\n", path);
        return NULL;
    }
    return p;
}

/* The metric sources that LIBWRAP_METRIC_PAPI, _PERF and _RUSAGE ask for, in
 * the runtime's order, with their SYNC metrics laid out one after the
 * other. */
typedef struct th_source {
    const libwrap_metric_source *ms;
    const char *name;
    uint32_t first, n;
} th_source;

static th_source th_sources[3];
static size_t th_nsources;
static libwrap_metric_info th_metrics[LIBWRAP_MAX_METRICS];
static const char *th_metric_source[LIBWRAP_MAX_METRICS];
static uint32_t th_nmetrics;

static uint32_t th_load_metrics(void)
{
    static const char *const names[] = {"papi", "perf", "rusage"};
    static const char *const vars[] = {"LIBWRAP_METRIC_PAPI", "LIBWRAP_METRIC_PERF",
                                       "LIBWRAP_METRIC_RUSAGE"};
    for (size_t i = 0; i < 3; i++) {
        const char *v = getenv(vars[i]);
        if (!v || !*v)
            continue;
        const libwrap_plugin *p = th_load(names[i]);
        if (!p || !p->metric)
            continue;
        th_source *s = &th_sources[th_nsources];
        s->ms = p->metric;
        s->name = names[i];
        s->first = th_nmetrics;
        int n = s->ms->init(&th_host, v, th_metrics + th_nmetrics, LIBWRAP_MAX_METRICS - th_nmetrics);
        if (n <= 0)
            continue;
        s->n = (uint32_t)n;
        for (int k = 0; k < n; k++)
            th_metric_source[th_nmetrics + (uint32_t)k] = names[i];
        th_nmetrics += (uint32_t)n;
        th_nsources++;
    }
    return th_nmetrics;
}

typedef struct th_thread {
    void *h[3];
} th_thread;

static void th_metrics_begin(th_thread *t, uint32_t tid)
{
    for (size_t i = 0; i < th_nsources; i++)
        t->h[i] = th_sources[i].ms->thread_begin ? th_sources[i].ms->thread_begin(tid) : NULL;
}

static void th_metrics_read(th_thread *t, uint64_t *out)
{
    for (size_t i = 0; i < th_nsources; i++)
        if (th_sources[i].ms->read)
            th_sources[i].ms->read(t->h[i], out + th_sources[i].first);
}

static void th_metrics_end(th_thread *t)
{
    for (size_t i = 0; i < th_nsources; i++)
        if (th_sources[i].ms->thread_end)
            th_sources[i].ms->thread_end(t->h[i]);
}

static void th_metrics_finalize(void)
{
    for (size_t i = 0; i < th_nsources; i++)
        if (th_sources[i].ms->finalize)
            th_sources[i].ms->finalize();
}

#endif /* LIBWRAP_TEST_PLUGIN_HOST_H */
