/*
 * plugin.c - the runtime's plugins: metric sources and event listeners
 * (libwrap/plugin.h, docs/plugins.md).
 *
 * Loaded once, at start, with dlopen: first the built-in ones that the
 * settings ask for (papi, perf, rusage for LIBWRAP_METRIC_PAPI, _PERF,
 * _RUSAGE; otf2 for LIBWRAP_ENABLE_TRACING), then LIBWRAP_METRIC_PLUGINS
 * and LIBWRAP_LISTENERS in their order. A plugin that cannot be found,
 * loaded or used is one warning; the run goes on without it. The core
 * itself needs only libc: the built-in plugins bring OTF2 and PAPI into the
 * process when they are asked for, and not otherwise.
 *
 * After start the tables below are read-only; the hot path reads them
 * without a lock (lw_metrics_read, lw_listen_* in core/measure/listen.h).
 */
#include "plugins/host/host.h"
#include "core/measure/hooks.h"
#include "jobs/jobs.h"
#include "core/abi/abi.h"
#include "core/base/json.h"
#include "plugins/plugin_util.h"

#include <ctype.h>
#include "core/base/dl.h"
#include <signal.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

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


static lw_plugin lw_plugins[LW_MAX_PLUGINS];
static uint32_t lw_nplugins;
static const libwrap_metric_source *lw_msource_tables[LW_MAX_PLUGINS];
static uint32_t lw_metrics_claimed; /* while loading */
/* The built-in metric sources, and their settings as set (NULL: unset). */
static const char *const lw_builtin_names[] = {"papi", "perf", "rusage"};
static char *lw_builtin_set[3];
static libwrap_metric_info lw_sync_infos[LW_MAX_METRICS]; /* what listeners are told */

/* ---- asynchronous samples ---------------------------------------------- */

static pthread_mutex_t lw_samples_lock = PTHREAD_MUTEX_INITIALIZER;
static libwrap_sample *lw_samples;
static size_t lw_nsamples, lw_samples_cap;
static int lw_samples_full;   /* said once */
static int lw_samples_frozen; /* the end: no more samples */

/* ---- the host: what plugins may call ----------------------------------- */

/* While a plugin's init runs, its warnings are held here: if init fails,
 * they become the reason in the runtime's one warning that the plugin is
 * not used (lw_init_failed); otherwise they are said as they are. Init runs
 * at start, on the one thread that loads the plugins. */
static const libwrap_plugin *lw_init_self;
static char lw_init_said[900];
static size_t lw_init_said_len;

static void lw_init_hold(const libwrap_plugin *self)
{
    lw_init_self = self;
    lw_init_said[0] = '\0';
    lw_init_said_len = 0;
}

static void lw_host_vsay(const libwrap_plugin *self, int verbose, const char *fmt, va_list ap)
{
    char line[900];
    vsnprintf(line, sizeof line, fmt, ap);
    const char *name = self && self->name ? self->name : "plugin";
    if (!verbose && self && self == lw_init_self) {
        if (lw_init_said_len < sizeof lw_init_said - 1) {
            int n = snprintf(lw_init_said + lw_init_said_len, sizeof lw_init_said - lw_init_said_len,
                             "%s%s", lw_init_said_len ? "\n" : "", line);
            lw_init_said_len = n < 0 ? lw_init_said_len
                                     : lw_init_said_len + (size_t)n < sizeof lw_init_said
                                         ? lw_init_said_len + (size_t)n
                                         : sizeof lw_init_said - 1;
        }
        return;
    }
    if (verbose)
        lw_log(LW_LOG_PLUGIN, "%s: %s", name, line);
    else
        lw_warn("%s: %s", name, line);
}

__attribute__((format(printf, 2, 3))) static void lw_host_warn(const libwrap_plugin *self,
                                                                const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    lw_host_vsay(self, 0, fmt, ap);
    va_end(ap);
}

