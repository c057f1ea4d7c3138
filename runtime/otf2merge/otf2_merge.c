/*
 * otf2_merge.c - the trace parts of a job's ranks become one OTF2 archive
 * (otf2_merge.h says how; docs/mpi.md says why this way): a job from its
 * parts (lw_trace_merge_job); in a job of groups, a group into its own
 * archive numbered as the job's (lw_trace_merge_group), then the job from
 * its group archives (lw_trace_merge_groups). merge.h lists the files.
 *
 * Cost: reading each part's global definitions (a few KB), linking its
 * event files (one link(2) each, no event is read or copied), writing one
 * local definition file per location and the global definitions. Memory:
 * the parts' definitions (regions, strings, locations), never events.
 * The parts stay as they are (their event files have two names), so a
 * merge can be redone: when a process of the job finishes after it, and
 * whenever libwrap-report finds the parts changed since.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <otf2/otf2.h>

#include "hash.h"
#include "job_layout.h"
#include "otf2merge/merge.h"
#include "otf2merge/otf2_merge.h"
#include "owner.h"

/* Takes `dir`/.merging (one merge of a directory at a time). */
static int mg_lock(mg_ctx *c, const char *dir, char **lock)
{
    if (asprintf(lock, "%s/.merging", dir) < 0) {
        *lock = NULL;
        return mg_fail(c, "out of memory");
    }
    int fd = open(*lock, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
        if (errno == EEXIST)
            mg_fail(c,
                    "%s exists: another merge is running, or one was interrupted (then remove it)",
                    *lock);
        else
            mg_fail(c, "cannot create %s: %s", *lock, strerror(errno));
        free(*lock);
        *lock = NULL;
        return -1;
    }
    close(fd);
    return 0;
}

static void mg_unlock(char *lock)
{
    if (lock)
        unlink(lock);
    free(lock);
}

typedef struct {
    mg_ctx c;
    mg_ctx *outer;
    OTF2_ErrorCallback previous;
} mg_scope;

static void mg_enter(mg_scope *s, char *err, size_t errlen)
{
    s->c = (mg_ctx){err, errlen, ""};
    err[0] = 0;
    s->outer = mg_current;
    mg_current = &s->c;
    s->previous = OTF2_Error_RegisterCallback(mg_otf2_error, NULL);
}

static void mg_leave(mg_scope *s)
{
    OTF2_Error_RegisterCallback(s->previous, NULL);
    mg_current = s->outer;
}

int lw_trace_merge_job(const char *dir, size_t *nparts, char *err, size_t errlen)
{
    mg_scope s;
    mg_enter(&s, err, errlen);
    mg_ctx *c = &s.c;
    mg_part *parts = NULL;
    size_t np = 0;
    int rc = -1;
    *nparts = 0;
    char *lock = NULL, *anchor = NULL;
    char digest[32], merged[32];
    if (asprintf(&anchor, "%s/traces.otf2", dir) < 0) {
        mg_fail(c, "out of memory");
        goto out;
    }
    if (mg_list_parts(c, dir, &parts, &np) < 0)
        goto out;
    if (np == 0) {
        rc = 1;
        goto out;
    }
    mg_digest(dir, parts, np, digest);
    if (mg_lock(c, dir, &lock) < 0)
        goto out;
    /* Merged from these very parts already; else a process finished after
     * the merge (a rank that ran several programs): merge again. What a
     * merge of groups left (the group archives' files, linked) goes. */
    if (access(anchor, F_OK) == 0) {
        mg_merged_digest(anchor, merged);
        if (strcmp(merged, digest) == 0) {
            *nparts = np;
            rc = 2;
            goto out;
        }
    }
    mg_remove_archive(dir);
    for (size_t i = 0; i < np; i++)
        if (mg_read_part(c, &parts[i]) < 0)
            goto out;
    mg_union u = {0};
    mg_layout L = {0};
    char count[32];
    snprintf(count, sizeof count, "%zu", np);
    const char *props[] = {LW_PROP_PARTS, count, LW_PROP_PARTS_DIGEST, digest, NULL};
    L.props = props;
    size_t added = 0;
    while (added < np && mg_union_add(c, &u, &parts[added]) == 0)
        added++;
    if (added == np && mg_layout_parts(c, &u, parts, np, &L) == 0 &&
        mg_write(c, dir, &u, &L, parts, np) == 0) {
        *nparts = np;
        rc = 0;
    } else {
        mg_remove_archive(dir);
    }
    mg_layout_free(&L);
    mg_union_free(&u);
out:
    mg_unlock(lock);
    mg_parts_free(parts, np);
    free(anchor);
    mg_leave(&s);
    return rc;
}

