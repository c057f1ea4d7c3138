/*
 * plugin_util.h - what the built-in plugins (otf2_writer.c, metrics_papi.c,
 * metrics_perf.c, metrics_rusage.c) and the plugin loader share. Header
 * only: each plugin is a shared object of its own, which sees the runtime
 * through libwrap/plugin.h alone.
 */
#ifndef LIBWRAP_RUNTIME_PLUGIN_UTIL_H
#define LIBWRAP_RUNTIME_PLUGIN_UTIL_H

#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

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

/*
 * A descriptor a plugin keeps open while the program runs (the trace's
 * temporary file, a thread's perf counters) is the program's to close: a
 * daemon closes every descriptor above 2 (closefrom, close_range) and
 * opens its own files, which then get the lowest numbers. So the plugin's
 * are moved high (half the descriptor limit, at most 4096), where the
 * program's next files do not land, and its identity is kept: before a
 * write, a read back or a close the plugin checks that the number is still
 * its file (lw_fd_same); where it is not, the plugin stops using it and
 * never closes it.
 */
typedef struct lw_fd_id {
    dev_t dev;
    ino_t ino;
} lw_fd_id;

/* `fd` moved to a high number (close-on-exec), its identity in *id; `fd`
 * itself where it cannot be moved. -1 stays -1. */
static inline int lw_fd_keep(int fd, lw_fd_id *id)
{
    if (fd < 0)
        return fd;
    struct rlimit rl;
    long base = 0;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur >= 64)
        base = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur / 2 > 4096 ? 4096 : (long)(rl.rlim_cur / 2);
    if (base > fd) {
        int high = fcntl(fd, F_DUPFD_CLOEXEC, (int)base);
        if (high >= 0) {
            close(fd);
            fd = high;
        }
    }
    struct stat st;
    if (id) {
        memset(id, 0, sizeof *id);
        if (fstat(fd, &st) == 0) {
            id->dev = st.st_dev;
            id->ino = st.st_ino;
        }
    }
    return fd;
}

/* Whether `fd` is still the file lw_fd_keep saw. */
static inline int lw_fd_same(int fd, const lw_fd_id *id)
{
    struct stat st;
    return fd >= 0 && fstat(fd, &st) == 0 && st.st_dev == id->dev && st.st_ino == id->ino;
}

#endif /* LIBWRAP_RUNTIME_PLUGIN_UTIL_H */
