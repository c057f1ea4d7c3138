/*
 * metrics_papi.c - the built-in metric source "papi" (LIBWRAP_METRIC_PAPI):
 * PAPI events (presets such as PAPI_TOT_INS, or native names), one event
 * set per thread. A plugin of its own (libwrap/plugin.h), built where PAPI
 * is found: only a run that asks for PAPI loads libpapi.
 *
 * PAPI_read costs a system call on most systems (a microsecond or more)
 * unless PAPI can read the counters in user space.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdlib.h>
#include <string.h>

#include "plugins/plugin_util.h"

static const libwrap_host *lw_host;
static const libwrap_plugin lw_plugin;
#define lw_metrics_warn(...) lw_host->warn(&lw_plugin, __VA_ARGS__)

#include <papi.h>
#include <pthread.h>

static char *lw_papi_names[LIBWRAP_MAX_METRICS];
static int lw_papi_codes[LIBWRAP_MAX_METRICS];
static size_t lw_papi_n;
static int lw_papi_probe = PAPI_NULL;
static int lw_papi_failed; /* PAPI could not be set up: its error code, reported per name */

static unsigned long lw_papi_thread_id(void)
{
    return (unsigned long)pthread_self();
}

typedef struct {
    libwrap_metric_info *defs;
    size_t room;
} lw_papi_parse;

static void lw_papi_name(const char *name, size_t len, void *arg)
{
    lw_papi_parse *p = arg;
    char *copy = strndup(name, len);
    int rc;

    if (!copy) {
        lw_metrics_warn("out of memory; continuing without '%.*s'",
                        (int)len, name);
        return;
    }
    for (size_t i = 0; i < lw_papi_n; i++)
        if (strcmp(lw_papi_names[i], copy) == 0)
            goto drop; /* named twice */
    if (lw_papi_failed) {
        lw_metrics_warn("cannot open '%s': PAPI did not initialise: %s; "
                        "continuing without it", copy, PAPI_strerror(lw_papi_failed));
        goto drop;
    }
    if (lw_papi_n == p->room) {
        lw_metrics_warn("too many metrics (at most %d in all); "
                        "continuing without '%s'", LIBWRAP_MAX_METRICS, copy);
        goto drop;
    }
    int code;
    if (PAPI_event_name_to_code(copy, &code) != PAPI_OK) {
        lw_metrics_warn("unknown event '%s' (papi_avail -a and "
                        "papi_native_avail list the events of this machine); continuing without it",
                        copy);
        goto drop;
    }
    /* Adding to one probe event set also rejects events that the counters
     * cannot count together. */
    rc = PAPI_add_event(lw_papi_probe, code);
    if (rc != PAPI_OK) {
        lw_metrics_warn("cannot open '%s': %s%s; continuing without it", copy,
                        PAPI_strerror(rc),
                        rc == PAPI_ECNFLCT ? " (too many events counted together?)"
                        : rc == PAPI_EPERM ? " (see /proc/sys/kernel/perf_event_paranoid)"
                                           : " (no hardware counters?)");
        goto drop;
    }
    p->defs[lw_papi_n] = (libwrap_metric_info){copy, "#", NULL, LIBWRAP_METRIC_ACCUMULATED,
                                                LIBWRAP_METRIC_SYNC};
    lw_papi_codes[lw_papi_n] = code;
    lw_papi_names[lw_papi_n++] = copy;
    return;
drop:
    free(copy);
}

static int lw_papi_init(const libwrap_host *host, const char *list, libwrap_metric_info *defs,
                        uint32_t room)
{
    lw_papi_parse p = {defs, room};
    lw_host = host;
    int rc = PAPI_library_init(PAPI_VER_CURRENT);

    lw_papi_n = 0;
    lw_papi_failed = 0;
    if (rc != PAPI_VER_CURRENT)
        lw_papi_failed = rc > 0 ? PAPI_EINVAL : rc; /* a positive value: header/library mismatch */
    else if ((rc = PAPI_thread_init(lw_papi_thread_id)) != PAPI_OK ||
             (rc = PAPI_create_eventset(&lw_papi_probe)) != PAPI_OK)
        lw_papi_failed = rc;
    lw_list_each(list, lw_papi_name, &p);
    if (lw_papi_probe != PAPI_NULL) {
        PAPI_cleanup_eventset(lw_papi_probe);
        PAPI_destroy_eventset(&lw_papi_probe);
    }
    if (lw_papi_n == 0 && !lw_papi_failed)
        PAPI_shutdown();
    return (int)lw_papi_n;
}

/* A thread's handle: its event set, or NULL. */
static void *lw_papi_thread_begin(uint32_t tid)
{
    (void)tid;
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
            lw_metrics_warn("cannot start the PAPI events on a new thread: "
                            "%s; their values on such threads are 0", PAPI_strerror(rc));
        if (es != PAPI_NULL) {
            PAPI_cleanup_eventset(es);
            PAPI_destroy_eventset(&es);
        }
        return NULL;
    }
    int *h = malloc(sizeof *h);
    if (h)
        *h = es;
    return h;
}

static void lw_papi_read(void *thread, uint64_t *out)
{
    long long v[LIBWRAP_MAX_METRICS];
    const int *es = thread;

    if (!es || PAPI_read(*es, v) != PAPI_OK) {
        memset(out, 0, lw_papi_n * sizeof *out);
        return;
    }
    for (size_t i = 0; i < lw_papi_n; i++)
        out[i] = (uint64_t)v[i];
}

static void lw_papi_thread_end(void *thread)
{
    long long v[LIBWRAP_MAX_METRICS];
    int *es = thread;

    if (es) {
        PAPI_stop(*es, v);
        PAPI_cleanup_eventset(*es);
        PAPI_destroy_eventset(es);
        free(es);
    }
    PAPI_unregister_thread();
}

static void lw_papi_finalize(void)
{
    /* The names stay allocated: the runtime keeps pointing to them. */
    lw_papi_n = 0;
    PAPI_shutdown();
}

static const libwrap_metric_source lw_papi_source = {
    .init = lw_papi_init,
    .thread_begin = lw_papi_thread_begin,
    .read = lw_papi_read,
    .thread_end = lw_papi_thread_end,
    .finalize = lw_papi_finalize,
};

static const libwrap_plugin lw_plugin = {LIBWRAP_PLUGIN_ABI_VERSION, LIBWRAP_PLUGIN_METRIC, "papi",
                                         &lw_papi_source, NULL};
LIBWRAP_PLUGIN_DEFINE(lw_plugin)
