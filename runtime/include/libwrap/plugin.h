/*
 * plugin.h - the plugin ABI of the libwrap runtime: metric sources and event
 * listeners (docs/plugins.md).
 *
 * A plugin is a shared object that exports one function,
 *
 *     const libwrap_plugin *libwrap_plugin_entry(uint32_t host_abi_version);
 *
 * (LIBWRAP_PLUGIN_DEFINE below writes it). The runtime loads it with dlopen
 * at process start, calls the entry point once, checks `abi_version`, and
 * uses the plugin through the tables it returns. The runtime's own trace
 * writer (OTF2) and its metric sources (PAPI, perf, rusage) are plugins of
 * this kind: a run that asks for none of them loads none of them.
 *
 * Choosing plugins, at run time:
 *
 *     LIBWRAP_METRIC_PLUGINS=name,...   metric sources
 *     LIBWRAP_LISTENERS=name,...        event listeners
 *     LIBWRAP_METRIC_<NAME>=request     what the metric source NAME measures
 *                                       (NAME in upper case; its own syntax,
 *                                       usually a comma list of metric names)
 *     LIBWRAP_LISTENER_<NAME>=request   the listener NAME's setting
 *     LIBWRAP_PLUGIN_PATH=dir:dir       where NAME is looked for
 *
 * A name with a '/' is the path of the shared object. Otherwise it is
 * looked for as libwrap_plugin_NAME.so in each directory of
 * LIBWRAP_PLUGIN_PATH, then in the runtime's own plugin directory
 * (PREFIX/lib/libwrap, where the built-in ones are: otf2, papi, perf,
 * rusage). The first file that exists is the one: a file there that cannot
 * be loaded is a warning, not a reason to look further. LIBWRAP_METRIC_PAPI,
 * _PERF and _RUSAGE load the built-in metric
 * source of that name; LIBWRAP_ENABLE_TRACING=true loads the otf2 listener.
 * A plugin that cannot be found, loaded, or that was built for another ABI
 * version, is one warning, and the run goes on without it.
 *
 * Threads. Every callback of the hot path (read, enter, exit, argument,
 * events) is called on the measured thread itself, with that thread's
 * handle (events of a thread still running at the end: on the thread that
 * finalises, before that thread's thread_end), from inside a measured
 * call: it must not take a lock that the measured program may hold, should
 * not allocate, and must return. It may change errno (the
 * runtime restores it). Calls of the measured library made from a callback
 * are not measured. Callbacks that are not on the hot path (init, region,
 * thread_begin, thread_end, fork, finalize, job_complete) may allocate and
 * lock; the runtime serialises init, region, finalize and job_complete. A
 * metric source's thread_end runs on its own thread (at the thread's end);
 * a listener's thread_end runs there too, or, for threads still running
 * when the process ends, on the thread that finalises.
 *
 * Times are raw ticks of the runtime's timer (LIBWRAP_TIMER): the host's
 * now() gives the current value and ns() converts to nanoseconds since the
 * start of measurement.
 */
#ifndef LIBWRAP_PLUGIN_H
#define LIBWRAP_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "libwrap/libwrap.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Raised when a change breaks plugins built against an older header. */
#define LIBWRAP_PLUGIN_ABI_VERSION 1

#define LIBWRAP_PLUGIN_METRIC 0x1u   /* libwrap_plugin.metric is set */
#define LIBWRAP_PLUGIN_LISTENER 0x2u /* libwrap_plugin.listener is set */
/* The listener table has the `events` member (a plugin built against an
 * older plugin.h has not: the runtime reads it only when this is set). */
#define LIBWRAP_PLUGIN_EVENTS 0x4u

/* At most this many metrics per process, all sources together. */
#define LIBWRAP_MAX_METRICS 16

struct libwrap_plugin;

/* ---- what the runtime offers its plugins ------------------------------- */

