/*
 * listen.h - the run's metric sources and listeners as the core sees them
 * (listen.c): tables filled once at start by the plugin host
 * (plugins/host), read by the hot path without a lock.
 */
#ifndef LIBWRAP_RUNTIME_CORE_MEASURE_LISTEN_H
#define LIBWRAP_RUNTIME_CORE_MEASURE_LISTEN_H

#include "core/measure/measure.h"

/* Internal to the runtime's shared object: hidden, so that -fPIC code
 * reaches it directly instead of through the GOT. */
#pragma GCC visibility push(hidden)

/* ---- listen.c ---------------------------------------------------------- */

/*
 * The plugins of the run (plugin.h), loaded at start: the built-in ones
 * that the settings ask for (LIBWRAP_METRIC_PAPI, _PERF, _RUSAGE; tracing),
 * then LIBWRAP_METRIC_PLUGINS and LIBWRAP_LISTENERS. The metrics read on
 * the hot path are the SYNC ones, source after source; ASYNC ones only
 * collect samples.
 */
typedef struct lw_metric {
    libwrap_metric_info info;
    const char *source; /* the plugin's name */
} lw_metric;

typedef struct lw_msource {
    void (*read)(void *thread, uint64_t *values);
    uint32_t first; /* its values start at scratch[first] */
} lw_msource;

extern size_t lw_nmetrics;              /* SYNC metrics, at most LW_MAX_METRICS */
extern uint32_t lw_metric_absolute;     /* bit i: metric i is LIBWRAP_METRIC_ABSOLUTE */
extern lw_msource lw_msources[LW_MAX_PLUGINS];
extern uint32_t lw_nmsources;
extern const libwrap_listener *lw_listeners[LW_MAX_PLUGINS];
extern uint32_t lw_nlisteners;
/* Bit k: listener k gets enter and exit per call (it has no `events`, or
 * SYNC metrics are measured); the others get the buffered events. */
extern uint32_t lw_listeners_percall;
/* Events are buffered per thread: a listener has `events` and no SYNC
 * metric is measured. Records per thread buffer (from LIBWRAP_TOTAL_MEMORY). */
extern int lw_events_buffered;
extern size_t lw_events_per_buffer;
/* Listener k's `events`, when it has one (LIBWRAP_PLUGIN_EVENTS). */
extern void (*lw_listener_events[LW_MAX_PLUGINS])(void *, const libwrap_event *, size_t);
/* Every metric: SYNC ones, then ASYNC ones (the plugin host lays them out). */
extern lw_metric lw_metrics[LW_MAX_METRICS];
extern size_t lw_nmetrics_all;

/* Metric i (SYNC ones first, then ASYNC ones); NULL past the end. */
const lw_metric *lw_metric_get(size_t i);
size_t lw_metric_count_all(void);
static inline const libwrap_metric_info *lw_metric_info(size_t i)
{
    return &lw_metric_get(i)->info;
}
/* Delivers t's buffered events to the listeners that take them, and
 * empties the buffer. Not on the fast path: called when the buffer is full,
 * before the thread's other listener callbacks, at its end and at the end. */
void lw_events_flush(lw_thread *t);
/* lw_events_flush(thread) as the ABI trampoline's fast path calls it,
 * through its gate, when a record filled the buffer; errno kept. */
uintptr_t lw_events_deliver(uintptr_t thread, uintptr_t unused);

/* Around every call into a plugin: which plugin callback the thread is in,
 * so that a fault there is named and the results are still written
 * (lw_plugin_fault). Two stores; only on the paths that call plugins. */
#define LW_IN_SOURCE 0x100
#define LW_IN_LISTENER 0x200
typedef struct lw_plugin_mark {
    int at;
    const char *cb;
} lw_plugin_mark;

static inline lw_plugin_mark lw_plugin_in(int at, const char *cb)
{
    lw_plugin_mark old = {lw_tls.plugin_at, lw_tls.plugin_cb};
    lw_tls.plugin_cb = cb;
    __atomic_store_n(&lw_tls.plugin_at, at, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    return old;
}

static inline void lw_plugin_out(lw_plugin_mark old)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    __atomic_store_n(&lw_tls.plugin_at, old.at, __ATOMIC_RELAXED);
    lw_tls.plugin_cb = old.cb;
}