/* The locations of group archive `gdir`, if it has one, unlinked from the
 * job's directory, and the archive removed (a group merged again, or
 * whose merge failed). */
static void mg_unlink_group(const char *dir, const char *gdir)
{
    char anchor[LW_JOB_PATH_MAX];
    snprintf(anchor, sizeof anchor, "%s/traces.otf2", gdir);
    if (access(anchor, F_OK) != 0)
        return;
    /* Its reading's errors are its own: the archive goes either way. */
    char e[256];
    mg_scope s;
    mg_enter(&s, e, sizeof e);
    mg_part old = {0};
    if ((old.dir = strdup(gdir)) && mg_read_part(&s.c, &old) == 0)
        for (size_t l = 0; l < old.nlocations; l++)
            for (int k = 0; k < 2; k++) {
                char *f = NULL;
                if (asprintf(&f, "%s/traces/%" PRIu64 ".%s", dir, old.locations[l].id,
                             k ? "def" : "evt") >= 0)
                    unlink(f);
                free(f);
            }
    mg_part_free(&old);
    mg_leave(&s);
    mg_remove_archive(gdir);
}

int lw_trace_merge_group(const char *dir, long g, size_t *nparts, char *err, size_t errlen)
{
    mg_scope s;
    mg_enter(&s, err, errlen);
    mg_ctx *c = &s.c;
    mg_part *parts = NULL;
    size_t np = 0;
    int rc = -1, fd = -1;
    *nparts = 0;
    char *gdir = NULL, *upath = NULL, *jtraces = NULL, *lock = NULL;
    mg_union u = {0};
    mg_layout L = {0};
    if (asprintf(&gdir, "%s/" LW_JOB_GROUPS "/" LW_JOB_GROUP_FMT, dir, g) < 0 ||
        asprintf(&upath, "%s/" LW_TRACE_UNION, dir) < 0 ||
        asprintf(&jtraces, "%s/traces", dir) < 0) {
        mg_fail(c, "out of memory");
        goto out;
    }
    if (mg_list_group(c, dir, g, &parts, &np) < 0)
        goto out;
    if (np == 0) {
        rc = 1;
        goto out;
    }
    for (size_t i = 0; i < np; i++)
        if (mg_read_part(c, &parts[i]) < 0)
            goto out;
    if (mg_lock(c, gdir, &lock) < 0)
        goto out;
    /* The job's numbers for what the group's events name, and for its
     * locations: the union, one group at a time. */
    if ((fd = mg_union_load(c, upath, &u)) < 0)
        goto out;
    for (size_t i = 0; i < np; i++)
        if (mg_union_add(c, &u, &parts[i]) < 0)
            goto out;
    if (mg_union_write(c, fd, upath, &u) < 0)
        goto out;
    close(fd);
    fd = -1;
    uint32_t shared = u.str.n; /* the job's strings; the names below are the group's */

    char digest[32], count[32], nstr[32];
    mg_digest_plain(parts, np, digest);
    snprintf(count, sizeof count, "%zu", np);
    snprintf(nstr, sizeof nstr, "%" PRIu32, shared);
    const char *props[] = {
        LW_PROP_PARTS, count, LW_PROP_PARTS_DIGEST, digest, LW_PROP_UNION_STRINGS, nstr, NULL};
    L.props = props;
    if (mg_layout_parts(c, &u, parts, np, &L) < 0)
        goto out;
    mg_unlink_group(dir, gdir);
    if (mg_write(c, gdir, &u, &L, parts, np) < 0) {
        mg_remove_archive(gdir);
        goto out;
    }
    /* The group's files are the job's: one more name each. */
    if (lw_owner_mkdir(jtraces) < 0 && errno != EEXIST) {
        mg_fail(c, "cannot create %s: %s", jtraces, strerror(errno));
        goto out;
    }
    for (size_t i = 0; i < L.nlocations; i++)
        for (int k = 0; k < 2; k++) {
            char src[LW_JOB_PATH_MAX], dst[LW_JOB_PATH_MAX];
            const char *ext = k ? "def" : "evt";
            snprintf(src, sizeof src, "%s/traces/%" PRIu64 ".%s", gdir, L.locations[i].id, ext);
            snprintf(dst, sizeof dst, "%s/%" PRIu64 ".%s", jtraces, L.locations[i].id, ext);
            if (mg_place(src, dst) < 0) {
                mg_fail(c, "cannot link %s to %s: %s", src, dst, strerror(errno));
                goto out;
            }
        }
    *nparts = np;
    rc = 0;
out:
    if (fd >= 0)
        close(fd);
    /* The group's archive of an earlier merge lacks what has come since:
     * it goes, so that the job's step merges from the parts. */
    if (rc < 0 && np > 0)
        mg_unlink_group(dir, gdir);
    mg_unlock(lock);
    mg_layout_free(&L);
    mg_union_free(&u);
    mg_parts_free(parts, np);
    free(gdir);
    free(upath);
    free(jtraces);
    mg_leave(&s);
    return rc;
}

