/*
 * metrics_perf.c - the built-in metric source "perf" (LIBWRAP_METRIC_PERF):
 * Linux perf_event counters of the calling thread (pid 0, any CPU, not
 * inherited by child threads). A plugin of its own (libwrap/plugin.h).
 *
 * Each thread opens its own counters and reads each with one read(2),
 * made through syscall(2), which is no cancellation point (a deferred
 * pthread_cancel acts in the program, not here): a system call per metric
 * on every enter and exit (about a microsecond each). They are not grouped
 * for a single read: the kernel keeps the clock events (task-clock,
 * cpu-clock) and the other software events in different PMUs, and a mixed
 * group reads 0 for the members.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "plugins/plugin_util.h"

static const libwrap_host *lw_host;
static const libwrap_plugin lw_plugin;
#define lw_metrics_warn(...) lw_host->warn(&lw_plugin, __VA_ARGS__)

typedef struct {
    const char *name;
    uint32_t type;
    uint64_t config;
    const char *unit;
} lw_perf_event;

/* The names of perf-list(1). */
static const lw_perf_event lw_perf_events[] = {
    {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "ns"},
    {"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "ns"},
    {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "#"},
    {"faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "#"},
    {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "#"},
    {"cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "#"},
    {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, "#"},
    {"migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, "#"},
    {"minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, "#"},
    {"major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, "#"},
    {"alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS, "#"},
    {"emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS, "#"},
    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "#"},
    {"cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "#"},
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "#"},
    {"cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, "#"},
    {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, "#"},
    {"branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "#"},
    {"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "#"},
    {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, "#"},
    {"bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES, "#"},
    {"stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, "#"},
    {"stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, "#"},
    {"ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, "#"},
};
#define LW_PERF_NEVENTS (sizeof lw_perf_events / sizeof lw_perf_events[0])

static const lw_perf_event *lw_perf_chosen[LIBWRAP_MAX_METRICS];

/* A thread's counters. */
typedef struct {
    int fd[LIBWRAP_MAX_METRICS];
    lw_fd_id id[LIBWRAP_MAX_METRICS]; /* plugin_util.h: the program may close them */
} lw_perf_thread;
static size_t lw_perf_n;

static int lw_perf_open(const lw_perf_event *ev)
{
    struct perf_event_attr attr;

    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = ev->type;
    attr.config = ev->config;
    /* Counting the user's own code is always allowed; kernel counting of
     * hardware events is refused at perf_event_paranoid >= 2. */
    attr.exclude_kernel = ev->type == PERF_TYPE_HARDWARE;
    attr.exclude_hv = 1;
    return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static const char *lw_perf_hint(const lw_perf_event *ev, int err)
{
    if (err == EACCES || err == EPERM)
        return " (see /proc/sys/kernel/perf_event_paranoid)";
    if (ev->type == PERF_TYPE_HARDWARE)
        return " (no hardware counters?)";
    return "";
}

typedef struct {
    libwrap_metric_info *defs;
    size_t room;
} lw_perf_parse;

static void lw_perf_name(const char *name, size_t len, void *arg)
{
    lw_perf_parse *p = arg;
    const lw_perf_event *ev = NULL;

    for (size_t i = 0; i < LW_PERF_NEVENTS; i++)
        if (strlen(lw_perf_events[i].name) == len && memcmp(lw_perf_events[i].name, name, len) == 0)
            ev = &lw_perf_events[i];
    if (!ev) {
        lw_metrics_warn("unknown event '%.*s' (accepted: task-clock, "
                        "cpu-clock, page-faults, context-switches, cpu-migrations, minor-faults, "
                        "major-faults, alignment-faults, emulation-faults, cycles, instructions, "
                        "cache-references, cache-misses, branches, branch-misses, bus-cycles, "
                        "stalled-cycles-frontend, stalled-cycles-backend, ref-cycles); "
                        "continuing without it", (int)len, name);
        return;
    }
    for (size_t i = 0; i < lw_perf_n; i++)
        if (lw_perf_chosen[i]->type == ev->type && lw_perf_chosen[i]->config == ev->config)
            return; /* named twice, or under an alias */
    if (lw_perf_n == p->room) {
        lw_metrics_warn("too many metrics (at most %d in all); "
                        "continuing without '%s'", LIBWRAP_MAX_METRICS, ev->name);
        return;
    }
    /* Probe on this thread, so that a counter the machine lacks is reported
     * once here rather than on every thread. */
    int fd = lw_perf_open(ev);
    if (fd < 0) {
        int err = errno;
        lw_metrics_warn("cannot open '%s': %s%s; continuing without it",
                        ev->name, strerror(err), lw_perf_hint(ev, err));
        return;
    }
    close(fd);
    p->defs[lw_perf_n] = (libwrap_metric_info){ev->name, ev->unit, NULL, LIBWRAP_METRIC_ACCUMULATED,
                                                LIBWRAP_METRIC_SYNC};
    lw_perf_chosen[lw_perf_n++] = ev;
}

static int lw_perf_init(const libwrap_host *host, const char *list, libwrap_metric_info *defs,
                        uint32_t room)
{
    lw_perf_parse p = {defs, room};

    lw_host = host;
    lw_perf_n = 0;
    lw_list_each(list, lw_perf_name, &p);
    return (int)lw_perf_n;
}

static void *lw_perf_thread_begin(uint32_t tid)
{
    (void)tid;
    lw_perf_thread *t = malloc(sizeof *t);
    if (!t)
        return NULL;
    for (size_t i = 0; i < lw_perf_n; i++) {
        t->fd[i] = lw_fd_keep(lw_perf_open(lw_perf_chosen[i]), &t->id[i]);
        if (t->fd[i] < 0) {
            /* Usually the descriptor limit; the values of this thread read 0. */
            static int warned;
            if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
                lw_metrics_warn("cannot open '%s' on a new thread: %s; its values on such "
                                "threads are 0", lw_perf_chosen[i]->name, strerror(errno));
        }
    }
    return t;
}

static void lw_perf_read(void *thread, uint64_t *out)
{
    lw_perf_thread *t = thread;
    for (size_t i = 0; i < lw_perf_n; i++)
        if (!t || t->fd[i] < 0 || syscall(SYS_read, t->fd[i], &out[i], sizeof out[i]) != (long)sizeof out[i])
            out[i] = 0;
}

static void lw_perf_thread_end(void *thread)
{
    lw_perf_thread *t = thread;
    if (!t)
        return;
    for (size_t i = 0; i < lw_perf_n; i++)
        if (t->fd[i] >= 0 && lw_fd_same(t->fd[i], &t->id[i]))
            close(t->fd[i]);
    free(t);
}

static const libwrap_metric_source lw_perf_source = {
    .init = lw_perf_init,
    .thread_begin = lw_perf_thread_begin,
    .read = lw_perf_read,
    .thread_end = lw_perf_thread_end,
};

static const libwrap_plugin lw_plugin = {LIBWRAP_PLUGIN_ABI_VERSION, LIBWRAP_PLUGIN_METRIC, "perf",
                                         &lw_perf_source, NULL};
LIBWRAP_PLUGIN_DEFINE(lw_plugin)
