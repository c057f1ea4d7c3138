/*
 * metrics.h - counters read on enter and exit (PAPI, perf_event, getrusage).
 *
 * The core (thread state, profile) owns per-thread storage and calls these;
 * the metric sources live in metrics_papi.c, metrics_perf.c, metrics_rusage.c.
 * All values are uint64_t; the profile stores, per call path, the sum of
 * (exit value - enter value) for every metric.
 */
#ifndef LIBWRAP_RUNTIME_METRICS_H
#define LIBWRAP_RUNTIME_METRICS_H

#include <stddef.h>
#include <stdint.h>

#define LW_MAX_METRICS 16

typedef struct lw_metric_def {
    const char *name;   /* "PAPI_TOT_INS", "task-clock", "ru_minflt" */
    const char *unit;   /* "#", "ns", "bytes" ... */
    const char *source; /* "papi", "perf", "rusage" */
} lw_metric_def;

/* Per-thread handles of the metric sources (file descriptors, event sets). */
typedef struct lw_metrics_thread {
    int perf_fd[LW_MAX_METRICS];
    int papi_eventset;
    int initialised;
} lw_metrics_thread;

/* Process start: parses LIBWRAP_METRIC_PAPI/PERF/RUSAGE, opens what it can
 * (a metric that cannot be opened: one warning naming it and why, then it is
 * left out). Returns the number of metrics that will be read. */
size_t lw_metrics_init(void);
size_t lw_metrics_count(void);
const lw_metric_def *lw_metrics_def(size_t i);

/* First use on a thread, and at thread end. */
void lw_metrics_thread_init(lw_metrics_thread *mt);
void lw_metrics_thread_fini(lw_metrics_thread *mt);

/* Reads the current values of all metrics into out[0..count-1]. */
void lw_metrics_read(lw_metrics_thread *mt, uint64_t *out);

void lw_metrics_fini(void);

#endif /* LIBWRAP_RUNTIME_METRICS_H */