typedef struct libwrap_host {
    uint32_t abi_version; /* LIBWRAP_PLUGIN_ABI_VERSION of the runtime */
    uint32_t size;        /* sizeof(libwrap_host) of the runtime */
    /* One warning on stderr through the runtime's message path:
     * "libwrap: [rank N: ]warning: NAME: <message>". */
    void (*warn)(const struct libwrap_plugin *self, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));
    /* Said only when LIBWRAP_VERBOSE is on. */
    void (*verbose)(const struct libwrap_plugin *self, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));
    /* The experiment directory, created on the first call; NULL when it
     * cannot be (the runtime has warned). Creating it is what makes a run
     * leave results: call it when there is something to write. */
    const char *(*experiment_directory)(void);
    /* The timer: ticks now, and nanoseconds since measurement start. */
    uint64_t (*now)(void);
    uint64_t (*ns)(uint64_t ticks);
    /* An asynchronous sample of the caller's metric `metric` (its index in
     * what init returned; the metric must be LIBWRAP_METRIC_ASYNC), taken at
     * `ticks`. From any thread, the plugin's own included; takes a lock. */
    void (*sample)(const struct libwrap_plugin *self, uint32_t metric, uint64_t ticks,
                   uint64_t value);
    /* The effective value of a LIBWRAP_* setting, as config.txt lists it
     * ("LIBWRAP_TOTAL_MEMORY" gives bytes), or NULL; a static buffer, valid
     * until the next call. */
    const char *(*setting)(const char *name);
    /* Called by a thread of the plugin's own (a sampler, a writer) as its
     * first action: nothing that thread calls is measured from then on,
     * and the end of the process never waits for it. */
    void (*thread_ignore)(void);
    /* 1 while the experiment directory's name may still change: a job that
     * its launcher names for one node only (MPICH's Hydra), whose rank 0
     * names it at MPI_Init. A plugin that can hold what it writes until its
     * first write after that asks for the directory then. Present where
     * `size` covers it. */
    int (*directory_pending)(void);
} libwrap_host;

/* ---- metric sources ---------------------------------------------------- */

/* libwrap_metric_info.mode */
#define LIBWRAP_METRIC_ACCUMULATED 0u /* a count that only grows (instructions,
                                       * bytes read): a call is charged its
                                       * value at exit minus its value at entry */
#define LIBWRAP_METRIC_ABSOLUTE 1u    /* a level (memory in use, temperature):
                                       * a call is charged the highest value
                                       * seen at its entry or exit */
/* libwrap_metric_info.timing */
#define LIBWRAP_METRIC_SYNC 0u  /* read on the measured thread at every entry and exit */
#define LIBWRAP_METRIC_ASYNC 1u /* timestamped samples, pushed with host->sample */

typedef struct libwrap_metric_info {
    const char *name;        /* "io_read_bytes"; unique within the run */
    const char *unit;        /* "bytes", "ns", "#", "J" */
    const char *description; /* one line, may be NULL */
    uint32_t mode;           /* LIBWRAP_METRIC_ACCUMULATED or _ABSOLUTE */
    uint32_t timing;         /* LIBWRAP_METRIC_SYNC or _ASYNC */
} libwrap_metric_info;

typedef struct libwrap_metric_source {
    /*
     * Process start, once, before any other call. `request` is the value of
     * LIBWRAP_METRIC_<NAME>, or NULL: the source's default set. Writes the
     * metrics it will provide to out[0..room-1] (the strings must live until
     * finalize) and returns how many. A requested metric that cannot be
     * opened is one host->warn naming it, and is left out; 0 means nothing
     * to measure, < 0 that the source refuses to run (after one warning).
     */
    int (*init)(const libwrap_host *host, const char *request, libwrap_metric_info *out,
                uint32_t room);
    /* A thread's first measured call (again in the child after fork);
     * returns its handle (may be NULL). `thread` is the runtime's dense
     * thread number, 0 for the first. */
    void *(*thread_begin)(uint32_t thread);
    /* Hot path: the current value of every SYNC metric, in init's order
     * (ASYNC ones left out), into values[]. NULL when all are ASYNC. */
    void (*read)(void *thread, uint64_t *values);
    void (*thread_end)(void *thread);
    /* In the child after fork(), before the child's thread_begin: a thread
     * of the plugin's own did not survive the fork. */
    void (*fork)(void);
    /* Process end, after the last read, without any lock of the runtime
     * held (a thread of the plugin's own may be joined here). */
    void (*finalize)(void);
    /* Zero: callbacks added by later versions of this header. */
    void (*reserved[4])(void);
} libwrap_metric_source;