__attribute__((format(printf, 2, 3))) static void lw_host_verbose(const libwrap_plugin *self,
                                                                   const char *fmt, ...)
{
    if (!(lw_cfg.verbose & LW_LOG_PLUGIN))
        return;
    va_list ap;
    va_start(ap, fmt);
    lw_host_vsay(self, 1, fmt, ap);
    va_end(ap);
}

static uint64_t lw_host_now(void)
{
    return lw_ticks();
}

static uint64_t lw_host_ns(uint64_t ticks)
{
    uint64_t t0 = lw_timer_start_ticks();
    return ticks > t0 ? lw_ticks_to_ns(ticks - t0) : 0;
}

static const lw_plugin *lw_plugin_of(const libwrap_plugin *self)
{
    for (uint32_t i = 0; i < lw_nplugins; i++)
        if (lw_plugins[i].p == self)
            return &lw_plugins[i];
    return NULL;
}

static void lw_host_sample(const libwrap_plugin *self, uint32_t metric, uint64_t ticks,
                           uint64_t value)
{
    const lw_plugin *pl = lw_plugin_of(self);
    if (!pl || metric >= pl->ninfo || pl->info[metric].timing != LIBWRAP_METRIC_ASYNC ||
        LW_LOAD(lw_state) != 1)
        return;
    int saved = errno;
    int guard = LW_LOAD(lw_tls.guard);
    LW_STORE(lw_tls.guard, 1); /* a wrapped allocator records nothing here */
    pthread_mutex_lock(&lw_samples_lock);
    if (lw_samples_frozen) {
        pthread_mutex_unlock(&lw_samples_lock);
        LW_STORE(lw_tls.guard, guard);
        errno = saved;
        return;
    }
    if (lw_nsamples == lw_samples_cap) {
        /* Bounded by the memory budget: samples beyond it are dropped. */
        size_t cap = lw_samples_cap ? lw_samples_cap * 2 : 1024;
        void *p = cap * sizeof *lw_samples <= lw_cfg.total_memory
                      ? realloc(lw_samples, cap * sizeof *lw_samples)
                      : NULL;
        if (p) {
            lw_samples = p;
            lw_samples_cap = cap;
        } else if (!lw_samples_full) {
            lw_samples_full = 1;
            lw_warn("%s: more samples than LIBWRAP_TOTAL_MEMORY holds; later ones are dropped",
                    self->name);
        }
    }
    if (lw_nsamples < lw_samples_cap)
        lw_samples[lw_nsamples++] = (libwrap_sample){pl->global[metric], 0, ticks, value};
    pthread_mutex_unlock(&lw_samples_lock);
    LW_STORE(lw_tls.guard, guard);
    errno = saved;
}

static void lw_host_thread_ignore(void)
{
    /* The guard held for good: a wrapper called on this thread records
     * nothing and never attaches it. */
    LW_STORE(lw_tls.guard, 1);
}

static const libwrap_host lw_host = {
    .abi_version = LIBWRAP_PLUGIN_ABI_VERSION,
    .size = sizeof(libwrap_host),
    .warn = lw_host_warn,
    .verbose = lw_host_verbose,
    .experiment_directory = lw_experiment_dir,
    .now = lw_host_now,
    .ns = lw_host_ns,
    .sample = lw_host_sample,
    .setting = lw_host_setting,
    .thread_ignore = lw_host_thread_ignore,
};

/* The end of a plugin's init: what it said while it ran, as said, or, when
 * init failed (rc < 0), one warning that the plugin is not used, with what
 * it said as the reason. */
static void lw_init_done(const char *kind, const char *name, const libwrap_plugin *self, int rc,
                         const char *then)
{
    lw_init_self = NULL;
    const char *pname = self && self->name ? self->name : "plugin";
    if (rc >= 0) {
        for (char *line = lw_init_said_len ? lw_init_said : NULL; line;) {
            char *nl = strchr(line, '\n');
            if (nl)
                *nl = '\0';
            lw_warn("%s: %s", pname, line);
            line = nl ? nl + 1 : NULL;
        }
        return;
    }
    for (char *p = lw_init_said; *p; p++)
        if (*p == '\n')
            *p = ';';
    if (lw_init_said_len)
        lw_warn("%s '%s' is not used: its init failed: %s: %s%s", kind, name, pname, lw_init_said,
                then);
    else
        lw_warn("%s '%s' is not used: its init failed (returned %d) without saying why%s", kind,
                name, rc, then);
}

