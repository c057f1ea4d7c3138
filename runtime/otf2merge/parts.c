/*
 * parts.c - a job's trace parts: their definitions read (a few KB each,
 * never an event), where they lie in the job directory (job_layout.h),
 * and the digest that says which parts an archive was made from.
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

#include "hash.h"
#include "job_layout.h"

#include "otf2merge/merge.h"
#include "otf2merge/otf2_merge.h"

__thread mg_ctx *mg_current; /* for OTF2's error callback */

int mg_fail(mg_ctx *c, const char *fmt, ...)
{
    if (c->err[0])
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, c->errlen, fmt, ap);
    va_end(ap);
    return -1;
}

OTF2_ErrorCode mg_otf2_error(void *data, const char *file, uint64_t line, const char *func,
                             OTF2_ErrorCode code, const char *fmt, va_list va)
{
    /* Keep the innermost message; OTF2 reports each level it passes. */
    if (mg_current && !mg_current->otf2_error[0]) {
        char msg[200];
        vsnprintf(msg, sizeof msg, fmt ? fmt : "", va);
        snprintf(mg_current->otf2_error, sizeof mg_current->otf2_error, "%s: %s",
                 OTF2_Error_GetDescription(code), msg);
    }
    return code;
}

static void *mg_grow(void *p, size_t *n, size_t need, size_t elem)
{
    if (need <= *n)
        return p;
    size_t cap = *n ? *n : 8;
    while (cap < need)
        cap *= 2;
    char *r = realloc(p, cap * elem);
    if (!r)
        return NULL;
    memset(r + *n * elem, 0, (cap - *n) * elem);
    *n = cap;
    return r;
}

/* Appends one element to an array of n; -1 without memory. */
int mg_append(void **arr, size_t n, size_t elem, const void *v)
{
    if ((n & (n - 1)) == 0) { /* at 0, 1, 2, 4, ...: room for twice as many */
        void *g = realloc(*arr, (n ? 2 * n : 1) * elem);
        if (!g)
            return -1;
        *arr = g;
    }
    memcpy((char *)*arr + n * elem, v, elem);
    return 0;
}

/* ---- reading a part -------------------------------------------------------- */

static int mg_oom; /* a reading callback ran out of memory (one merge at a time) */

#define MG_GROW(arr, count, index)                                                                 \
    do {                                                                                           \
        size_t cap_ = (count);                                                                     \
        void *g_ = mg_grow((arr), &cap_, (size_t)(index) + 1, sizeof *(arr));                      \
        if (!g_) {                                                                                 \
            mg_oom = 1;                                                                            \
            return OTF2_CALLBACK_INTERRUPT;                                                        \
        }                                                                                          \
        (arr) = g_;                                                                                \
        (count) = cap_;                                                                            \
    } while (0)

