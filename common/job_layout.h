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

#include <errno.h>
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

#endif /* LIBWRAP_JOB_LAYOUT_H */