const char *lw_host_setting(const char *name)
{
    static char buf[64];
    if (!name)
        return NULL;
    if (!strcmp(name, "LIBWRAP_TOTAL_MEMORY")) {
        snprintf(buf, sizeof buf, "%zu", lw_cfg.total_memory);
        return buf;
    }
    if (!strcmp(name, "LIBWRAP_ENABLE_PROFILING"))
        return lw_cfg.profiling ? "true" : "false";
    if (!strcmp(name, "LIBWRAP_ENABLE_TRACING"))
        return lw_cfg.tracing ? "true" : "false";
    if (!strcmp(name, "LIBWRAP_TIMER"))
        return lw_timer_name();
    if (!strcmp(name, "LIBWRAP_COMPENSATE"))
        return lw_compensating() ? "true" : "false";
    if (!strcmp(name, "LIBWRAP_EXPERIMENT_DIRECTORY"))
        return lw_experiment_dir_claimed();
    if (!strcmp(name, "LIBWRAP_FILTERING_FILE"))
        return lw_cfg.filtering_file;
    return NULL;
}

/* ---- finding and loading ----------------------------------------------- */

/* The runtime's own plugin directory: <dir of this library>/libwrap. */
static const char *lw_builtin_dir(void)
{
    static char dir[PATH_MAX];
    if (!dir[0]) {
        Dl_info info;
        if (dladdr((void *)lw_builtin_dir, &info) && info.dli_fname) {
            const char *slash = strrchr(info.dli_fname, '/');
            int len = slash ? (int)(slash - info.dli_fname) : 1;
            snprintf(dir, sizeof dir, "%.*s/libwrap", len, slash ? info.dli_fname : ".");
        }
    }
    return dir;
}

/* "LIBWRAP_METRIC_" + NAME in upper case, non-alphanumerics as '_'. */
static const char *lw_plugin_var(const char *prefix, const char *name, char *buf, size_t len)
{
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    if (!strncmp(base, "libwrap_plugin_", 15))
        base += 15;
    size_t n = (size_t)snprintf(buf, len, "%s", prefix);
    for (const char *p = base; *p && n + 1 < len; p++) {
        if (!strcmp(p, ".so") || (p != base && !strncmp(p, ".so.", 4)))
            break;
        buf[n++] = isalnum((unsigned char)*p) ? (char)toupper((unsigned char)*p) : '_';
    }
    buf[n] = '\0';
    return buf;
}

static void *lw_try_open(const char *path, char *why, size_t whylen)
{
    if (access(path, F_OK) != 0)
        return NULL;
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!dl && !why[0]) {
        const char *e = dlerror();
        snprintf(why, whylen, "%s", e ? e : "dlopen failed");
    }
    return dl;
}

