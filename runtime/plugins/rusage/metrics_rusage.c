/*
 * metrics_rusage.c - the built-in metric source "rusage"
 * (LIBWRAP_METRIC_RUSAGE): fields of getrusage(RUSAGE_THREAD), a plugin of
 * its own (libwrap/plugin.h).
 *
 * One getrusage system call per read serves all fields (about a microsecond).
 * Only the fields that Linux fills for a thread are offered; ru_maxrss is
 * the process's peak resident set, converted from KiB to bytes, and a level
 * (LIBWRAP_METRIC_ABSOLUTE): a call is charged the peak seen by its end.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RUSAGE_THREAD */
#endif
#include <string.h>
#include <sys/resource.h>

#include "plugins/plugin_util.h"

static const libwrap_host *lw_host;
static const libwrap_plugin lw_plugin;
#define lw_metrics_warn(...) lw_host->warn(&lw_plugin, __VA_ARGS__)

typedef enum {
    LW_RU_UTIME, LW_RU_STIME, LW_RU_MAXRSS, LW_RU_MINFLT, LW_RU_MAJFLT,
    LW_RU_INBLOCK, LW_RU_OUBLOCK, LW_RU_NVCSW, LW_RU_NIVCSW, LW_RU_NFIELDS
} lw_ru_field;

static const struct {
    const char *name;
    const char *unit;
} lw_ru_fields[LW_RU_NFIELDS] = {
    [LW_RU_UTIME] = {"ru_utime", "ns"},     [LW_RU_STIME] = {"ru_stime", "ns"},
    [LW_RU_MAXRSS] = {"ru_maxrss", "bytes"}, [LW_RU_MINFLT] = {"ru_minflt", "#"},
    [LW_RU_MAJFLT] = {"ru_majflt", "#"},     [LW_RU_INBLOCK] = {"ru_inblock", "#"},
    [LW_RU_OUBLOCK] = {"ru_oublock", "#"},   [LW_RU_NVCSW] = {"ru_nvcsw", "#"},
    [LW_RU_NIVCSW] = {"ru_nivcsw", "#"},
};

static lw_ru_field lw_ru_chosen[LIBWRAP_MAX_METRICS];
static size_t lw_ru_n;

typedef struct {
    libwrap_metric_info *defs;
    size_t room;
} lw_ru_parse;

static void lw_ru_add(lw_ru_parse *p, lw_ru_field f)
{
    for (size_t i = 0; i < lw_ru_n; i++)
        if (lw_ru_chosen[i] == f)
            return; /* named twice */
    if (lw_ru_n == p->room) {
        lw_metrics_warn("too many metrics (at most %d in all); "
                        "continuing without '%s'", LIBWRAP_MAX_METRICS, lw_ru_fields[f].name);
        return;
    }
    p->defs[lw_ru_n] = (libwrap_metric_info){
        lw_ru_fields[f].name, lw_ru_fields[f].unit, NULL,
        f == LW_RU_MAXRSS ? LIBWRAP_METRIC_ABSOLUTE : LIBWRAP_METRIC_ACCUMULATED, LIBWRAP_METRIC_SYNC};
    lw_ru_chosen[lw_ru_n++] = f;
}

static void lw_ru_name(const char *name, size_t len, void *arg)
{
    lw_ru_parse *p = arg;

    if (len == 3 && memcmp(name, "all", 3) == 0) {
        for (int f = 0; f < LW_RU_NFIELDS; f++)
            lw_ru_add(p, (lw_ru_field)f);
        return;
    }
    for (int f = 0; f < LW_RU_NFIELDS; f++)
        if (strlen(lw_ru_fields[f].name) == len && memcmp(lw_ru_fields[f].name, name, len) == 0) {
            lw_ru_add(p, (lw_ru_field)f);
            return;
        }
    lw_metrics_warn("unknown field '%.*s' (accepted: all, ru_utime, "
                    "ru_stime, ru_maxrss, ru_minflt, ru_majflt, ru_inblock, ru_oublock, "
                    "ru_nvcsw, ru_nivcsw); continuing without it", (int)len, name);
}

static int lw_ru_init(const libwrap_host *host, const char *list, libwrap_metric_info *defs,
                      uint32_t room)
{
    lw_ru_parse p = {defs, room};

    lw_host = host;
    lw_ru_n = 0;
    lw_list_each(list, lw_ru_name, &p);
    return (int)lw_ru_n;
}

static uint64_t lw_tv_ns(struct timeval tv)
{
    return (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u;
}

static void lw_ru_read(void *thread, uint64_t *out)
{
    (void)thread;
    struct rusage ru;

    if (getrusage(RUSAGE_THREAD, &ru) != 0)
        memset(&ru, 0, sizeof ru); /* cannot fail with valid arguments */
    for (size_t i = 0; i < lw_ru_n; i++) {
        uint64_t v = 0;
        switch (lw_ru_chosen[i]) {
        case LW_RU_UTIME: v = lw_tv_ns(ru.ru_utime); break;
        case LW_RU_STIME: v = lw_tv_ns(ru.ru_stime); break;
        case LW_RU_MAXRSS: v = (uint64_t)ru.ru_maxrss * 1024u; break;
        case LW_RU_MINFLT: v = (uint64_t)ru.ru_minflt; break;
        case LW_RU_MAJFLT: v = (uint64_t)ru.ru_majflt; break;
        case LW_RU_INBLOCK: v = (uint64_t)ru.ru_inblock; break;
        case LW_RU_OUBLOCK: v = (uint64_t)ru.ru_oublock; break;
        case LW_RU_NVCSW: v = (uint64_t)ru.ru_nvcsw; break;
        case LW_RU_NIVCSW: v = (uint64_t)ru.ru_nivcsw; break;
        case LW_RU_NFIELDS: break;
        }
        out[i] = v;
    }
}

static const libwrap_metric_source lw_ru_source = {
    .init = lw_ru_init,
    .read = lw_ru_read,
};

static const libwrap_plugin lw_plugin = {LIBWRAP_PLUGIN_ABI_VERSION, LIBWRAP_PLUGIN_METRIC, "rusage",
                                         &lw_ru_source, NULL};
LIBWRAP_PLUGIN_DEFINE(lw_plugin)
