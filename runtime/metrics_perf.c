/*
 * metrics_perf.c - LIBWRAP_METRIC_PERF: Linux perf_event counters of the
 * calling thread (pid 0, any CPU, not inherited by child threads).
 *
 * Each thread opens its own counters and reads each with one read(2): a
 * system call per metric on every enter and exit (about a microsecond
 * each). They are not grouped for a single read: the kernel keeps the
 * clock events (task-clock, cpu-clock) and the other software events in
 * different PMUs, and a mixed group reads 0 for the members.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "metrics_source.h"

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

static const lw_perf_event *lw_perf_chosen[LW_MAX_METRICS];
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
    lw_metric_def *defs;
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
        lw_metrics_warn("LIBWRAP_METRIC_PERF: unknown event '%.*s' (accepted: task-clock, "
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
        lw_metrics_warn("LIBWRAP_METRIC_PERF: too many metrics (at most %d in all); "
                        "continuing without '%s'", LW_MAX_METRICS, ev->name);
        return;
    }
    /* Probe on this thread, so that a counter the machine lacks is reported
     * once here rather than on every thread. */
    int fd = lw_perf_open(ev);
    if (fd < 0) {
        int err = errno;
        lw_metrics_warn("LIBWRAP_METRIC_PERF: cannot open '%s': %s%s; continuing without it",
                        ev->name, strerror(err), lw_perf_hint(ev, err));
        return;
    }
    close(fd);
    p->defs[lw_perf_n] = (lw_metric_def){ev->name, ev->unit, "perf"};
    lw_perf_chosen[lw_perf_n++] = ev;
}

size_t lw_metrics_perf_init(const char *list, lw_metric_def *defs, size_t room)
{
    lw_perf_parse p = {defs, room};

    lw_perf_n = 0;
    lw_metrics_each_name(list, lw_perf_name, &p);
    return lw_perf_n;
}

void lw_metrics_perf_thread_init(lw_metrics_thread *mt)
{
    for (size_t i = 0; i < lw_perf_n; i++) {
        mt->perf_fd[i] = lw_perf_open(lw_perf_chosen[i]);
        if (mt->perf_fd[i] < 0) {
            /* Usually the descriptor limit; the values of this thread read 0. */
            static int warned;
            if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
                lw_metrics_warn("LIBWRAP_METRIC_PERF: cannot open '%s' on a new thread: %s; "
                                "its values on such threads are 0",
                                lw_perf_chosen[i]->name, strerror(errno));
        }
    }
}

void lw_metrics_perf_read(lw_metrics_thread *mt, uint64_t *out)
{
    for (size_t i = 0; i < lw_perf_n; i++)
        if (mt->perf_fd[i] < 0 || read(mt->perf_fd[i], &out[i], sizeof out[i]) != sizeof out[i])
            out[i] = 0;
}

void lw_metrics_perf_thread_fini(lw_metrics_thread *mt)
{
    for (size_t i = 0; i < lw_perf_n; i++) {
        if (mt->perf_fd[i] >= 0)
            close(mt->perf_fd[i]);
        mt->perf_fd[i] = -1;
    }
}

void lw_metrics_perf_fini(void)
{
    lw_perf_n = 0;
}