/* dlopen of the plugin `name`; NULL after one warning. */
static void *lw_open_plugin(const char *kind, const char *name, const char *then, char **path_out)
{
    char why[512] = "";
    char path[PATH_MAX];
    void *dl = NULL;
    if (!lw_dl_available()) {
        lw_warn("%s '%s' is not loaded: a statically linked program cannot load plugins (link "
                "it dynamically to use it)%s", kind, name, then);
        return NULL;
    }
    if (strchr(name, '/')) {
        snprintf(path, sizeof path, "%s", name);
        dl = lw_try_open(path, why, sizeof why);
        if (!dl && !why[0])
            snprintf(why, sizeof why, "no such file");
    } else {
        /* LIBWRAP_PLUGIN_PATH in its order, then the runtime's own. */
        const char *list = lw_cfg.plugin_path ? lw_cfg.plugin_path : "";
        const char *p = list;
        for (;;) {
            const char *end = strchr(p, ':');
            size_t len = end ? (size_t)(end - p) : strlen(p);
            if (len) {
                if (snprintf(path, sizeof path, "%.*s/libwrap_plugin_%s.so", (int)len, p, name) <
                        (int)sizeof path &&
                    ((dl = lw_try_open(path, why, sizeof why)) || why[0]))
                    break;
            }
            if (!end)
                break;
            p = end + 1;
        }
        if (!dl && !why[0] &&
            snprintf(path, sizeof path, "%s/libwrap_plugin_%s.so", lw_builtin_dir(), name) <
                (int)sizeof path)
            dl = lw_try_open(path, why, sizeof why);
        if (!dl && !why[0] &&
            snprintf(why, sizeof why,
                     "libwrap_plugin_%s.so is neither on LIBWRAP_PLUGIN_PATH (%s) nor in %s", name,
                     lw_cfg.plugin_path ? lw_cfg.plugin_path : "not set",
                     lw_builtin_dir()) >= (int)sizeof why)
            why[sizeof why - 2] = '.';
    }
    if (!dl) {
        lw_warn("%s '%s' is not loaded: %s%s", kind, name, why, then);
        return NULL;
    }
    *path_out = strdup(path);
    return dl;
}

static lw_plugin *lw_find_loaded(const char *name)
{
    for (uint32_t i = 0; i < lw_nplugins; i++)
        if (!strcmp(lw_plugins[i].name, name))
            return &lw_plugins[i];
    return NULL;
}

static int lw_has_kind(const libwrap_plugin *p, uint32_t kind)
{
    return (p->kinds & kind) && (kind != LIBWRAP_PLUGIN_METRIC || p->metric) &&
           (kind != LIBWRAP_PLUGIN_LISTENER || p->listener);
}

/* Loads `name` (once: a plugin that is both a metric source and a listener
 * may be named in both lists) and checks that it has `kind`. */
static lw_plugin *lw_load(const char *kind_name, uint32_t kind, const char *name, const char *then)
{
    lw_plugin *pl = lw_find_loaded(name);
    if (pl) {
        /* Loaded before (the other list named it too), or refused then. */
        if (pl->p && !lw_has_kind(pl->p, kind)) {
            lw_warn("%s '%s' is not used: it provides no %s%s", kind_name, name, kind_name, then);
            return NULL;
        }
        return pl->p ? pl : NULL;
    }
    if (lw_nplugins == LW_MAX_PLUGINS) {
        lw_warn("%s '%s' is not loaded: at most %d plugins per run", kind_name, name,
                LW_MAX_PLUGINS);
        return NULL;
    }
    pl = &lw_plugins[lw_nplugins];
    memset(pl, 0, sizeof *pl);
    pl->metric_slot = pl->listener_slot = -1;
    pl->name = strdup(name);
    if (!pl->name)
        return NULL;
    lw_nplugins++;
    char *path = NULL;
    void *dl = lw_open_plugin(kind_name, name, then, &path);
    if (!dl)
        return NULL;
    libwrap_plugin_entry_fn entry;
    *(void **)&entry = dlsym(dl, "libwrap_plugin_entry");
    const libwrap_plugin *p = entry ? entry(LIBWRAP_PLUGIN_ABI_VERSION) : NULL;
    if (!entry)
        lw_warn("%s '%s' is not loaded: %s has no libwrap_plugin_entry (is it a libwrap "
                "plugin?)%s", kind_name, name, path, then);
    else if (!p)
        lw_warn("%s '%s' is not loaded: its libwrap_plugin_entry returned NULL%s", kind_name, name,
                then);
    else if (p->abi_version != LIBWRAP_PLUGIN_ABI_VERSION)
        lw_warn("%s '%s' is not loaded: %s was built for plugin ABI version %u, this runtime "
                "has version %u (rebuild it against this libwrap/plugin.h)%s", kind_name, name,
                path, p->abi_version, LIBWRAP_PLUGIN_ABI_VERSION, then);
    else {
        /* Kept loaded even if it is not of this kind: the other list may
         * name it too. */
        pl->p = p;
        pl->dl = dl;
        lw_log(LW_LOG_PLUGIN, "loaded plugin '%s' from %s", name, path);
        if (!lw_has_kind(p, kind)) {
            lw_warn("%s '%s' is not used: %s provides no %s%s", kind_name, name, path, kind_name,
                    then);
            pl = NULL;
        }
        free(path);
        return pl;
    }
    free(path);
    dlclose(dl);
    return NULL;
}