/* The group archives of the job in `dir`, by group; 1 when a group has
 * trace parts but no archive (its merge failed: the job merges from the
 * parts). */
static int mg_list_groups(mg_ctx *c, const char *dir, mg_part **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    char path[LW_JOB_PATH_MAX];
    snprintf(path, sizeof path, "%s/" LW_JOB_GROUPS, dir);
    DIR *d = opendir(path);
    if (!d)
        return mg_fail(c, "cannot read the directory %s: %s", path, strerror(errno));
    struct dirent *e;
    int rc = 0;
    mg_part *groups = NULL;
    size_t ng = 0;
    while (rc == 0 && (e = readdir(d))) {
        if (!lw_job_group_name(e->d_name))
            continue;
        long g = strtol(e->d_name, NULL, 10);
        snprintf(path, sizeof path, "%s/" LW_JOB_GROUPS "/%s/traces.otf2", dir, e->d_name);
        if (access(path, F_OK) != 0) {
            /* No archive: fine when the group traced nothing. */
            mg_part *gp = NULL;
            size_t gn = 0;
            rc = mg_list_group(c, dir, g, &gp, &gn) < 0 ? -1 : gn ? 1 : 0;
            mg_parts_free(gp, gn);
            continue;
        }
        mg_part *q = realloc(groups, (ng + 1) * sizeof *q);
        if (!q) {
            rc = mg_fail(c, "out of memory");
            break;
        }
        groups = q;
        memset(&groups[ng], 0, sizeof *groups);
        groups[ng].rank = g;
        if (asprintf(&groups[ng].dir, "%s/" LW_JOB_GROUPS "/%s", dir, e->d_name) < 0) {
            rc = mg_fail(c, "out of memory");
            break;
        }
        ng++;
    }
    closedir(d);
    if (ng)
        qsort(groups, ng, sizeof *groups, mg_part_cmp);
    *out = groups;
    *n = ng;
    return rc;
}

