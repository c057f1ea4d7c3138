/*
 * listen.c - the run's metric sources and listeners as the core sees them:
 * tables that the plugin host (plugins/host) fills once at start and the
 * hot path reads without a lock (lw_metrics_read, lw_listen_* in
 * core/measure/listen.h), and the delivery of a thread's buffered events.
 */
#include "core/measure/listen.h"

size_t lw_nmetrics;
uint32_t lw_metric_absolute;
lw_msource lw_msources[LW_MAX_PLUGINS];
uint32_t lw_nmsources;
const libwrap_listener *lw_listeners[LW_MAX_PLUGINS];
uint32_t lw_nlisteners;
uint32_t lw_listeners_percall;
int lw_events_buffered;
size_t lw_events_per_buffer;
void (*lw_listener_events[LW_MAX_PLUGINS])(void *, const libwrap_event *, size_t);
lw_metric lw_metrics[LW_MAX_METRICS];
size_t lw_nmetrics_all;

const lw_metric *lw_metric_get(size_t i)
{
    return i < lw_nmetrics_all ? &lw_metrics[i] : NULL;
}

size_t lw_metric_count_all(void)
{
    return lw_nmetrics_all;
}

void lw_events_flush(lw_thread *t)
{
    libwrap_event *base = t->ev_base;
    size_t n = base ? (size_t)(t->ev_pos - base) : 0;
    if (!n)
        return;
    int cancel = lw_cancel_off();
    for (uint32_t k = 0; k < lw_nlisteners; k++) {
        if (lw_listeners_percall & (1u << k)) {
            for (size_t i = 0; i < n; i++)
                lw_listen_one(t, k, base[i].region, base[i].ticks, t->scratch);
        } else if (lw_listener_events[k]) {
            lw_plugin_mark m = lw_plugin_in(LW_IN_LISTENER + (int)k, "events");
            lw_listener_events[k](t->listener_handle[k], base, n);
            lw_plugin_out(m);
        }
    }
    t->ev_pos = base;
    lw_cancel_restore(cancel);
}

uintptr_t lw_events_deliver(uintptr_t thread, uintptr_t unused)
{
    (void)unused;
    lw_thread *t = (lw_thread *)thread;
    int saved = *t->errnop;
    /* The common case: one record (listeners take each call), one listener. */
    if (lw_likely(lw_nlisteners == 1 && lw_listeners_percall == 1 && t->ev_pos == t->ev_base + 1)) {
        lw_listen_one(t, 0, t->ev_base->region, t->ev_base->ticks, t->scratch);
        t->ev_pos = t->ev_base;
    } else {
        lw_events_flush(t);
    }
    *t->errnop = saved;
    return 0;
}