static char *lw_request(const char *prefix, const char *name)
{
    char var[256];
    const char *v = getenv(lw_plugin_var(prefix, name, var, sizeof var));
    return v && *v ? strdup(v) : NULL;
}

/* A metric source: init, then its metrics join the run's list. */
static void lw_add_metric_source(const char *name, int builtin, const char *request)
{
    lw_plugin *pl = lw_load("metric source", LIBWRAP_PLUGIN_METRIC, name, "");
    if (!pl)
        return;
    if (pl->metric_slot >= 0) {
        lw_warn("metric source '%s' is asked for twice; it is loaded once", name);
        return;
    }
    pl->builtin = builtin;
    pl->request = request ? strdup(request) : lw_request("LIBWRAP_METRIC_", name);
    const libwrap_metric_source *ms = pl->p->metric;
    uint32_t room = LW_MAX_METRICS - lw_metrics_claimed;
    lw_init_hold(pl->p);
    int n = ms->init ? ms->init(&lw_host, pl->request, pl->info, room) : 0;
    lw_init_done("metric source", name, pl->p, n, "");
    if (n <= 0) {
        lw_log(LW_LOG_PLUGIN, "metric source '%s' measures nothing", name);
        return;
    }
    if ((uint32_t)n > room) {
        lw_warn("metric source '%s' is not used: it gave %d metrics where %u were left (at most "
                "%d per run)", name, n, room, LW_MAX_METRICS);
        return;
    }
    for (int k = 0; k < n; k++)
        if (!pl->info[k].name || !pl->info[k].unit) {
            lw_warn("metric source '%s' is not used: its metric %d has no name or unit", name, k);
            return;
        }
    pl->ninfo = (uint32_t)n;
    lw_metrics_claimed += (uint32_t)n;
    pl->metric_slot = (int)lw_nmsources;
    lw_msource_tables[lw_nmsources] = ms;
    lw_msources[lw_nmsources].read = ms->read;
    lw_nmsources++;
}

static void lw_add_listener(const char *name, int builtin)
{
    const char *kind = builtin ? "trace writer" : "event listener";
    const char *then = builtin ? "; LIBWRAP_ENABLE_TRACING=true, but only the profile is written" : "";
    lw_plugin *pl = lw_load(kind, LIBWRAP_PLUGIN_LISTENER, name, then);
    if (!pl)
        return;
    if (pl->listener_slot >= 0) {
        lw_warn("event listener '%s' is asked for twice; it is loaded once", name);
        return;
    }
    pl->builtin |= builtin;
    char *request = lw_request("LIBWRAP_LISTENER_", name);
    const libwrap_listener *l = pl->p->listener;
    lw_init_hold(pl->p);
    int rc = l->init ? l->init(&lw_host, request, lw_sync_infos, (uint32_t)lw_nmetrics) : 0;
    lw_init_done(kind, name, pl->p, rc, then);
    free(request);
    if (rc < 0) {
        lw_log(LW_LOG_PLUGIN, "event listener '%s' refused to run", name);
        return;
    }
    pl->listener_slot = (int)lw_nlisteners;
    lw_listener_events[lw_nlisteners] = pl->p->kinds & LIBWRAP_PLUGIN_EVENTS ? l->events : NULL;
    lw_listeners[lw_nlisteners++] = l;
}

/* Which listeners take buffered events: those that can, unless SYNC
 * metrics are measured (a record carries none). The buffer's size comes
 * from the memory budget: 1/256 of it, 4 to 64 KiB per thread. */