static OTF2_CallbackCode rd_string(void *ud, OTF2_StringRef self, const char *s)
{
    mg_part *p = ud;
    MG_GROW(p->strings, p->nstrings, self);
    free(p->strings[self]);
    if (!(p->strings[self] = strdup(s))) {
        mg_oom = 1;
        return OTF2_CALLBACK_INTERRUPT;
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rd_region(void *ud, OTF2_RegionRef self, OTF2_StringRef name,
                                   OTF2_StringRef canonical, OTF2_StringRef description,
                                   OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                   OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t begin,
                                   uint32_t end)
{
    mg_part *p = ud;
    MG_GROW(p->regions, p->nregions, self);
    p->regions[self] =
        (mg_region){name, canonical, description, file, begin, end, role, paradigm, flags, 1};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rd_location(void *ud, OTF2_LocationRef self, OTF2_StringRef name,
                                     OTF2_LocationType type, uint64_t events,
                                     OTF2_LocationGroupRef group)
{
    mg_part *p = ud;
    mg_location l = {self, events, group, name, type};
    if (mg_append((void **)&p->locations, p->nlocations, sizeof l, &l) < 0) {
        mg_oom = 1;
        return OTF2_CALLBACK_INTERRUPT;
    }
    p->nlocations++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rd_lgroup(void *ud, OTF2_LocationGroupRef self, OTF2_StringRef name,
                                   OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef node,
                                   OTF2_LocationGroupRef creator)
{
    mg_part *p = ud;
    mg_lgroup g = {self, name, node};
    if (mg_append((void **)&p->lgroups, p->nlgroups, sizeof g, &g) < 0) {
        mg_oom = 1;
        return OTF2_CALLBACK_INTERRUPT;
    }
    p->nlgroups++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rd_clock(void *ud, uint64_t resolution, uint64_t offset, uint64_t length,
                                  uint64_t realtime)
{
    mg_part *p = ud;
    p->resolution = resolution;
    p->offset = offset;
    p->length = length;
    p->realtime = realtime;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rd_member(void *ud, OTF2_MetricMemberRef self, OTF2_StringRef name,
                                   OTF2_StringRef description, OTF2_MetricType type,
                                   OTF2_MetricMode mode, OTF2_Type value_type, OTF2_Base base,
                                   int64_t exponent, OTF2_StringRef unit)
{
    mg_part *p = ud;
    MG_GROW(p->members, p->nmembers, self);
    p->members[self] =
        (mg_member){name, description, unit, type, mode, value_type, base, exponent, 1};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rd_class(void *ud, OTF2_MetricRef self, uint8_t n,
                                  const OTF2_MetricMemberRef *members,
                                  OTF2_MetricOccurrence occurrence, OTF2_RecorderKind kind)
{
    mg_part *p = ud;
    MG_GROW(p->classes, p->nclasses, self);
    mg_class *c = &p->classes[self];
    free(c->members);
    c->members = malloc((n ? n : 1) * sizeof *c->members);
    if (!c->members) {
        mg_oom = 1;
        return OTF2_CALLBACK_INTERRUPT;
    }
    memcpy(c->members, members, n * sizeof *c->members);
    c->n = n;
    c->occurrence = occurrence;
    c->kind = kind;
    c->defined = 1;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rd_parameter(void *ud, OTF2_ParameterRef self, OTF2_StringRef name,
                                      OTF2_ParameterType type)
{
    mg_part *p = ud;
    MG_GROW(p->params, p->nparams, self);
    p->params[self] = (mg_param){name, type, 1};
    return OTF2_CALLBACK_SUCCESS;
}

const char *mg_str(const mg_part *p, uint32_t ref)
{
    return ref < p->nstrings && p->strings[ref] ? p->strings[ref] : "";
}

/* "TICKS:NS TICKS:NS ..." of LW_PROP_TIME. */
static void mg_parse_points(mg_part *p, const char *v)
{
    p->npoints = 0;
    while (v && *v && p->npoints < 8) {
        unsigned long long t, ns;
        int used = 0;
        if (sscanf(v, " %llu:%llu%n", &t, &ns, &used) != 2)
            break;
        p->ticks[p->npoints] = t;
        p->ns[p->npoints++] = ns;
        v += used;
    }
}

int mg_read_part(mg_ctx *c, mg_part *p)
{
    char *anchor = NULL;
    if (asprintf(&anchor, "%s/traces.otf2", p->dir) < 0)
        return mg_fail(c, "out of memory");
    OTF2_Reader *rd = OTF2_Reader_Open(anchor);
    int rc = -1;
    if (!rd) {
        mg_fail(c, "%s: not an OTF2 archive", anchor);
        goto out;
    }
    if (OTF2_Reader_SetSerialCollectiveCallbacks(rd) != OTF2_SUCCESS) {
        mg_fail(c, "%s: cannot read (%s)", anchor, c->otf2_error);
        goto close;
    }
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(rd);
    if (!gdr) {
        mg_fail(c, "%s: cannot open its definitions (traces.def): %s", anchor, c->otf2_error);
        goto close;
    }
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    if (!cb) {
        mg_fail(c, "out of memory");
        goto close;
    }
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, rd_string);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, rd_region);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, rd_location);
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, rd_lgroup);
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, rd_clock);
    OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(cb, rd_member);
    OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(cb, rd_class);
    OTF2_GlobalDefReaderCallbacks_SetParameterCallback(cb, rd_parameter);
    OTF2_Reader_RegisterGlobalDefCallbacks(rd, gdr, cb, p);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    uint64_t n = 0;
    mg_oom = 0;
    OTF2_ErrorCode e = OTF2_Reader_ReadAllGlobalDefinitions(rd, gdr, &n);
    if (mg_oom) {
        mg_fail(c, "out of memory reading %s", anchor);
        goto close;
    }
    if (e != OTF2_SUCCESS) {
        mg_fail(c, "%s: cannot read its definitions: %s", anchor,
                c->otf2_error[0] ? c->otf2_error : OTF2_Error_GetDescription(e));
        goto close;
    }
    OTF2_Reader_CloseGlobalDefReader(rd, gdr);
    uint64_t def_chunk = 0;
    if (OTF2_Reader_GetChunkSize(rd, &p->chunk, &def_chunk) != OTF2_SUCCESS) {
        mg_fail(c, "%s: cannot read its chunk size", anchor);
        goto close;
    }
    char *v = NULL;
    if (OTF2_Reader_GetProperty(rd, LW_PROP_HOST, &v) == OTF2_SUCCESS && v)
        p->host = v;
    else
        p->host = strdup("");
    v = NULL;
    if (OTF2_Reader_GetProperty(rd, LW_PROP_TIME, &v) == OTF2_SUCCESS && v) {
        mg_parse_points(p, v);
        free(v);
    }
    /* A group archive's (lw_trace_merge_group). */
    v = NULL;
    if (OTF2_Reader_GetProperty(rd, LW_PROP_UNION_STRINGS, &v) == OTF2_SUCCESS && v)
        p->union_strings = (uint32_t)strtoul(v, NULL, 10);
    free(v);
    v = NULL;
    if (OTF2_Reader_GetProperty(rd, LW_PROP_PARTS, &v) == OTF2_SUCCESS && v)
        p->nparts = strtoull(v, NULL, 10);
    free(v);
    v = NULL;
    if (OTF2_Reader_GetProperty(rd, LW_PROP_PARTS_DIGEST, &v) == OTF2_SUCCESS && v)
        p->digest = v;
    else
        free(v);
    /* No points (not written by a rank): the clock properties, realtime at
     * the start and the tick rate. */
    if (p->npoints < 1 && p->resolution) {
        p->ticks[0] = p->offset;
        p->ns[0] = p->realtime;
        p->ticks[1] = p->offset + p->length;
        p->ns[1] = p->realtime + (uint64_t)((double)p->length * 1e9 / (double)p->resolution + 0.5);
        p->npoints = 2;
    }
    rc = 0;
close:
    OTF2_Reader_Close(rd);
out:
    free(anchor);
    return rc;
}

void mg_part_free(mg_part *p)
{
    for (size_t i = 0; i < p->nstrings; i++)
        free(p->strings[i]);
    free(p->strings);
    for (size_t i = 0; i < p->nclasses; i++)
        free(p->classes[i].members);
    free(p->classes);
    free(p->regions);
    free(p->locations);
    free(p->members);
    free(p->region_map);
    free(p->class_map);
    free(p->location_map);
    free(p->params);
    free(p->param_map);
    free(p->string_map);
    free(p->host);
    free(p->dir);
    free(p->lgroups);
    free(p->location_name);
    free(p->digest);
}

/* ---- the parts of a job directory ---------------------------------------- */

int mg_part_cmp(const void *a, const void *b)
{
    const mg_part *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return (x->image > y->image) - (x->image < y->image);
}

typedef struct {
    mg_ctx *c;
    const char *dir;
    mg_part *parts;
    size_t n;
} mg_list;

/* A part that holds a trace joins the list. */
static int mg_add_part(void *ctx, const char *rel, long long rank, long long image)
{
    mg_list *l = ctx;
    char *pdir = NULL, *anchor = NULL;
    if (asprintf(&pdir, "%s/%s", l->dir, rel) < 0 ||
        asprintf(&anchor, "%s/traces.otf2", pdir) < 0) {
        free(pdir);
        return mg_fail(l->c, "out of memory");
    }
    int has = access(anchor, F_OK) == 0;
    free(anchor);
    mg_part *g = has ? realloc(l->parts, (l->n + 1) * sizeof *g) : NULL;
    if (!g) {
        free(pdir);
        return has ? mg_fail(l->c, "out of memory") : 0;
    }
    l->parts = g;
    memset(&g[l->n], 0, sizeof *g);
    g[l->n].dir = pdir;
    g[l->n].rank = (long)rank;
    g[l->n].image = (long)image;
    l->n++;
    return 0;
}

/* The parts of the job in `dir` that hold a trace (job_layout.h), by
 * rank and image. */
int mg_list_parts(mg_ctx *c, const char *dir, mg_part **out, size_t *n)
{
    mg_list l = {c, dir, NULL, 0};
    lw_job_walk w = {.fn = mg_add_part, .ctx = &l};
    int rc = lw_job_parts(&w, dir);
    if (rc == 0 && w.unreadable)
        rc = mg_fail(c, "cannot read the directory %s: %s", w.first, strerror(w.err));
    if (l.n)
        qsort(l.parts, l.n, sizeof *l.parts, mg_part_cmp);
    *out = l.parts;
    *n = l.n;
    return rc < 0 ? -1 : 0;
}

/* The parts of group `g` of the job in `dir` that hold a trace. */
int mg_list_group(mg_ctx *c, const char *dir, long g, mg_part **out, size_t *n)
{
    mg_list l = {c, dir, NULL, 0};
    lw_job_walk w = {.fn = mg_add_part, .ctx = &l};
    char sub[64];
    snprintf(sub, sizeof sub, LW_JOB_GROUPS "/" LW_JOB_GROUP_FMT "/", g);
    int rc = lw_job_parts_below(&w, dir, sub);
    if (rc == 0 && w.unreadable)
        rc = mg_fail(c, "cannot read the directory %s: %s", w.first, strerror(w.err));
    if (l.n)
        qsort(l.parts, l.n, sizeof *l.parts, mg_part_cmp);
    *out = l.parts;
    *n = l.n;
    return rc < 0 ? -1 : 0;
}

/* A part's tick in ns since the Unix epoch, on the job's clock: linear
 * between the part's points, extended beyond them with the nearest
 * segment. */
uint64_t mg_part_ns(const mg_part *p, uint64_t t)
{
    if (p->npoints == 0)
        return 0;
    if (p->npoints == 1)
        return p->ns[0] + (t - p->ticks[0]);
    size_t k = 0;
    while (k + 2 < p->npoints && t > p->ticks[k + 1])
        k++;
    double slope = p->ticks[k + 1] != p->ticks[k]
                       ? ((double)p->ns[k + 1] - (double)p->ns[k]) /
                             ((double)p->ticks[k + 1] - (double)p->ticks[k])
                       : 1.0;
    double d = slope * ((double)t - (double)p->ticks[k]);
    return p->ns[k] + (uint64_t)(int64_t)(d < 0 ? d - 0.5 : d + 0.5);
}

/* ---- which parts an archive holds ------------------------------------------ */

/* A digest of the parts' names and sizes: equal digests, same parts. In a
 * job of groups, the digest of the groups' digests (in order), so that the
 * job's can be made from its group archives without reading every part. */
void mg_digest_plain(const mg_part *parts, size_t np, char out[32])
{
    uint64_t h = LW_FNV_OFFSET;
    for (size_t i = 0; i < np; i++) {
        char buf[4200];
        struct stat st;
        snprintf(buf, sizeof buf, "%s/traces.def", parts[i].dir);
        long long size = stat(buf, &st) == 0 ? (long long)st.st_size : -1;
        const char *base = strrchr(parts[i].dir, '/');
        snprintf(buf, sizeof buf, "%s:%lld;", base ? base + 1 : parts[i].dir, size);
        h = lw_fnv1a_add(h, buf);
    }
    snprintf(out, 32, "%016" PRIx64, h);
}

/* The group a part lies in ("ranks/000"), or -1 at the job's top. */
static long mg_part_group(const char *dir, const mg_part *p)
{
    size_t n = strlen(dir);
    const char *rel = p->dir + n + 1;
    if (strncmp(rel, LW_JOB_GROUPS "/", sizeof LW_JOB_GROUPS) != 0)
        return -1;
    return strtol(rel + sizeof LW_JOB_GROUPS, NULL, 10);
}

/* Adds group g's digest to the job's. */
uint64_t mg_digest_group(uint64_t h, long g, const char *digest)
{
    char buf[64];
    snprintf(buf, sizeof buf, LW_JOB_GROUP_FMT ":%s;", g, digest);
    return lw_fnv1a_add(h, buf);
}

void mg_digest(const char *dir, const mg_part *parts, size_t np, char out[32])
{
    if (np == 0 || mg_part_group(dir, &parts[0]) < 0) {
        mg_digest_plain(parts, np, out);
        return;
    }
    uint64_t h = LW_FNV_OFFSET;
    for (size_t i = 0; i < np;) {
        long g = mg_part_group(dir, &parts[i]);
        size_t j = i;
        while (j < np && mg_part_group(dir, &parts[j]) == g)
            j++;
        char d[32];
        mg_digest_plain(parts + i, j - i, d);
        h = mg_digest_group(h, g, d);
        i = j;
    }
    snprintf(out, 32, "%016" PRIx64, h);
}

/* The digest the merged archive `anchor` was made from; "" if none. */
void mg_merged_digest(const char *anchor, char out[32])
{
    out[0] = 0;
    OTF2_Reader *r = OTF2_Reader_Open(anchor);
    char *v = NULL;
    if (r && OTF2_Reader_GetProperty(r, LW_PROP_PARTS_DIGEST, &v) == OTF2_SUCCESS && v)
        snprintf(out, 32, "%s", v);
    free(v);
    if (r)
        OTF2_Reader_Close(r);
}

void mg_parts_free(mg_part *parts, size_t np)
{
    for (size_t i = 0; i < np; i++)
        mg_part_free(&parts[i]);
    free(parts);
}
