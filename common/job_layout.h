/*
 * job_layout.h - where the processes of a job keep their parts
 * (docs/mpi.md, "What a job leaves" and "Large jobs"): the one description
 * of the layout for the runtime that writes it (runtime/jobs), the trace
 * merge (runtime/otf2merge) and libwrap-report that read it.
 *
 *   DIR/rank-N/            rank N's part
 *   DIR/rank-N.K/          the K-th later process of rank N (exec, a second
 *                          program run one after the other)
 *   DIR/ranks/G/rank-N/    the same in a job of more ranks than a group
 *                          (LIBWRAP_JOB_GROUP_SIZE): G = N / group size,
 *                          in three digits or more
 */
#ifndef LIBWRAP_JOB_LAYOUT_H
#define LIBWRAP_JOB_LAYOUT_H

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The folder of a large job's groups, and the printf format of a group. */
#define LW_JOB_GROUPS "ranks"
#define LW_JOB_GROUP_FMT "%03ld"

/* 1 when `name` is a part's directory name, "rank-N" or "rank-N.K", with
 * its rank and image (K, 0 for "rank-N"). */
static inline int lw_job_part_name(const char *name, long long *rank, long long *image)
{
    char *end;
    if (strncmp(name, "rank-", 5) != 0 || name[5] < '0' || name[5] > '9')
        return 0;
    errno = 0;
    *rank = strtoll(name + 5, &end, 10);
    *image = 0;
    if (errno)
        return 0;
    if (*end == '.') {
        if (end[1] < '0' || end[1] > '9')
            return 0;
        *image = strtoll(end + 1, &end, 10);
    }
    return *end == 0;
}

/* 1 when `name` is a group's directory name under LW_JOB_GROUPS. */
static inline int lw_job_group_name(const char *name)
{
    if (!*name)
        return 0;
    for (; *name; name++)
        if (*name < '0' || *name > '9')
            return 0;
    return 1;
}

/* fn's part: its path from the job's directory ("rank-3",
 * "ranks/000/rank-3"), rank and image; a negative result stops the walk. */
typedef int (*lw_job_part_fn)(void *ctx, const char *rel, long long rank, long long image);
#define LW_JOB_PATH_MAX 4096

typedef struct {
    lw_job_part_fn fn;
    void *ctx;
    int unreadable;                  /* directories that could not be read */
    char first[LW_JOB_PATH_MAX];     /* the first of them */
    int err;                         /* and its errno */
} lw_job_walk;

/* The parts in dir/sub (sub "" or "ranks/G/"). */
static inline int lw_job_parts_below(lw_job_walk *w, const char *dir, const char *sub)
{
    char path[LW_JOB_PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, sub);
    DIR *d = opendir(path);
    if (!d) {
        if (!w->unreadable++) {
            w->err = errno;
            snprintf(w->first, sizeof w->first, "%s", path);
        }
        return 0;
    }
    struct dirent *e;
    int rc = 0;
    while (rc >= 0 && (e = readdir(d))) {
        long long rank, image;
        if (!lw_job_part_name(e->d_name, &rank, &image))
            continue;
        snprintf(path, sizeof path, "%s%s", sub, e->d_name);
        rc = w->fn(w->ctx, path, rank, image);
    }
    closedir(d);
    return rc < 0 ? rc : 0;
}

/* Calls w->fn for every part of the job in `dir`, in directory order:
 * those at its top, then those of each group. Returns fn's first negative
 * result, which stops the walk, or 0; a directory that cannot be read is
 * counted in w->unreadable (the first in w->first and w->err), and the
 * others are walked. */
static inline int lw_job_parts(lw_job_walk *w, const char *dir)
{
    w->unreadable = 0;
    int rc = lw_job_parts_below(w, dir, "");
    char path[LW_JOB_PATH_MAX];
    snprintf(path, sizeof path, "%s/" LW_JOB_GROUPS, dir);
    DIR *d = rc == 0 ? opendir(path) : NULL;
    struct dirent *e;
    while (d && rc == 0 && (e = readdir(d))) {
        if (!lw_job_group_name(e->d_name))
            continue;
        char sub[300];
        snprintf(sub, sizeof sub, LW_JOB_GROUPS "/%s/", e->d_name);
        rc = lw_job_parts_below(w, dir, sub);
    }
    if (d)
        closedir(d);
    return rc;
}

#endif /* LIBWRAP_JOB_LAYOUT_H */
