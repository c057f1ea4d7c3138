/*
 * plugin.c - the plugin host: finds and loads the run's metric sources and
 * event listeners (libwrap/plugin.h, docs/plugins.md), lays out the
 * metric table the core reads, and answers what plugins may call
 * (libwrap_host). Beside it: callbacks.c (threads, regions, the end),
 * samples.c (ASYNC samples), fault.c (a plugin that crashes), settings.c
 * (config.txt's lines, libwrap_host.setting).
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
#include "core/base/dl.h"
#include "jobs/jobs.h"
#include "plugins/plugin_util.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>



lw_plugin lw_plugins[LW_MAX_PLUGINS];
uint32_t lw_nplugins;
const libwrap_metric_source *lw_msource_tables[LW_MAX_PLUGINS];
static uint32_t lw_metrics_claimed; /* while loading */
/* The built-in metric sources, and their settings as set (NULL: unset). */
const char *const lw_builtin_names[LW_NBUILTIN] = {"papi", "perf", "rusage"};
char *lw_builtin_set[LW_NBUILTIN];
static libwrap_metric_info lw_sync_infos[LW_MAX_METRICS]; /* what listeners are told */

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

uint64_t lw_host_ns(uint64_t ticks)
{
    uint64_t t0 = lw_timer_start_ticks();
    return ticks > t0 ? lw_ticks_to_ns(ticks - t0) : 0;
}

const lw_plugin *lw_plugin_of(const libwrap_plugin *self)
{
    for (uint32_t i = 0; i < lw_nplugins; i++)
        if (lw_plugins[i].p == self)
            return &lw_plugins[i];
    return NULL;
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
    .sample = lw_samples_add,
    .setting = lw_host_setting,
    .thread_ignore = lw_host_thread_ignore,
    .directory_pending = lw_job_name_pending,
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
const char *lw_plugin_var(const char *prefix, const char *name, char *buf, size_t len)
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

lw_plugin *lw_find_loaded(const char *name)
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
 * metrics are measured (a record carries none); the others take `enter`
 * and `exit` per call. Without SYNC metrics those calls come from the
 * buffer too, as each record is stored: the buffer then holds one record,
 * and the trampoline's fast path delivers it (lw_events_deliver). Else the
 * buffer's size comes from the memory budget: 1/256 of it, 4 to 64 KiB
 * per thread. */
static void lw_choose_event_delivery(void)
{
    for (uint32_t k = 0; k < lw_nlisteners; k++) {
        if (!lw_listener_events[k] || lw_nmetrics)
            lw_listeners_percall |= 1u << k;
    }
    lw_events_buffered = lw_nlisteners && !lw_nmetrics;
    size_t bytes = lw_cfg.total_memory / 256;
    bytes = bytes < 4096 ? 4096 : bytes > 65536 ? 65536 : bytes;
    lw_events_per_buffer = lw_listeners_percall ? 1 : bytes / sizeof(libwrap_event);
    if (lw_events_buffered)
        lw_log(LW_LOG_PLUGIN, "events are buffered, %zu per thread%s", lw_events_per_buffer,
               lw_listeners_percall ? " (listeners take each call)" : "");
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

void lw_read_nothing(void *thread, uint64_t *values)
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

