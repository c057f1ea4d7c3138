/*
 * host.h - the plugin host (plugin.c, callbacks.c, samples.c, fault.c,
 * settings.c): loads the run's plugins at start, fills the core's tables
 * (core/measure/listen.h), and is told of threads, regions and the end
 * through the hook table (process/lifecycle.c).
 */
#ifndef LIBWRAP_RUNTIME_PLUGINS_HOST_H
#define LIBWRAP_RUNTIME_PLUGINS_HOST_H

#include "core/measure/listen.h"

struct lw_json;

/* Internal to the runtime's shared object: hidden, so that -fPIC code
 * reaches it directly instead of through the GOT. */
#pragma GCC visibility push(hidden)

/* The plugins of the run: the built-in ones that the settings ask for
 * (LIBWRAP_METRIC_PAPI, _PERF, _RUSAGE; tracing), then
 * LIBWRAP_METRIC_PLUGINS and LIBWRAP_LISTENERS. */
void lw_plugins_load(void);
/* Per thread, at its first measured call and at its end (not on the hot path). */
void lw_plugins_thread_begin(lw_thread *t);
void lw_plugins_thread_end(lw_thread *t);
/* In a fork child, for its one thread. */
void lw_plugins_fork_child(lw_thread *t);
/* A region became measured (region lock held). */
void lw_plugins_region(int32_t id, const libwrap_region *r);
/* The end: ASYNC samples stop being taken (and are put in time order);
 * every thread's handles end (registry lock held); then, without the
 * runtime's locks, the listeners' and the sources' finalize. */
void lw_samples_freeze(void);
void lw_plugins_end_threads(void);
void lw_plugins_finish(uint64_t end_ticks);
/* Inside a job, in the process that completed it. */
void lw_plugins_job_complete(const char *dir);
/* A group of the job in `dir` complete (a job of more ranks than a group),
 * its parts in `group_dir`. */
void lw_plugins_group_complete(const char *dir, const char *group_dir);
/* The ASYNC samples as profile.json's "samples" section. */
void lw_samples_json(struct lw_json *j);
void lw_samples_txt(FILE *f);
/* One line of config.txt per metric setting that was given. */
void lw_plugins_config_write(FILE *out);
/* The effective value of a LIBWRAP_* setting as config.txt writes it, in a
 * static buffer, or NULL (libwrap_host.setting). */
const char *lw_host_setting(const char *name);
/* On the faulting thread, from the fatal-signal handler: when the fault is
 * in a plugin's callback, names the plugin (one line), leaves it out of
 * everything that follows, gives back the runtime lock held around that
 * callback, and returns 1: the results can then be written as for a crash
 * in the program. 0 when the thread is in no plugin. */
int lw_plugin_fault(int sig);

/* ---- inside the plugin host (its files only) --------------------------- */

typedef struct lw_plugin {
    const libwrap_plugin *p;
    char *name;    /* as asked for: a name or a path */
    char *request; /* LIBWRAP_METRIC_<NAME> / LIBWRAP_LISTENER_<NAME>, or NULL */
    void *dl;
    int builtin;   /* loaded for LIBWRAP_METRIC_PAPI, _PERF, _RUSAGE or tracing */
    int metric_slot;   /* index in lw_msources, -1 */
    int listener_slot; /* index in lw_listeners, -1 */
    /* The plugin's metrics as init gave them, and their places in the
     * run's list (lw_metric_get). */
    uint32_t ninfo;
    libwrap_metric_info info[LW_MAX_METRICS];
    uint32_t global[LW_MAX_METRICS];
} lw_plugin;

extern lw_plugin lw_plugins[LW_MAX_PLUGINS];
extern uint32_t lw_nplugins;
extern const libwrap_metric_source *lw_msource_tables[LW_MAX_PLUGINS];
/* The built-in metric sources, and their settings as set (NULL: unset). */
#define LW_NBUILTIN 3
extern const char *const lw_builtin_names[LW_NBUILTIN];
extern char *lw_builtin_set[LW_NBUILTIN];
/* The loaded plugin of a plugin's own table, or NULL (plugin.c). */
const lw_plugin *lw_plugin_of(const libwrap_plugin *self);
/* A metric source's read that reads nothing (one left out, or without). */
void lw_read_nothing(void *thread, uint64_t *values);
/* The plugin loaded under `name`, or NULL. */
lw_plugin *lw_find_loaded(const char *name);
/* PREFIX + NAME upper-cased into buf (LIBWRAP_METRIC_PERF). */
const char *lw_plugin_var(const char *prefix, const char *name, char *buf, size_t len);
/* Ticks to ns since the epoch of the run (libwrap_host.ns). */
uint64_t lw_host_ns(uint64_t ticks);

/* samples.c: the ASYNC samples (libwrap_host.sample), in time order once
 * frozen. */
extern libwrap_sample *lw_samples;
extern size_t lw_nsamples;
void lw_samples_add(const libwrap_plugin *self, uint32_t metric, uint64_t ticks, uint64_t value);
void lw_samples_after_fork(void);

#pragma GCC visibility pop

#endif /* LIBWRAP_RUNTIME_PLUGINS_HOST_H */
