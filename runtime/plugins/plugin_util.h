/*
 * plugin_util.h - what the built-in plugins (otf2_writer.c, metrics_papi.c,
 * metrics_perf.c, metrics_rusage.c) and the plugin loader share. Header
 * only: each plugin is a shared object of its own, which sees the runtime
 * through libwrap/plugin.h alone.
 */
#ifndef LIBWRAP_RUNTIME_PLUGIN_UTIL_H
#define LIBWRAP_RUNTIME_PLUGIN_UTIL_H

#include <stddef.h>
#include <string.h>

#include "libwrap/plugin.h"

/* Calls fn(name, len, arg) for each non-empty, blank-trimmed item of the
 * comma list `list` (names are not NUL-terminated). */
static inline void lw_list_each(const char *list, void (*fn)(const char *name, size_t len, void *arg),
                                void *arg)
{
    const char *p = list;
    while (p && *p) {
        const char *end = strchr(p, ',');
        const char *b = p, *e = end ? end : p + strlen(p);
        while (b < e && (*b == ' ' || *b == '\t'))
            b++;
        while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        if (e > b)
            fn(b, (size_t)(e - b), arg);
        p = end ? end + 1 : NULL;
    }
}

#endif /* LIBWRAP_RUNTIME_PLUGIN_UTIL_H */
