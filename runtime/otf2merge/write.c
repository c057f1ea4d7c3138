/*
 * write.c - an archive written: its anchor and global definitions, and
 * per location its event file (linked, never copied unless the file
 * system has no links) and its local definitions (mapping tables, clock
 * offsets).
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

#include "otf2merge/merge.h"
#include "otf2merge/otf2_merge.h"
#include "owner.h"

static void mg_check(OTF2_ErrorCode *acc, OTF2_ErrorCode rc)
{
    if (rc && !*acc)
        *acc = rc;
}

/* Links a file into the merged archive, or copies it where the file
 * system has no hard links between directories; an existing `dst` (a
 * merge made before) is replaced. Returns 1 placed, 0 absent (a thread
 * without events), -1 with errno. */
int mg_place(const char *src, const char *dst)
{
    if (access(src, F_OK) != 0)
        return 0;
    if (link(src, dst) == 0)
        return 1;
    if (errno == EEXIST && unlink(dst) == 0 && link(src, dst) == 0)
        return 1;
    if (errno != EPERM && errno != EXDEV && errno != ENOTSUP && errno != EMLINK && errno != ENOSYS)
        return -1;
    int in = open(src, O_RDONLY | O_CLOEXEC), out = -1, rc = -1;
    if (in >= 0)
        out = lw_owner_open(dst, O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (out >= 0) {
        char buf[1 << 16];
        ssize_t n;
        while ((n = read(in, buf, sizeof buf)) > 0)
            if (write(out, buf, (size_t)n) != n) {
                n = -1;
                break;
            }
        rc = n == 0 ? 1 : -1;
    }
    int err = errno;
    if (in >= 0)
        close(in);
    if (out >= 0 && close(out) != 0)
        rc = -1;
    errno = err;
    return rc;
}

/* Removes a merged archive (`dir`/traces.otf2, traces.def, traces/). */
void mg_remove_archive(const char *dir)
{
    char *p = NULL;
    if (asprintf(&p, "%s/traces", dir) >= 0) {
        DIR *d = opendir(p);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (e->d_name[0] == '.')
                continue;
            char *f = NULL;
            if (asprintf(&f, "%s/%s", p, e->d_name) >= 0)
                unlink(f);
            free(f);
        }
        if (d)
            closedir(d);
        rmdir(p);
        free(p);
    }
    static const char *const files[] = {"traces.otf2", "traces.def"};
    for (size_t i = 0; i < 2; i++) {
        p = NULL;
        if (asprintf(&p, "%s/%s", dir, files[i]) >= 0)
            unlink(p);
        free(p);
    }
}

static OTF2_FlushType mg_pre_flush(void *data, OTF2_FileType type, OTF2_LocationRef loc,
                                   void *caller, bool final)
{
    return OTF2_FLUSH;
}

static OTF2_TimeStamp mg_post_flush(void *data, OTF2_FileType type, OTF2_LocationRef loc)
{
    return 0;
}

static const OTF2_FlushCallbacks mg_flush = {mg_pre_flush, mg_post_flush};

/* ---- writing an archive -------------------------------------------------- */

/* Writes the archive `dir`/traces.otf2 and traces.def: the clock, the
 * union's strings and definitions, the hosts, and L's location groups and
 * locations; with `parts`, also each location's events (linked) and local
 * definitions (mapping tables, clock offsets) in `dir`/traces/. */
