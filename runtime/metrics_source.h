/*
 * metrics_source.h - the interface between the metric dispatcher (metrics.c)
 * and the three metric sources (metrics_papi.c, metrics_perf.c,
 * metrics_rusage.c). Not used by the rest of the runtime.
 *
 * Each source parses its own comma list at process start, probes every name
 * on the calling thread, warns once for each name it cannot open, and
 * appends the definitions of the others to defs[]. The dispatcher lays the
 * sources out one after the other in the value array: PAPI, perf, rusage.
 */
#ifndef LIBWRAP_RUNTIME_METRICS_SOURCE_H
#define LIBWRAP_RUNTIME_METRICS_SOURCE_H

#include "metrics.h"

/* Prints "libwrap: warning: <message>" on stderr. */
void lw_metrics_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Calls fn(name, len, arg) for each non-empty, blank-trimmed item of the
 * comma list `list`. Names are not NUL-terminated.
 */
void lw_metrics_each_name(const char *list, void (*fn)(const char *name, size_t len, void *arg),
                          void *arg);

/* Each *_init appends at most `room` definitions to defs and returns how many. */
size_t lw_metrics_papi_init(const char *list, lw_metric_def *defs, size_t room);
void lw_metrics_papi_thread_init(lw_metrics_thread *mt);
void lw_metrics_papi_read(lw_metrics_thread *mt, uint64_t *out);
void lw_metrics_papi_thread_fini(lw_metrics_thread *mt);
void lw_metrics_papi_fini(void);

size_t lw_metrics_perf_init(const char *list, lw_metric_def *defs, size_t room);
void lw_metrics_perf_thread_init(lw_metrics_thread *mt);
void lw_metrics_perf_read(lw_metrics_thread *mt, uint64_t *out);
void lw_metrics_perf_thread_fini(lw_metrics_thread *mt);
void lw_metrics_perf_fini(void);

size_t lw_metrics_rusage_init(const char *list, lw_metric_def *defs, size_t room);
void lw_metrics_rusage_read(uint64_t *out);
void lw_metrics_rusage_fini(void);

#endif /* LIBWRAP_RUNTIME_METRICS_SOURCE_H */
