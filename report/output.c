/*
 * output.c - the files the report writes (flame graph, timeline, HTML):
 * written to a temporary file in the same folder and renamed into place
 * once complete, so that a failure (bad input found late, a full disk)
 * never truncates or removes the file that was there.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"

int lwr_out_open(lwr_out *o, const char *path)
{
    memset(o, 0, sizeof *o);
    o->path = lwr_xstrdup(path);
    struct stat st;
    /* A device or a pipe (/dev/stdout, a FIFO) is written as it is: there
     * is no file to keep, and no folder to write beside it in. */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) {
            fprintf(stderr, "%s: %s: cannot create: %s\n", LWR_PROG, path, strerror(EISDIR));
            goto fail;
        }
        o->f = fopen(path, "w");
        if (!o->f) {
            fprintf(stderr, "%s: %s: cannot create: %m\n", LWR_PROG, path);
            goto fail;
        }
        return 0;
    }
    /* A link is followed: the file it names is replaced, not the link. */
    char *real = NULL;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        real = realpath(path, NULL);
    o->target = real ? real : lwr_xstrdup(path);
    char *copy = lwr_xstrdup(o->target);
    const char *base = strrchr(o->target, '/') ? strrchr(o->target, '/') + 1 : o->target;
    const char *dir = dirname(copy);
    if (asprintf(&o->tmp, "%s/.%s.tmp.XXXXXX", dir, base) < 0) {
        perror(LWR_PROG);
        exit(1);
    }
    free(copy);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        fprintf(stderr, "%s: %s: cannot create: %m\n", LWR_PROG, path);
        goto fail;
    }
    /* mkstemp's 0600 would outlive the rename: the mode of a new file. */
    mode_t mask = umask(0);
    umask(mask);
    (void)!fchmod(fd, 0666 & ~mask); /* not fatal: the file is the user's either way */
    o->f = fdopen(fd, "w");
    if (!o->f) {
        fprintf(stderr, "%s: %s: cannot create: %m\n", LWR_PROG, path);
        close(fd);
        unlink(o->tmp);
        goto fail;
    }
    return 0;
fail:
    free(o->path);
    free(o->target);
    free(o->tmp);
    memset(o, 0, sizeof *o);
    return -1;
}

void lwr_out_abort(lwr_out *o)
{
    if (o->f)
        fclose(o->f);
    if (o->tmp)
        unlink(o->tmp);
    free(o->path);
    free(o->target);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

int lwr_out_commit(lwr_out *o)
{
    int rc = 0;
    if (!o->f)
        return -1;
    int bad = ferror(o->f);
    if (fclose(o->f) != 0) {
        fprintf(stderr, "%s: %s: write failed: %m\n", LWR_PROG, o->path);
        rc = -1;
    } else if (bad) {
        fprintf(stderr, "%s: %s: write failed (disk full?)\n", LWR_PROG, o->path);
        rc = -1;
    } else if (o->tmp && rename(o->tmp, o->target) != 0) {
        fprintf(stderr, "%s: %s: cannot create: %m\n", LWR_PROG, o->path);
        rc = -1;
    }
    o->f = NULL;
    if (rc && o->tmp)
        unlink(o->tmp);
    free(o->path);
    free(o->target);
    free(o->tmp);
    memset(o, 0, sizeof *o);
    return rc;
}
