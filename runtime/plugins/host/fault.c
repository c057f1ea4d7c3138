/*
 * fault.c - a plugin that crashes: the fatal-signal handler names it,
 * leaves it out, and the results are written as for a crash in the
 * program.
 */
#include "plugins/host/host.h"
#include "core/base/dl.h"

#include <signal.h>
#include <string.h>

/* What a plugin left out after its fault is replaced by: no callbacks. */
static const libwrap_listener lw_no_listener;
static const libwrap_metric_source lw_no_source;

static const char *lw_signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    default: return "a fatal signal";
    }
}

int lw_plugin_fault(int sig)
{
    int at = LW_LOAD(lw_tls.plugin_at);
    if (!at)
        return 0;
    const char *cb = lw_tls.plugin_cb ? lw_tls.plugin_cb : "?";
    LW_STORE(lw_tls.plugin_at, 0);
    uint32_t k = (uint32_t)at & 0xff;
    int listener = (at & ~0xff) == LW_IN_LISTENER;
    const lw_plugin *pl = NULL;
    for (uint32_t i = 0; i < lw_nplugins && !pl; i++)
        if ((listener ? lw_plugins[i].listener_slot : lw_plugins[i].metric_slot) == (int)k)
            pl = &lw_plugins[i];
    const char *file = NULL;
    Dl_info info;
    if (pl && pl->p && dladdr((const void *)pl->p, &info) && info.dli_fname)
        file = info.dli_fname;
    /* Left out from here on: the end of the process calls no callback of
     * it again (its thread_end, finalize). */
    if (listener && k < lw_nlisteners) {
        lw_listeners[k] = &lw_no_listener;
        lw_listener_events[k] = NULL;
        __atomic_and_fetch(&lw_listeners_percall, ~(1u << k), __ATOMIC_RELAXED);
    } else if (!listener && k < lw_nmsources) {
        lw_msource_tables[k] = &lw_no_source;
        lw_msources[k].read = lw_read_nothing;
    }
    /* The runtime's lock held around this callback: the thread never
     * returns to give it back, and the end of the process takes it. */
    if (!strcmp(cb, "region"))
        lw_region_unlock();
    else if (!strcmp(cb, "thread_end"))
        lw_thread_registry_unlock();
    if (file && pl && !strcmp(file, pl->name))
        file = NULL; /* named by its path already */
    /* At the end (lw_state 2) the profile is written before the plugins'
     * thread_end, events and finalize are called. */
    int state = LW_LOAD(lw_state);
    lw_error("%s '%s'%s%s%s crashed with %s in its %s callback: it is left out%s",
             listener ? "event listener" : "metric source", pl ? pl->name : "?",
             file ? " (" : "", file ? file : "", file ? ")" : "", lw_signal_name(sig), cb,
             state == 1   ? ", and the results measured so far are written"
             : state == 2 ? "; the results were written before"
                          : "");
    return state == 1;
}

