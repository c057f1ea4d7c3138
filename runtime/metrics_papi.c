/*
 * metrics_papi.c - LIBWRAP_METRIC_PAPI: PAPI events (presets such as
 * PAPI_TOT_INS, or native names), one event set per thread.
 *
 * Built without PAPI (LIBWRAP_HAVE_PAPI undefined), naming PAPI events only
 * gives one warning. PAPI_read costs a system call on most systems (a
 * microsecond or more) unless PAPI can read the counters in user space.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdlib.h>
#include <string.h>

#include "metrics_source.h"

#ifdef LIBWRAP_HAVE_PAPI

#include <papi.h>
#include <pthread.h>

static char *lw_papi_names[LW_MAX_METRICS];
static int lw_papi_codes[LW_MAX_METRICS];
static size_t lw_papi_n;
static int lw_papi_probe = PAPI_NULL;
static int lw_papi_failed; /* PAPI could not be set up: its error code, reported per name */

static unsigned long lw_papi_thread_id(void)
{
    return (unsigned long)pthread_self();
}

typedef struct {
    lw_metric_def *defs;
    size_t room;
} lw_papi_parse;

static void lw_papi_name(const char *name, size_t len, void *arg)
{
    lw_papi_parse *p = arg;
    char *copy = strndup(name, len);
    int rc;

    if (!copy) {
        lw_metrics_warn("LIBWRAP_METRIC_PAPI: out of memory; continuing without '%.*s'",
                        (int)len, name);
        return;
    }
    for (size_t i = 0; i < lw_papi_n; i++)
        if (strcmp(lw_papi_names[i], copy) == 0)
            goto drop; /* named twice */
    if (lw_papi_failed) {
        lw_metrics_warn("LIBWRAP_METRIC_PAPI: cannot open '%s': PAPI did not initialise: %s; "
                        "continuing without it", copy, PAPI_strerror(lw_papi_failed));
        goto drop;
    }
    if (lw_papi_n == p->room) {
        lw_metrics_warn("LIBWRAP_METRIC_PAPI: too many metrics (at most %d in all); "
                        "continuing without '%s'", LW_MAX_METRICS, copy);
        goto drop;
    }
    int code;
    if (PAPI_event_name_to_code(copy, &code) != PAPI_OK) {
        lw_metrics_warn("LIBWRAP_METRIC_PAPI: unknown event '%s' (papi_avail -a and "
                        "papi_native_avail list the events of this machine); continuing without it",
                        copy);
        goto drop;
    }
    /* Adding to one probe event set also rejects events that the counters
     * cannot count together. */
    rc = PAPI_add_event(lw_papi_probe, code);
    if (rc != PAPI_OK) {
        lw_metrics_warn("LIBWRAP_METRIC_PAPI: cannot open '%s': %s%s; continuing without it", copy,
                        PAPI_strerror(rc),
                        rc == PAPI_ECNFLCT ? " (too many events counted together?)"
                        : rc == PAPI_EPERM ? " (see /proc/sys/kernel/perf_event_paranoid)"
                                           : " (no hardware counters?)");
        goto drop;
    }
    p->defs[lw_papi_n] = (lw_metric_def){copy, "#", "papi"};
    lw_papi_codes[lw_papi_n] = code;
    lw_papi_names[lw_papi_n++] = copy;
    return;
drop:
    free(copy);
}

size_t lw_metrics_papi_init(const char *list, lw_metric_def *defs, size_t room)
{
    lw_papi_parse p = {defs, room};
    int rc = PAPI_library_init(PAPI_VER_CURRENT);

    lw_papi_n = 0;
    lw_papi_failed = 0;
    if (rc != PAPI_VER_CURRENT)
        lw_papi_failed = rc > 0 ? PAPI_EINVAL : rc; /* a positive value: header/library mismatch */
    else if ((rc = PAPI_thread_init(lw_papi_thread_id)) != PAPI_OK ||
             (rc = PAPI_create_eventset(&lw_papi_probe)) != PAPI_OK)
        lw_papi_failed = rc;
    lw_metrics_each_name(list, lw_papi_name, &p);
    if (lw_papi_probe != PAPI_NULL) {
        PAPI_cleanup_eventset(lw_papi_probe);
        PAPI_destroy_eventset(&lw_papi_probe);
    }
    if (lw_papi_n == 0 && !lw_papi_failed)
        PAPI_shutdown();
    return lw_papi_n;
}

void lw_metrics_papi_thread_init(lw_metrics_thread *mt)
{
    int es = PAPI_NULL;
    int rc = PAPI_register_thread();

    if (rc == PAPI_OK)
        rc = PAPI_create_eventset(&es);
    for (size_t i = 0; i < lw_papi_n && rc == PAPI_OK; i++)
        rc = PAPI_add_event(es, lw_papi_codes[i]);
    if (rc == PAPI_OK)
        rc = PAPI_start(es);
    if (rc != PAPI_OK) {
        static int warned;
        if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
            lw_metrics_warn("LIBWRAP_METRIC_PAPI: cannot start the PAPI events on a new thread: "
                            "%s; their values on such threads are 0", PAPI_strerror(rc));
        if (es != PAPI_NULL) {
            PAPI_cleanup_eventset(es);
            PAPI_destroy_eventset(&es);
        }
        es = PAPI_NULL;
    }
    mt->papi_eventset = es;
}

void lw_metrics_papi_read(lw_metrics_thread *mt, uint64_t *out)
{
    long long v[LW_MAX_METRICS];

    if (mt->papi_eventset == PAPI_NULL || PAPI_read(mt->papi_eventset, v) != PAPI_OK) {
        memset(out, 0, lw_papi_n * sizeof *out);
        return;
    }
    for (size_t i = 0; i < lw_papi_n; i++)
        out[i] = (uint64_t)v[i];
}

void lw_metrics_papi_thread_fini(lw_metrics_thread *mt)
{
    long long v[LW_MAX_METRICS];

    if (mt->papi_eventset != PAPI_NULL) {
        PAPI_stop(mt->papi_eventset, v);
        PAPI_cleanup_eventset(mt->papi_eventset);
        PAPI_destroy_eventset(&mt->papi_eventset);
        mt->papi_eventset = PAPI_NULL;
    }
    PAPI_unregister_thread();
}

void lw_metrics_papi_fini(void)
{
    /* The names stay allocated: lw_metric_def pointers handed out may
     * still be printed by the profile writer after this. */
    lw_papi_n = 0;
    PAPI_shutdown();
}

#else /* !LIBWRAP_HAVE_PAPI */

size_t lw_metrics_papi_init(const char *list, lw_metric_def *defs, size_t room)
{
    lw_metrics_warn("LIBWRAP_METRIC_PAPI is set to '%s', but this libwrap was built without PAPI "
                    "support (install libpapi-dev and rebuild); continuing without it", list);
    return 0;
}

/* Never called: no PAPI metric is ever defined. */
void lw_metrics_papi_thread_init(lw_metrics_thread *mt) {}
void lw_metrics_papi_read(lw_metrics_thread *mt, uint64_t *out) {}
void lw_metrics_papi_thread_fini(lw_metrics_thread *mt) {}
void lw_metrics_papi_fini(void) {}

#endif /* LIBWRAP_HAVE_PAPI */
