/*
 * outfile.c - result files composed in memory and written with write(2)
 * (core/base/base.h: lw_out).
 */
#include "core/base/base.h"
#include "owner.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The stream's writes, into a buffer that doubles as it fills. Where it
 * cannot grow, the write fails and the stream is in error (glibc's
 * open_memstream said nothing then: a large profile.json under a memory
 * limit was written cut short, silently). */
static ssize_t lw_out_put(void *cookie, const char *data, size_t n)
{
    lw_out *o = cookie;
    /* A child that another thread forked while the file was composed
     * flushes every open stream at its exit, this one too: its copy is
     * not written, and nothing is allocated there (an allocator's lock,
     * ASan's, may be held by a thread the fork did not copy). */
    if (o->failed || getpid() != o->pid)
        return 0;
    if (n > o->cap - o->len) {
        size_t cap = o->cap ? o->cap : 65536;
        while (cap - o->len < n && cap <= SIZE_MAX / 2)
            cap *= 2;
        char *b = cap - o->len >= n ? realloc(o->buf, cap) : NULL;
        if (!b) {
            o->failed = 1;
            return 0;
        }
        o->buf = b;
        o->cap = cap;
    }
    memcpy(o->buf + o->len, data, n);
    o->len += n;
    return (ssize_t)n;
}

FILE *lw_out_open(lw_out *o)
{
    o->buf = NULL;
    o->len = o->cap = 0;
    o->failed = 0;
    o->pid = getpid();
    o->f = fopencookie(o, "w", (cookie_io_functions_t){.write = lw_out_put});
    /* One thread writes it: no lock taken at each character. */
    if (o->f)
        __fsetlocking(o->f, FSETLOCKING_BYCALLER);
    return o->f;
}

int lw_out_write_fd(lw_out *o, int fd)
{
    int rc = fclose(o->f) == 0 && !o->failed && fd >= 0 ? 0 : -1;
    if (o->failed)
        errno = ENOMEM;
    size_t done = 0;
    while (rc == 0 && done < o->len) {
        ssize_t n = write(fd, o->buf + done, o->len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            rc = -1;
        else
            done += (size_t)n;
    }
    if (fd >= 0 && close(fd) != 0)
        rc = -1;
    int saved = errno;
    free(o->buf);
    errno = saved;
    return rc;
}

int lw_out_write(lw_out *o, const char *path)
{
    /* Composed whole, or the file is not touched. */
    char *tmp = NULL;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (fflush(o->f) != 0 || o->failed ||
        asprintf(&tmp, "%.*s.%s.%ld", (int)(base - path), path, base, (long)getpid()) < 0) {
        errno = ENOMEM;
        return lw_out_write_fd(o, -1);
    }
    /* Written under a hidden name of its own, then renamed into place: a
     * write that fails (a full disk, a quota, a file-size limit) leaves
     * no file cut short, and no empty one. */
    int rc = lw_out_write_fd(o, lw_owner_open(tmp, O_WRONLY | O_TRUNC | O_CLOEXEC));
    if (rc == 0 && rename(tmp, path) != 0)
        rc = -1;
    if (rc != 0) {
        int err = errno;
        (void)unlink(tmp);
        errno = err;
    }
    free(tmp);
    return rc;
}

/* The directory itself first, its parents only when missing: every rank of
 * a large job creates its part in directories that exist, one metadata
 * operation each. */
int lw_mkdir_p(char *path)
{
    if (lw_owner_mkdir(path) == 0 || errno == EEXIST)
        return 0;
    if (errno != ENOENT)
        return -1;
    char *slash = strrchr(path, '/');
    if (!slash || slash == path)
        return -1;
    *slash = 0;
    int r = lw_mkdir_p(path);
    *slash = '/';
    if (r < 0)
        return -1;
    return lw_owner_mkdir(path) < 0 && errno != EEXIST ? -1 : 0;
}