static void lw_choose_event_delivery(void)
{
    for (uint32_t k = 0; k < lw_nlisteners; k++) {
        if (lw_listener_events[k] && !lw_nmetrics)
            lw_events_buffered = 1;
        else
            lw_listeners_percall |= 1u << k;
    }
    size_t bytes = lw_cfg.total_memory / 256;
    bytes = bytes < 4096 ? 4096 : bytes > 65536 ? 65536 : bytes;
    lw_events_per_buffer = bytes / sizeof(libwrap_event);
    if (lw_events_buffered)
        lw_log(LW_LOG_PLUGIN, "events are buffered, %zu per thread", lw_events_per_buffer);
}

/* An item of LIBWRAP_METRIC_PLUGINS or LIBWRAP_LISTENERS (lw_list_each). */
typedef struct lw_adder {
    void (*add)(const char *name, int builtin);
} lw_adder;

static void lw_named(const char *name, size_t len, void *arg)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%.*s", (int)len, name);
    ((lw_adder *)arg)->add(buf, 0);
}

static void lw_add_metric_plugin(const char *name, int builtin)
{
    lw_add_metric_source(name, builtin, NULL);
}

/* The run's metric list: SYNC ones source after source, then ASYNC ones. */
static void lw_lay_out_metrics(void)
{
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < lw_nplugins; i++) {
            lw_plugin *pl = &lw_plugins[i];
            if (pl->metric_slot < 0)
                continue;
            if (pass == 0)
                lw_msources[pl->metric_slot].first = (uint32_t)lw_nmetrics_all;
            for (uint32_t k = 0; k < pl->ninfo; k++) {
                if ((pass == 0) != (pl->info[k].timing == LIBWRAP_METRIC_SYNC))
                    continue;
                if (pass == 0 && pl->info[k].mode == LIBWRAP_METRIC_ABSOLUTE)
                    lw_metric_absolute |= 1u << lw_nmetrics_all;
                pl->global[k] = (uint32_t)lw_nmetrics_all;
                lw_metrics[lw_nmetrics_all++] = (lw_metric){pl->info[k], pl->name};
            }
            if (pass == 0)
                lw_nmetrics = lw_nmetrics_all;
        }
    for (size_t i = 0; i < lw_nmetrics; i++)
        lw_sync_infos[i] = lw_metrics[i].info;
}

static void lw_read_nothing(void *thread, uint64_t *values)
{
    (void)thread;
    (void)values;
}

void lw_plugins_load(void)
{
    /* The built-in sources, in the order of earlier releases. */
    static const struct {
        const char *name, *var;
    } builtin[] = {{"papi", "LIBWRAP_METRIC_PAPI"},
                   {"perf", "LIBWRAP_METRIC_PERF"},
                   {"rusage", "LIBWRAP_METRIC_RUSAGE"}};
    _Static_assert(sizeof builtin / sizeof *builtin == sizeof lw_builtin_names / sizeof *lw_builtin_names,
                   "built-in metric sources");
    for (size_t i = 0; i < sizeof builtin / sizeof *builtin; i++) {
        const char *v = getenv(builtin[i].var);
        if (v && *v && (lw_builtin_set[i] = strdup(v)))
            lw_add_metric_source(builtin[i].name, 1, v);
    }
    lw_list_each(lw_cfg.metric_plugins, lw_named, &(lw_adder){lw_add_metric_plugin});
    lw_lay_out_metrics();
    for (uint32_t k = 0; k < lw_nmsources; k++)
        if (!lw_msources[k].read)
            lw_msources[k].read = lw_read_nothing;
    /* Listeners learn the SYNC metrics they will be given. */
    if (lw_cfg.tracing) {
        lw_add_listener("otf2", 1);
        lw_plugin *pl = lw_find_loaded("otf2");
        if (!pl || pl->listener_slot < 0)
            lw_cfg.tracing = false; /* said by lw_load */
    }
    lw_list_each(lw_cfg.listeners, lw_named, &(lw_adder){lw_add_listener});
    lw_choose_event_delivery();
}

/* ---- threads and regions (the core's hooks) ---------------------------- */

void lw_plugins_thread_begin(lw_thread *t)
{
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
}