int mg_write(mg_ctx *c, const char *dir, const mg_union *u, const mg_layout *L, mg_part *parts,
             size_t np)
{
    OTF2_ErrorCode rc = OTF2_SUCCESS;
    int result = -1;
    /* Readers read the linked event files in the chunks they were written
     * in; the definitions are small: the smallest chunks (OTF2 clears
     * every chunk it allocates, per location). */
    OTF2_Archive *a = OTF2_Archive_Open(
        dir, "traces", OTF2_FILEMODE_WRITE, u->chunk ? u->chunk : OTF2_CHUNK_SIZE_MIN,
        OTF2_CHUNK_SIZE_MIN, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!a)
        return mg_fail(c, "cannot create %s/traces.otf2: %s", dir, c->otf2_error);
    if ((rc = OTF2_Archive_SetFlushCallbacks(a, &mg_flush, NULL)) ||
        (rc = OTF2_Archive_SetSerialCollectiveCallbacks(a)) ||
        (rc = OTF2_Archive_SetCreator(a, "libwrap")) || (rc = OTF2_Archive_OpenDefFiles(a))) {
        mg_fail(c, "cannot create %s/traces.otf2: %s", dir,
                c->otf2_error[0] ? c->otf2_error : OTF2_Error_GetDescription(rc));
        OTF2_Archive_Close(a);
        return -1;
    }
    OTF2_GlobalDefWriter *w = OTF2_Archive_GetGlobalDefWriter(a);
    if (!w) {
        mg_fail(c, "cannot write %s/traces.def: %s", dir, c->otf2_error);
        goto out;
    }

    /* One time base: ns since the Unix epoch on the job's clock, the
     * trace beginning at the earliest start of a part. */
    mg_check(&rc, OTF2_GlobalDefWriter_WriteClockProperties(w, 1000000000u, L->t0, L->t1 - L->t0,
                                                            L->t0));
    for (uint32_t i = 0; i < u->str.n; i++)
        mg_check(&rc, OTF2_GlobalDefWriter_WriteString(w, i, u->str.byid[i]));
    if (u->nnode) {
        uint32_t snode = UINT32_MAX;
        for (uint32_t i = 0; i < u->str.n && snode == UINT32_MAX; i++)
            if (strcmp(u->str.byid[i], "node") == 0)
                snode = i;
        for (size_t i = 0; i < u->nnode; i++)
            mg_check(&rc, OTF2_GlobalDefWriter_WriteSystemTreeNode(
                              w, (OTF2_SystemTreeNodeRef)i, u->node[i], snode,
                              OTF2_UNDEFINED_SYSTEM_TREE_NODE));
    }
    for (size_t i = 0; i < L->nlgroups; i++)
        mg_check(&rc,
                 OTF2_GlobalDefWriter_WriteLocationGroup(
                     w, (OTF2_LocationGroupRef)L->lgroups[i].id, L->lgroups[i].name,
                     OTF2_LOCATION_GROUP_TYPE_PROCESS, (OTF2_SystemTreeNodeRef)L->lgroups[i].node,
                     OTF2_UNDEFINED_LOCATION_GROUP));
    for (size_t i = 0; i < u->nreg; i++) {
        const mg_region *g = &u->reg[i];
        mg_check(&rc, OTF2_GlobalDefWriter_WriteRegion(w, (OTF2_RegionRef)i, g->name, g->canonical,
                                                       g->description, g->role, g->paradigm,
                                                       g->flags, g->file, g->begin, g->end));
    }
    for (size_t i = 0; i < u->nmem; i++) {
        const mg_member *g = &u->mem[i];
        mg_check(&rc, OTF2_GlobalDefWriter_WriteMetricMember(
                          w, (OTF2_MetricMemberRef)i, g->name, g->description, g->type, g->mode,
                          g->value_type, g->base, g->exponent, g->unit));
    }
    for (size_t i = 0; i < u->ncls; i++)
        mg_check(&rc, OTF2_GlobalDefWriter_WriteMetricClass(w, (OTF2_MetricRef)i, u->cls[i].n,
                                                            u->cls[i].members, u->cls[i].occurrence,
                                                            u->cls[i].kind));
    for (size_t i = 0; i < u->npar; i++)
        mg_check(&rc, OTF2_GlobalDefWriter_WriteParameter(w, (OTF2_ParameterRef)i, u->par[i].name,
                                                          u->par[i].type));
    for (size_t i = 0; i < L->nlocations; i++) {
        const mg_location *l = &L->locations[i];
        mg_check(&rc, OTF2_GlobalDefWriter_WriteLocation(w, l->id, l->name, l->type, l->events,
                                                         (OTF2_LocationGroupRef)l->group));
    }
    if (rc) {
        mg_fail(c, "cannot write %s/traces.def: %s", dir,
                c->otf2_error[0] ? c->otf2_error : OTF2_Error_GetDescription(rc));
        goto out;
    }

    /* Per location: its events, its mapping tables and clock offsets. */
    for (size_t i = 0; i < np; i++) {
        mg_part *p = &parts[i];
        for (size_t l = 0; l < p->nlocations; l++) {
            char *src = NULL, *dst = NULL;
            if (asprintf(&src, "%s/traces/%" PRIu64 ".evt", p->dir, p->locations[l].id) < 0 ||
                asprintf(&dst, "%s/traces/%" PRIu64 ".evt", dir, p->location_map[l]) < 0) {
                free(src);
                mg_fail(c, "out of memory");
                goto out;
            }
            int placed = mg_place(src, dst);
            if (placed < 0)
                mg_fail(c, "cannot link %s to %s: %s", src, dst, strerror(errno));
            free(src);
            free(dst);
            if (placed < 0)
                goto out;
            OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(a, p->location_map[l]);
            if (!dw) {
                mg_fail(c, "cannot write the definitions of location %" PRIu64 ": %s",
                        p->location_map[l], c->otf2_error);
                goto out;
            }
            struct {
                OTF2_MappingType type;
                size_t n;
                const uint64_t *map;
            } maps[] = {{OTF2_MAPPING_REGION, p->nregions, p->region_map},
                        {OTF2_MAPPING_METRIC, p->nclasses, p->class_map},
                        {OTF2_MAPPING_PARAMETER, p->nparams, p->param_map},
                        {OTF2_MAPPING_STRING, p->nstrings, p->string_map}};
            for (size_t k = 0; k < sizeof maps / sizeof *maps; k++) {
                if (!maps[k].n || !maps[k].map)
                    continue;
                OTF2_IdMap *m = OTF2_IdMap_CreateFromUint64Array(maps[k].n, maps[k].map, false);
                mg_check(&rc, m ? OTF2_DefWriter_WriteMappingTable(dw, maps[k].type, m)
                                : OTF2_ERROR_MEM_ALLOC_FAILED);
                OTF2_IdMap_Free(m);
            }
            /* global = local + offset, OTF2 interpolating between records:
             * exact at each point. */
            for (size_t k = 0; k < p->npoints; k++)
                mg_check(&rc, OTF2_DefWriter_WriteClockOffset(
                                  dw, p->ticks[k], (int64_t)(p->ns[k] - p->ticks[k]), 0.0));
            mg_check(&rc, OTF2_Archive_CloseDefWriter(a, dw));
            if (rc) {
                mg_fail(c, "cannot write %s/traces/%" PRIu64 ".def: %s", dir, p->location_map[l],
                        c->otf2_error[0] ? c->otf2_error : OTF2_Error_GetDescription(rc));
                goto out;
            }
        }
    }
    for (const char *const *kv = L->props; kv && kv[0]; kv += 2)
        if ((rc = OTF2_Archive_SetProperty(a, kv[0], kv[1], true))) {
            mg_fail(c, "cannot write %s/traces.otf2: %s", dir, OTF2_Error_GetDescription(rc));
            goto out;
        }
    result = 0;
out:
    if ((rc = OTF2_Archive_CloseDefFiles(a)) && result == 0)
        result = mg_fail(c, "cannot write %s/traces.def: %s", dir,
                         c->otf2_error[0] ? c->otf2_error : OTF2_Error_GetDescription(rc));
    if ((rc = OTF2_Archive_Close(a)) && result == 0)
        result = mg_fail(c, "cannot write %s/traces.otf2: %s", dir,
                         c->otf2_error[0] ? c->otf2_error : OTF2_Error_GetDescription(rc));
    return result;
}

