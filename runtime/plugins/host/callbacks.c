/*
 * callbacks.c - the plugins called by the runtime: a thread's begin and
 * end, a fork child, a region registered (the core's hooks, through
 * process/lifecycle.c), the end of measurement and of a job.
 */
#include "plugins/host/host.h"
#include "core/abi/abi.h"
#include "jobs/jobs.h"

#include <pthread.h>

void lw_plugins_thread_begin(lw_thread *t)
{
    int cancel = lw_cancel_off();
    for (uint32_t k = 0; k < lw_nmsources; k++) {
        const libwrap_metric_source *ms = lw_msource_tables[k];
        lw_plugin_mark m = lw_plugin_in(LW_IN_SOURCE + (int)k, "thread_begin");
        t->metric_handle[k] = ms->thread_begin ? ms->thread_begin(t->tid) : NULL;
        lw_plugin_out(m);
    }
    for (uint32_t k = 0; k < lw_nlisteners; k++) {
        lw_plugin_mark m = lw_plugin_in(LW_IN_LISTENER + (int)k, "thread_begin");
        t->listener_handle[k] =
            lw_listeners[k]->thread_begin ? lw_listeners[k]->thread_begin(t->tid) : NULL;
        lw_plugin_out(m);
    }
    t->listen = lw_nlisteners != 0;
    /* Mapped once per thread and never unmapped, as the tree: the
     * finaliser may deliver a running thread's events. */
    if (lw_events_buffered && !t->ev_base) {
        libwrap_event *buf = lw_map(lw_events_per_buffer * sizeof *buf);
        if (buf) {
            t->ev_base = buf;
            t->ev_end = buf + lw_events_per_buffer;
        } else {
            static int warned;
            libwrap_warn_once(&warned, "cannot allocate a thread's event buffer (out of memory): "
                                       "its calls are profiled, not traced");
        }
    }
    t->ev_pos = lw_events_buffered ? t->ev_base : NULL;
    lw_cancel_restore(cancel);
}

static void lw_plugins_thread_end_uncancelled(lw_thread *t)
{
    if (t->ev_pos)
        lw_events_flush(t);
    t->ev_pos = NULL;
    for (uint32_t k = 0; k < lw_nlisteners; k++) {
        lw_plugin_mark m = lw_plugin_in(LW_IN_LISTENER + (int)k, "thread_end");
        if (lw_listeners[k]->thread_end)
            lw_listeners[k]->thread_end(t->listener_handle[k]);
        lw_plugin_out(m);
        t->listener_handle[k] = NULL;
    }
    t->listen = 0;
    /* A source's handle ends on its own thread only (PAPI's event sets
     * belong to their thread); the finaliser leaves other threads' alone. */
    if (t != lw_tls.self)
        return;
    for (uint32_t k = 0; k < lw_nmsources; k++) {
        const libwrap_metric_source *ms = lw_msource_tables[k];
        lw_plugin_mark m = lw_plugin_in(LW_IN_SOURCE + (int)k, "thread_end");
        if (ms->thread_end)
            ms->thread_end(t->metric_handle[k]);
        lw_plugin_out(m);
        t->metric_handle[k] = NULL;
    }
}

void lw_plugins_thread_end(lw_thread *t)
{
    int cancel = lw_cancel_off();
    lw_plugins_thread_end_uncancelled(t);
    lw_cancel_restore(cancel);
}

void lw_plugins_fork_child(lw_thread *t)
{
    /* The parent's handles (a perf descriptor counts the parent's thread)
     * end here; the child's thread begins again. */
    for (uint32_t k = 0; k < lw_nmsources; k++) {
        const libwrap_metric_source *ms = lw_msource_tables[k];
        lw_plugin_mark m = lw_plugin_in(LW_IN_SOURCE + (int)k, "fork");
        if (t && ms->thread_end)
            ms->thread_end(t->metric_handle[k]);
        if (ms->fork)
            ms->fork();
        lw_plugin_out(m);
    }
    for (uint32_t k = 0; k < lw_nlisteners; k++)
        if (lw_listeners[k]->fork) {
            lw_plugin_mark m = lw_plugin_in(LW_IN_LISTENER + (int)k, "fork");
            lw_listeners[k]->fork();
            lw_plugin_out(m);
        }
    lw_samples_after_fork();
    if (t)
        lw_plugins_thread_begin(t);
}

void lw_plugins_region(int32_t id, const libwrap_region *r)
{
    for (uint32_t k = 0; k < lw_nlisteners; k++)
        if (lw_listeners[k]->region) {
            lw_plugin_mark m = lw_plugin_in(LW_IN_LISTENER + (int)k, "region");
            lw_listeners[k]->region(id, r);
            lw_plugin_out(m);
        }
}

void lw_plugins_end_threads(void)
{
    for (lw_thread *t = lw_thread_first(); t; t = t->next)
        if (t->alive)
            lw_plugins_thread_end(t);
}

void lw_plugins_finish(uint64_t end_ticks)
{
    if (lw_nlisteners) {
        size_t n;
        const libwrap_region *const *regions = lw_region_table(&n);
        libwrap_metric_info infos[LW_MAX_METRICS];
        for (size_t i = 0; i < lw_nmetrics_all; i++)
            infos[i] = lw_metrics[i].info;
        libwrap_process_end end = {
            .regions = regions,
            .nregions = (uint32_t)n,
            .tick0 = lw_timer_start_ticks(),
            .tick_end = end_ticks,
            .resolution = (uint64_t)(1e9 / lw_timer_ns_per_tick() + 0.5),
            .epoch_ns = lw_timer_epoch_ns(),
            .rank = -1,
            .size = -1,
            .host = lw_job_info.host,
            .metrics = infos,
            .nmetrics = (uint32_t)lw_nmetrics_all,
            .samples = lw_samples,
            .nsamples = lw_nsamples,
        };
        if (lw_job_info.active && !lw_job_info.forked) {
            lw_job_clock_points(lw_timer_start_ticks(), end_ticks);
            end.rank = lw_job_info.rank;
            end.size = lw_job_info.size;
            end.npoints = lw_job_info.npoints;
            end.point_ticks = lw_job_info.point_ticks;
            end.point_ns = lw_job_info.point_ns;
        }
        for (uint32_t k = 0; k < lw_nlisteners; k++)
            if (lw_listeners[k]->finalize) {
                lw_plugin_mark m = lw_plugin_in(LW_IN_LISTENER + (int)k, "finalize");
                lw_listeners[k]->finalize(&end);
                lw_plugin_out(m);
            }
    }
    for (uint32_t k = 0; k < lw_nmsources; k++)
        if (lw_msource_tables[k]->finalize) {
            lw_plugin_mark m = lw_plugin_in(LW_IN_SOURCE + (int)k, "finalize");
            lw_msource_tables[k]->finalize();
            lw_plugin_out(m);
        }
}

void lw_plugins_group_complete(const char *dir, const char *group_dir)
{
    for (uint32_t k = 0; k < lw_nlisteners; k++)
        if (lw_listeners[k]->group_complete) {
            lw_plugin_mark m = lw_plugin_in(LW_IN_LISTENER + (int)k, "group_complete");
            lw_listeners[k]->group_complete(dir, group_dir);
            lw_plugin_out(m);
        }
}

void lw_plugins_job_complete(const char *dir)
{
    for (uint32_t k = 0; k < lw_nlisteners; k++)
        if (lw_listeners[k]->job_complete) {
            lw_plugin_mark m = lw_plugin_in(LW_IN_LISTENER + (int)k, "job_complete");
            lw_listeners[k]->job_complete(dir);
            lw_plugin_out(m);
        }
}