void lw_plugins_thread_end(lw_thread *t)
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
    pthread_mutex_init(&lw_samples_lock, NULL);
    lw_nsamples = 0;
    lw_samples_frozen = 0;
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

static int lw_sample_cmp(const void *a, const void *b)
{
    const libwrap_sample *x = a, *y = b;
    return x->ticks < y->ticks ? -1 : x->ticks > y->ticks;
}

void lw_samples_freeze(void)
{
    pthread_mutex_lock(&lw_samples_lock);
    lw_samples_frozen = 1;
    if (lw_samples && lw_nsamples > 1)
        qsort(lw_samples, lw_nsamples, sizeof *lw_samples, lw_sample_cmp);
    pthread_mutex_unlock(&lw_samples_lock);
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

void lw_plugins_job_complete(const char *dir)
{
    for (uint32_t k = 0; k < lw_nlisteners; k++)
        if (lw_listeners[k]->job_complete) {
            lw_plugin_mark m = lw_plugin_in(LW_IN_LISTENER + (int)k, "job_complete");
            lw_listeners[k]->job_complete(dir);
            lw_plugin_out(m);
        }
}

/* ---- a plugin that crashes ----------------------------------------------- */

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

/* ---- results ------------------------------------------------------------ */

/* Per ASYNC metric: how many samples, their range and mean, and when. */
typedef struct lw_sample_stats {
    uint64_t count, min, max, first, last;
    long double sum;
} lw_sample_stats;

static void lw_sample_stats_of(size_t metric, lw_sample_stats *s)
{
    memset(s, 0, sizeof *s);
    s->min = UINT64_MAX;
    for (size_t i = 0; i < lw_nsamples; i++) {
        const libwrap_sample *x = &lw_samples[i];
        if (x->metric != metric)
            continue;
        if (!s->count)
            s->first = x->ticks;
        s->last = x->ticks;
        s->count++;
        s->sum += x->value;
        if (x->value < s->min)
            s->min = x->value;
        if (x->value > s->max)
            s->max = x->value;
    }
}

void lw_samples_json(struct lw_json *j)
{
    lw_json_array(j, "samples");
    for (size_t m = lw_nmetrics; m < lw_nmetrics_all; m++) {
        lw_sample_stats s;
        lw_sample_stats_of(m, &s);
        lw_json_object(j, NULL);
        lw_json_string(j, "metric", lw_metrics[m].info.name);
        lw_json_string(j, "unit", lw_metrics[m].info.unit);
        lw_json_string(j, "source", lw_metrics[m].source);
        lw_json_uint(j, "count", s.count);
        lw_json_uint(j, "min", s.count ? s.min : 0);
        lw_json_uint(j, "max", s.max);
        lw_json_double(j, "mean", s.count ? (double)(s.sum / s.count) : 0.0);
        lw_json_uint(j, "first_ns", s.count ? lw_host_ns(s.first) : 0);
        lw_json_uint(j, "last_ns", s.count ? lw_host_ns(s.last) : 0);
        lw_json_end(j);
    }
    lw_json_end(j);
}

void lw_samples_txt(FILE *f)
{
    if (lw_nmetrics == lw_nmetrics_all)
        return;
    fprintf(f, "\nasynchronous samples\n%12s %16s %16s %16s  %s\n", "samples", "min", "mean", "max",
            "metric");
    for (size_t m = lw_nmetrics; m < lw_nmetrics_all; m++) {
        lw_sample_stats s;
        lw_sample_stats_of(m, &s);
        fprintf(f, "%12llu %16llu %16.1f %16llu  %s [%s]\n", (unsigned long long)s.count,
                (unsigned long long)(s.count ? s.min : 0),
                s.count ? (double)(s.sum / s.count) : 0.0, (unsigned long long)s.max,
                lw_metrics[m].info.name, lw_metrics[m].info.unit);
    }
}

/* A metric source's line of config.txt: the metrics really measured (a
 * name the source refused is not: its warning said why), and, when that is
 * not what was set, the setting as a comment. */
static void lw_write_source(FILE *out, const char *var, const lw_plugin *pl, const char *requested)
{
    char list[1024] = "";
    size_t len = 0;
    for (uint32_t k = 0; pl && k < pl->ninfo && len < sizeof list; k++)
        if (pl->metric_slot >= 0)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", len ? "," : "",
                                    pl->info[k].name);
    fprintf(out, "%s=%s\n", var, len ? list : "none");
    /* Blanks around the commas of the setting make no difference. */
    char set[1024] = "";
    size_t slen = 0;
    for (const char *p = requested; p && *p && slen + 1 < sizeof set; p++)
        if (!isspace((unsigned char)*p))
            set[slen++] = *p;
    set[slen] = '\0';
    if (requested && strcmp(set, list) != 0)
        fprintf(out, "# %s as set: %s\n", var, requested);
}