/* ---- event listeners --------------------------------------------------- */

/* A recorded argument (LIBWRAP_ARGUMENTS, docs/arguments.md). */
#define LIBWRAP_ARG_SIGNED 0u   /* value.i: every signed integer type, enums */
#define LIBWRAP_ARG_UNSIGNED 1u /* value.u: unsigned integers, bool, size_t */
#define LIBWRAP_ARG_DOUBLE 2u   /* value.d: float, double */
#define LIBWRAP_ARG_STRING 3u   /* value.s: a bounded copy, NUL-terminated;
                                 * "(null)" or "(unreadable)" when it was not
                                 * a readable string */

typedef struct libwrap_argument {
    const char *name; /* the parameter's name, or "return" */
    const char *type; /* its C type as declared */
    uint32_t kind;    /* LIBWRAP_ARG_* */
    uint32_t index;   /* its slot among the function's recorded arguments */
    union {
        int64_t i;
        uint64_t u;
        double d;
        const char *s; /* valid during the callback only */
    } value;
} libwrap_argument;

/* What a listener learns at the end of the process. */
typedef struct libwrap_process_end {
    /* regions[i] is the region of id i + 1 (measured ones; excluded ones
     * never reach a listener). */
    const libwrap_region *const *regions;
    uint32_t nregions;
    /* The timer: ticks at measurement start and end, ticks per second, and
     * the wall-clock time of the start (ns since the Unix epoch). */
    uint64_t tick0, tick_end, resolution, epoch_ns;
    /* The process inside a job: rank and size (-1 alone), its host, and the
     * map from its ticks to the job's time base in ns, linear between
     * `npoints` points (0: the process's own clock). */
    long rank, size;
    const char *host;
    size_t npoints;
    const uint64_t *point_ticks, *point_ns;
    /* The metrics of the run: values passed to enter/exit are the SYNC ones,
     * in this order; `samples` the ASYNC samples of the whole process, in
     * time order. */
    const libwrap_metric_info *metrics;
    uint32_t nmetrics;
    const struct libwrap_sample *samples;
    size_t nsamples;
} libwrap_process_end;

typedef struct libwrap_sample {
    uint32_t metric; /* index into libwrap_process_end.metrics */
    uint32_t pad;
    uint64_t ticks;
    uint64_t value;
} libwrap_sample;

/*
 * A buffered event (libwrap_listener.events): the entry of region `region`
 * when it is > 0, the exit of region -region when it is < 0, at `ticks`.
 */
typedef struct libwrap_event {
    uint64_t ticks;
    int32_t region;
    uint32_t reserved; /* 0 */
} libwrap_event;