static inline void lw_metrics_read(lw_thread *t, uint64_t *out)
{
    for (uint32_t k = 0; k < lw_nmsources; k++) {
        lw_plugin_mark m = lw_plugin_in(LW_IN_SOURCE + (int)k, "read");
        lw_msources[k].read(t->metric_handle[k], out + lw_msources[k].first);
        lw_plugin_out(m);
    }
}

/* One record into the thread's event buffer, which has room (the fast
 * paths of hot.h check that first; they make no call). */
static inline __attribute__((always_inline)) void lw_event_store(lw_thread *t, int32_t region,
                                                                 uint64_t now)
{
    libwrap_event *e = t->ev_pos;
    e->ticks = now;
    e->region = region;
    e->reserved = 0;
    t->ev_pos = e + 1;
}

/* Appends an event to t's buffer, delivering the buffer first when full
 * (a fast path of hot.h left it so). */
static inline void lw_event_put(lw_thread *t, int32_t region, uint64_t now)
{
    if (t->ev_pos == t->ev_end)
        lw_events_flush(t);
    lw_event_store(t, region, now);
}

/* Listener k, which takes each call: its `enter` (region > 0) or `exit`
 * (-region) at `ticks`, with the metrics `m` (NULL callbacks: a listener
 * that crashed, or has none). */
static inline void lw_listen_one(lw_thread *t, uint32_t k, int32_t region, uint64_t ticks,
                                 const uint64_t *m)
{
    const libwrap_listener *l = lw_listeners[k];
    void (*cb)(void *, int32_t, uint64_t, const uint64_t *) = region > 0 ? l->enter : l->exit;
    if (!cb)
        return;
    lw_plugin_mark mk = lw_plugin_in(LW_IN_LISTENER + (int)k, region > 0 ? "enter" : "exit");
    cb(t->listener_handle[k], region > 0 ? region : -region, ticks, m);
    lw_plugin_out(mk);
}

/* A listener's record of an entry (id) or exit (-id) at `now`. With events
 * buffered, every listener takes it from the buffer (lw_events_flush),
 * which is delivered as soon as it is full: at once when a listener takes
 * each call (the buffer then holds one record). Else (SYNC metrics) the
 * per-call listeners are called here, with the metrics `m`. */
static inline void lw_listen_event(lw_thread *t, int32_t region, uint64_t now, const uint64_t *m)
{
    if (t->ev_pos) {
        lw_event_put(t, region, now);
        if (t->ev_pos == t->ev_end)
            lw_events_flush(t);
        return;
    }
    for (uint32_t k = 0; k < lw_nlisteners; k++)
        if (lw_listeners_percall & (1u << k))
            lw_listen_one(t, k, region, now, m);
}

static inline void lw_listen_enter(lw_thread *t, int32_t id, uint64_t now, const uint64_t *m)
{
    lw_listen_event(t, id, now, m);
}

static inline void lw_listen_exit(lw_thread *t, int32_t id, uint64_t now, const uint64_t *m)
{
    lw_listen_event(t, -id, now, m);
}

/* A per-call callback other than enter and exit: the buffered events of
 * the thread are delivered first, so that every listener sees its
 * thread's callbacks in the order of the calls. */
static inline void lw_listen_argument(lw_thread *t, int32_t id, uint64_t ticks,
                                      const libwrap_argument *a)
{
    if (t->ev_pos && t->ev_pos != t->ev_base)
        lw_events_flush(t);
    for (uint32_t k = 0; k < lw_nlisteners; k++)
        if (lw_listeners[k]->argument) {
            lw_plugin_mark mk = lw_plugin_in(LW_IN_LISTENER + (int)k, "argument");
            lw_listeners[k]->argument(t->listener_handle[k], id, ticks, a);
            lw_plugin_out(mk);
        }
}

#pragma GCC visibility pop

#endif /* LIBWRAP_RUNTIME_CORE_MEASURE_LISTEN_H */