/* The plugins of a list setting that are in use, in its order, once each:
 * one not found, refused, or whose init failed or measures nothing is not
 * (its warning said why). */
typedef struct lw_used_list {
    int listener;
    char list[1024];
    size_t len;
} lw_used_list;

static void lw_used_item(const char *name, size_t len, void *arg)
{
    lw_used_list *u = arg;
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%.*s", (int)len, name);
    const lw_plugin *pl = lw_find_loaded(buf);
    if (!pl || (u->listener ? pl->listener_slot : pl->metric_slot) < 0)
        return;
    for (const char *p = u->list; (p = strstr(p, buf)); p += strlen(buf))
        if ((p == u->list || p[-1] == ',') && (p[strlen(buf)] == ',' || !p[strlen(buf)]))
            return; /* named twice, used once */
    if (u->len < sizeof u->list)
        u->len += (size_t)snprintf(u->list + u->len, sizeof u->list - u->len, "%s%s",
                                   u->len ? "," : "", buf);
}

/* LIBWRAP_METRIC_PLUGINS or LIBWRAP_LISTENERS as used, and as set when
 * that differs. */
static void lw_write_used(FILE *out, const char *var, const char *set, int listener)
{
    lw_used_list u = {.listener = listener};
    lw_list_each(set, lw_used_item, &u);
    fprintf(out, "%s=%s\n", var, u.len ? u.list : "none");
    /* Blanks around the commas of the setting make no difference. */
    char flat[1024] = "";
    size_t n = 0;
    for (const char *p = set; p && *p && n + 1 < sizeof flat; p++)
        if (!isspace((unsigned char)*p))
            flat[n++] = *p;
    flat[n] = '\0';
    if (set && *set && strcmp(flat, u.list) != 0)
        fprintf(out, "# %s as set: %s\n", var, set);
}

void lw_plugins_config_write(FILE *out)
{
    static const size_t order[] = {0, 2, 1}; /* papi, rusage, perf: as config.txt always had */
    for (size_t i = 0; i < 3; i++) {
        char var[64];
        const char *name = lw_builtin_names[order[i]];
        lw_plugin_var("LIBWRAP_METRIC_", name, var, sizeof var);
        const lw_plugin *pl = lw_find_loaded(name);
        lw_write_source(out, var, pl && pl->builtin ? pl : NULL, lw_builtin_set[order[i]]);
    }
    lw_write_used(out, "LIBWRAP_METRIC_PLUGINS", lw_cfg.metric_plugins, 0);
    lw_write_used(out, "LIBWRAP_LISTENERS", lw_cfg.listeners, 1);
    fprintf(out, "LIBWRAP_PLUGIN_PATH=%s\n", lw_cfg.plugin_path ? lw_cfg.plugin_path : "none");
    /* The metric plugins' own settings, with what they really measure. */
    for (uint32_t i = 0; i < lw_nplugins; i++) {
        const lw_plugin *pl = &lw_plugins[i];
        char var[256];
        if (!pl->builtin && pl->p && pl->p->metric)
            lw_write_source(out, lw_plugin_var("LIBWRAP_METRIC_", pl->name, var, sizeof var), pl,
                            pl->request);
    }
}