/* The layout of an archive of the parts, which are in union u already:
 * their names among u's strings (L's arrays allocated). */
int mg_layout_parts(mg_ctx *c, mg_union *u, mg_part *parts, size_t np, mg_layout *L)
{
    size_t nloc = 0;
    for (size_t i = 0; i < np; i++)
        nloc += parts[i].nlocations;
    mg_lgroup *g = calloc(np ? np : 1, sizeof *g);
    mg_location *loc = calloc(nloc ? nloc : 1, sizeof *loc);
    L->lgroups = g;
    L->locations = loc;
    if (!g || !loc)
        return mg_fail(c, "out of memory");
    L->t0 = UINT64_MAX;
    L->t1 = 0;
    for (size_t i = 0; i < np; i++) {
        mg_part *p = &parts[i];
        if (mg_part_names(c, &u->str, p) < 0)
            return -1;
        /* Location groups are the archive's own: only its definitions name
         * them. */
        p->lgroup = i;
        g[L->nlgroups++] = (mg_lgroup){p->lgroup, p->lgroup_name, p->node};
        for (size_t l = 0; l < p->nlocations; l++)
            loc[L->nlocations++] =
                (mg_location){p->location_map[l], p->locations[l].events, p->lgroup,
                              p->location_name[l], p->locations[l].type};
        if (p->npoints) {
            uint64_t s = p->ns[0], e = mg_part_ns(p, p->offset + p->length);
            L->t0 = s < L->t0 ? s : L->t0;
            L->t1 = e > L->t1 ? e : L->t1;
        }
    }
    if (L->t0 == UINT64_MAX)
        L->t0 = L->t1 = 0;
    if (L->t1 < L->t0)
        L->t1 = L->t0;
    return 0;
}

void mg_layout_free(mg_layout *L)
{
    free((void *)L->lgroups);
    free((void *)L->locations);
}
