/*
 * settings.c - the plugins' settings: config.txt's lines of the metric
 * sources and listeners, and libwrap_host.setting.
 */
#include "plugins/host/host.h"
#include "jobs/jobs.h"
#include "plugins/plugin_util.h"

#include <ctype.h>
#include <limits.h>
#include <string.h>

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
    if (!strcmp(name, "LIBWRAP_TRACE_MERGE"))
        return lw_cfg.trace_merge ? "true" : "false";
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