typedef struct libwrap_listener {
    /* Process start, once. `request` is LIBWRAP_LISTENER_<NAME> or NULL;
     * `metrics`, `nmetrics` the SYNC metrics that enter and exit will carry.
     * Returns 0, or < 0 to be unloaded (after one warning). */
    int (*init)(const libwrap_host *host, const char *request, const libwrap_metric_info *metrics,
                uint32_t nmetrics);
    /* A region became measured: id > 0, before its first enter. */
    void (*region)(int32_t id, const libwrap_region *region);
    /* A thread's first measured call (again in the child after fork). */
    void *(*thread_begin)(uint32_t thread);
    /* Hot path: entry and exit of a measured call on the calling thread,
     * with the SYNC metric values at that moment (nmetrics of them). A
     * listener that takes `events` gets these only while SYNC metrics are
     * measured. */
    void (*enter)(void *thread, int32_t region, uint64_t ticks, const uint64_t *metrics);
    void (*exit)(void *thread, int32_t region, uint64_t ticks, const uint64_t *metrics);
    /* Hot path: a recorded argument of the call just entered (parameters,
     * after enter, `ticks` its entry's) or being left (the result, before
     * exit, `ticks` its exit's). */
    void (*argument)(void *thread, int32_t region, uint64_t ticks, const libwrap_argument *arg);
    void (*thread_end)(void *thread);
    /* In the child after fork(), before anything else there: handles of the
     * parent's threads are not used again. */
    void (*fork)(void);
    /* The end: every thread has ended (thread_end was called). No lock of
     * the runtime is held. */
    void (*finalize)(const libwrap_process_end *end);
    /* Inside a job, in the process that finished it last: every process of
     * the job has finalised into `experiment_directory`. */
    void (*job_complete)(const char *experiment_directory);
    /*
     * Optional (LIBWRAP_PLUGIN_EVENTS in libwrap_plugin.kinds): the entries
     * and exits of a thread's measured calls in batches, in the order they
     * happened, instead of one enter and one exit call each. The runtime's
     * fast path only appends a 16-byte record to a per-thread buffer; a full
     * buffer is delivered here on the measured thread, and so is the rest
     * before that thread's other callbacks (argument, thread_end) and
     * before finalize, so a listener sees each thread's events in order.
     * Used when no SYNC metric is measured; with SYNC metrics (whose values
     * a record cannot carry) the listener gets enter and exit instead, so it
     * implements both. `ev` is valid during the call only. Hot-path rules
     * (above) apply, though it is called once per some thousand events.
     */
    void (*events)(void *thread, const libwrap_event *ev, size_t n);
    /* Optional. Inside a job of more ranks than a group
     * (LIBWRAP_JOB_GROUP_SIZE), in the process that finished a group last:
     * every process of the group has finalised; its parts are in
     * `group_directory` (experiment_directory/ranks/G). Called before the
     * job can complete, so that a listener can do a group's share of the
     * job's work there (the trace writer merges the group's trace). */
    void (*group_complete)(const char *experiment_directory, const char *group_directory);
    /* Zero: callbacks added by later versions of this header. */
    void (*reserved[2])(void);
} libwrap_listener;

/* ---- the plugin -------------------------------------------------------- */

typedef struct libwrap_plugin {
    uint32_t abi_version; /* LIBWRAP_PLUGIN_ABI_VERSION it was built with */
    uint32_t kinds;       /* LIBWRAP_PLUGIN_METRIC | LIBWRAP_PLUGIN_LISTENER
                           * [| LIBWRAP_PLUGIN_EVENTS] */
    const char *name;     /* for messages */
    const libwrap_metric_source *metric;
    const libwrap_listener *listener;
} libwrap_plugin;

typedef const libwrap_plugin *(*libwrap_plugin_entry_fn)(uint32_t host_abi_version);

/* Writes the entry point; `plugin` is a static libwrap_plugin. */
#ifdef __cplusplus
#define LIBWRAP_PLUGIN_DEFINE(plugin)                                                       \
    extern "C" __attribute__((visibility("default"))) const libwrap_plugin *                \
    libwrap_plugin_entry(uint32_t host_abi_version)                                         \
    {                                                                                       \
        (void)host_abi_version;                                                             \
        return &(plugin);                                                                   \
    }
#else
#define LIBWRAP_PLUGIN_DEFINE(plugin)                                                       \
    __attribute__((visibility("default"))) const libwrap_plugin *libwrap_plugin_entry(     \
        uint32_t host_abi_version);                                                         \
    __attribute__((visibility("default"))) const libwrap_plugin *libwrap_plugin_entry(     \
        uint32_t host_abi_version)                                                          \
    {                                                                                       \
        (void)host_abi_version;                                                             \
        return &(plugin);                                                                   \
    }
#endif

#ifdef __cplusplus
}
#endif

#endif /* LIBWRAP_PLUGIN_H */