int lw_trace_merge_groups(const char *dir, size_t *nparts, char *err, size_t errlen)
{
    mg_scope s;
    mg_enter(&s, err, errlen);
    mg_ctx *c = &s.c;
    mg_part *groups = NULL;
    size_t ng = 0;
    int rc = -1, fd = -1;
    *nparts = 0;
    char *upath = NULL, *tmp = NULL, *lock = NULL;
    mg_union u = {0};
    mg_layout L = {0};
    mg_lgroup *lg = NULL;
    mg_location *loc = NULL;
    if (asprintf(&upath, "%s/" LW_TRACE_UNION, dir) < 0 ||
        asprintf(&tmp, "%s/.traces-merging", dir) < 0) {
        mg_fail(c, "out of memory");
        goto out;
    }
    if (access(upath, F_OK) != 0) {
        rc = 1;
        goto out;
    }
    int listed = mg_list_groups(c, dir, &groups, &ng);
    if (listed != 0 || ng == 0) {
        rc = listed < 0 ? -1 : 1;
        goto out;
    }
    if (mg_lock(c, dir, &lock) < 0)
        goto out;
    if ((fd = mg_union_load(c, upath, &u)) < 0)
        goto out;
    close(fd);
    fd = -1;
    /* Each group archive's location groups and locations; their names
     * (the group's own strings, from its union_strings on) join the job's
     * strings. */
    size_t nlg = 0, nloc = 0, parts = 0;
    uint64_t h = LW_FNV_OFFSET;
    L.t0 = UINT64_MAX;
    for (size_t i = 0; i < ng; i++) {
        mg_part *q = &groups[i];
        if (mg_read_part(c, q) < 0)
            goto out;
        if (!q->digest || q->union_strings > u.str.n || (q->chunk != u.chunk)) {
            mg_fail(c, "%s/traces.otf2 is not a group archive of this job's merge", q->dir);
            goto out;
        }
        mg_lgroup *g2 = realloc(lg, (nlg + q->nlgroups + 1) * sizeof *g2);
        mg_location *l2 = g2 ? realloc(loc, (nloc + q->nlocations + 1) * sizeof *l2) : NULL;
        if (g2)
            lg = g2;
        if (!l2) {
            mg_fail(c, "out of memory");
            goto out;
        }
        loc = l2;
        size_t base = nlg;
        for (size_t k = 0; k < q->nlgroups; k++) {
            mg_lgroup x = q->lgroups[k];
            if (x.name >= q->union_strings)
                x.name = mg_string(&u.str, mg_str(q, x.name));
            x.id = nlg;
            lg[nlg++] = x;
        }
        for (size_t k = 0; k < q->nlocations; k++) {
            mg_location x = q->locations[k];
            if (x.name >= q->union_strings)
                x.name = mg_string(&u.str, mg_str(q, x.name));
            /* The group archive's location groups (numbered 0, 1, ... in
             * order: mg_layout_parts), numbered on. */
            if (x.group >= q->nlgroups || q->lgroups[x.group].id != x.group) {
                mg_fail(c, "%s/traces.otf2: location %" PRIu64 " names no location group of it",
                        q->dir, x.id);
                goto out;
            }
            x.group += base;
            loc[nloc++] = x;
        }
        if (u.str.oom) {
            mg_fail(c, "out of memory");
            goto out;
        }
        if (q->resolution) {
            L.t0 = q->offset < L.t0 ? q->offset : L.t0;
            L.t1 = q->offset + q->length > L.t1 ? q->offset + q->length : L.t1;
        }
        parts += q->nparts;
        h = mg_digest_group(h, q->rank, q->digest);
    }
    if (L.t0 == UINT64_MAX)
        L.t0 = L.t1 = 0;
    char digest[32], count[32];
    snprintf(digest, sizeof digest, "%016" PRIx64, h);
    snprintf(count, sizeof count, "%zu", parts);
    const char *props[] = {LW_PROP_PARTS, count, LW_PROP_PARTS_DIGEST, digest, NULL};
    L.props = props;
    L.lgroups = lg;
    L.nlgroups = nlg;
    L.locations = loc;
    L.nlocations = nloc;
    /* The job's anchor and global definitions, written aside and moved
     * in (the definitions first: a reader opens the anchor). */
    mg_remove_archive(tmp);
    rmdir(tmp);
    if (lw_owner_mkdir(tmp) < 0) {
        mg_fail(c, "cannot create %s: %s", tmp, strerror(errno));
        goto out;
    }
    int written = mg_write(c, tmp, &u, &L, NULL, 0);
    char from[LW_JOB_PATH_MAX], to[LW_JOB_PATH_MAX];
    for (int k = 0; written == 0 && k < 2; k++) {
        const char *name = k ? "traces.otf2" : "traces.def";
        snprintf(from, sizeof from, "%s/%s", tmp, name);
        snprintf(to, sizeof to, "%s/%s", dir, name);
        if (rename(from, to) < 0)
            written = mg_fail(c, "cannot rename %s to %s: %s", from, to, strerror(errno));
    }
    mg_remove_archive(tmp);
    rmdir(tmp);
    if (written < 0)
        goto out;
    *nparts = parts;
    rc = 0;
out:
    if (fd >= 0)
        close(fd);
    mg_unlock(lock);
    L.lgroups = NULL;
    L.locations = NULL;
    free(lg);
    free(loc);
    mg_union_free(&u);
    mg_parts_free(groups, ng);
    free(upath);
    free(tmp);
    mg_leave(&s);
    return rc;
}
