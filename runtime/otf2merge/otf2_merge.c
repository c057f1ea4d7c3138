/*
 * otf2_merge.c - the trace parts of a job's ranks become one OTF2 archive
 * (otf2_merge.h says how; docs/mpi.md says why this way).
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
#include "otf2merge/otf2_merge.h"

typedef struct {
    uint32_t name, canonical, description, file, begin, end;
    OTF2_RegionRole role;
    OTF2_Paradigm paradigm;
    OTF2_RegionFlag flags;
} mg_region;

typedef struct {
    uint32_t name, description, unit;
    OTF2_MetricType type;
    OTF2_MetricMode mode;
    OTF2_Type value_type;
    OTF2_Base base;
    int64_t exponent;
} mg_member;

typedef struct {
    uint32_t *members;
    uint8_t n;
    OTF2_MetricOccurrence occurrence;
    OTF2_RecorderKind kind;
    int defined;
} mg_class;

typedef struct {
    uint64_t id, events;
} mg_location;

/* A parameter of recorded arguments (docs/arguments.md). */
typedef struct {
    uint32_t name;
    OTF2_ParameterType type;
    int defined;
} mg_param;

typedef struct {
    char *dir;  /* the part's directory */
    long rank;  /* from the directory name rank-N[.K] */
    long image; /* K: the images of one process that exec'd, 0 first */
    char *host;
    char **strings;
    size_t nstrings;
    mg_region *regions;
    size_t nregions;
    mg_location *locations;
    size_t nlocations;
    mg_member *members;
    size_t nmembers;
    mg_class *classes;
    size_t nclasses;
    mg_param *params;
    size_t nparams;
    uint64_t resolution, offset, length, realtime;
    uint64_t chunk; /* event chunk size: the merged archive reads its files with it */
    size_t npoints;
    uint64_t ticks[8], ns[8];
    uint64_t *region_map, *class_map, *location_map;
    /* Parameter events name a parameter and, for a string value, a string
     * of the part: both are mapped to the merged definitions. */
    uint64_t *param_map, *string_map;
} mg_part;

typedef struct {
    char *err;
    size_t errlen;
    char otf2_error[256];
} mg_ctx;

static __thread mg_ctx *mg_current; /* for OTF2's error callback */

static int mg_fail(mg_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int mg_fail(mg_ctx *c, const char *fmt, ...)
{
    if (c->err[0])
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, c->errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static OTF2_ErrorCode mg_otf2_error(void *data, const char *file, uint64_t line, const char *func,
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
        (mg_region){name, canonical, description, file, begin, end, role, paradigm, flags};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode rd_location(void *ud, OTF2_LocationRef self, OTF2_StringRef name,
                                     OTF2_LocationType type, uint64_t events,
                                     OTF2_LocationGroupRef group)
{
    mg_part *p = ud;
    size_t n = p->nlocations;
    mg_location *l = realloc(p->locations, (n + 1) * sizeof *l);
    if (!l) {
        mg_oom = 1;
        return OTF2_CALLBACK_INTERRUPT;
    }
    l[n] = (mg_location){self, events};
    p->locations = l;
    p->nlocations = n + 1;
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
    p->members[self] = (mg_member){name, description, unit, type, mode, value_type, base, exponent};
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

static const char *mg_str(const mg_part *p, uint32_t ref)
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

static int mg_read_part(mg_ctx *c, mg_part *p)
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

static void mg_part_free(mg_part *p)
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
}

/* ---- the parts of a job directory ---------------------------------------- */

static int mg_part_cmp(const void *a, const void *b)
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
    if (asprintf(&pdir, "%s/%s", l->dir, rel) < 0 || asprintf(&anchor, "%s/traces.otf2", pdir) < 0) {
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
static int mg_list_parts(mg_ctx *c, const char *dir, mg_part **out, size_t *n)
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

/* ---- the merged definitions ---------------------------------------------- */

/* Global strings, each written once. */
typedef struct {
    OTF2_GlobalDefWriter *w;
    char **keys;
    uint32_t *vals;
    size_t mask, used;
    uint32_t next;
    OTF2_ErrorCode rc;
} mg_strings;

static int mg_strings_grow(mg_strings *t)
{
    size_t cap = t->mask ? 2 * (t->mask + 1) : 256;
    char **keys = calloc(cap, sizeof *keys);
    uint32_t *vals = calloc(cap, sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return -1;
    }
    for (size_t i = 0; t->keys && i <= t->mask; i++)
        if (t->keys[i]) {
            size_t j = lw_fnv1a(t->keys[i]) & (cap - 1);
            while (keys[j])
                j = (j + 1) & (cap - 1);
            keys[j] = t->keys[i];
            vals[j] = t->vals[i];
        }
    free(t->keys);
    free(t->vals);
    t->keys = keys;
    t->vals = vals;
    t->mask = cap - 1;
    return 0;
}

static uint32_t mg_string(mg_strings *t, const char *s)
{
    s = s ? s : "";
    if (4 * (t->used + 1) > 3 * (t->mask + 1) && mg_strings_grow(t) < 0) {
        if (!t->rc)
            t->rc = OTF2_ERROR_MEM_ALLOC_FAILED;
        return 0;
    }
    size_t i = lw_fnv1a(s) & t->mask;
    for (; t->keys[i]; i = (i + 1) & t->mask)
        if (strcmp(t->keys[i], s) == 0)
            return t->vals[i];
    if (!(t->keys[i] = strdup(s))) {
        if (!t->rc)
            t->rc = OTF2_ERROR_MEM_ALLOC_FAILED;
        return 0;
    }
    t->vals[i] = t->next;
    t->used++;
    OTF2_ErrorCode rc = OTF2_GlobalDefWriter_WriteString(t->w, t->next, s);
    if (rc && !t->rc)
        t->rc = rc;
    return t->next++;
}

static void mg_strings_free(mg_strings *t)
{
    for (size_t i = 0; t->keys && i <= t->mask; i++)
        free(t->keys[i]);
    free(t->keys);
    free(t->vals);
}

static void mg_check(OTF2_ErrorCode *acc, OTF2_ErrorCode rc)
{
    if (rc && !*acc)
        *acc = rc;
}

/* The global time of a part's tick, in ns since `epoch`: linear between
 * the part's points, extended beyond them with the nearest segment. */
static double mg_global_ns(const mg_part *p, uint64_t t, uint64_t epoch)
{
    if (p->npoints == 0)
        return 0;
    if (p->npoints == 1)
        return (double)p->ns[0] - (double)epoch + ((double)t - (double)p->ticks[0]);
    size_t k = 0;
    while (k + 2 < p->npoints && t > p->ticks[k + 1])
        k++;
    double slope = p->ticks[k + 1] != p->ticks[k]
                       ? ((double)p->ns[k + 1] - (double)p->ns[k]) /
                             ((double)p->ticks[k + 1] - (double)p->ticks[k])
                       : 1.0;
    return ((double)p->ns[k] - (double)epoch) + slope * ((double)t - (double)p->ticks[k]);
}

/* Links a part's event file into the merged archive, or copies it where
 * the file system has no hard links between directories. Returns 1 placed,
 * 0 absent (a thread without events), -1 with errno. */
static int mg_place(const char *src, const char *dst)
{
    if (access(src, F_OK) != 0)
        return 0;
    if (link(src, dst) == 0)
        return 1;
    if (errno != EPERM && errno != EXDEV && errno != ENOTSUP && errno != EMLINK && errno != ENOSYS)
        return -1;
    int in = open(src, O_RDONLY | O_CLOEXEC), out = -1, rc = -1;
    if (in >= 0)
        out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
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

/* Removes what a failed merge left of the merged archive. */
static void mg_remove_archive(const char *dir)
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

typedef struct {
    char *key; /* a region's: its symbol, the function's identity (profile_format.h) */
    uint64_t id;
} mg_key;

static int mg_key_cmp(const void *a, const void *b)
{
    return strcmp(((const mg_key *)a)->key, ((const mg_key *)b)->key);
}

/* Looks `key` up in the sorted table, or appends it (the table is sorted
 * again by the caller before the next lookup; lookups in the unsorted tail
 * are linear, which is fine for the few new keys a part brings). */
static int64_t mg_lookup(mg_key *t, size_t sorted, size_t n, const char *key)
{
    mg_key probe = {(char *)key, 0};
    mg_key *hit = sorted ? bsearch(&probe, t, sorted, sizeof *t, mg_key_cmp) : NULL;
    if (hit)
        return (int64_t)hit->id;
    for (size_t i = sorted; i < n; i++)
        if (strcmp(t[i].key, key) == 0)
            return (int64_t)t[i].id;
    return -1;
}

static int mg_write(mg_ctx *c, const char *dir, mg_part *parts, size_t np, const char *digest)
{
    OTF2_ErrorCode rc = OTF2_SUCCESS;
    int result = -1;
    mg_key *regions = NULL, *members = NULL, *classes = NULL, *hosts = NULL, *params = NULL;
    size_t nreg = 0, nmem = 0, ncls = 0, nhost = 0, npar = 0;
    mg_strings strs = {0};

    /* Readers read the linked event files in the chunks they were written
     * in; the definitions are small: the smallest chunks (OTF2 clears
     * every chunk it allocates, per location). */
    for (size_t i = 1; i < np; i++)
        if (parts[i].chunk != parts[0].chunk)
            return mg_fail(c,
                           "%s and %s were written with different LIBWRAP_TOTAL_MEMORY (event "
                           "chunks of %" PRIu64 " and %" PRIu64
                           " bytes): their events cannot be in one archive",
                           parts[0].dir, parts[i].dir, parts[0].chunk, parts[i].chunk);
    OTF2_Archive *a =
        OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, parts[0].chunk, OTF2_CHUNK_SIZE_MIN,
                          OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
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
    strs.w = w;

    /* One time base: ns since the earliest start of a part. */
    uint64_t epoch = UINT64_MAX;
    double span = 0;
    for (size_t i = 0; i < np; i++)
        if (parts[i].npoints && parts[i].ns[0] < epoch)
            epoch = parts[i].ns[0];
    if (epoch == UINT64_MAX)
        epoch = 0;
    for (size_t i = 0; i < np; i++)
        if (parts[i].npoints) {
            double end = mg_global_ns(&parts[i], parts[i].offset + parts[i].length, epoch);
            if (end > span)
                span = end;
        }
    mg_check(&rc, OTF2_GlobalDefWriter_WriteClockProperties(w, 1000000000u, 0,
                                                            (uint64_t)(span + 0.5), epoch));

    /* Hosts: a system tree node each. */
    uint32_t snode = mg_string(&strs, "node");
    uint64_t *part_host = calloc(np ? np : 1, sizeof *part_host);
    if (!part_host) {
        mg_fail(c, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < np; i++) {
        const char *h = *parts[i].host ? parts[i].host : "localhost";
        int64_t id = mg_lookup(hosts, 0, nhost, h);
        if (id < 0) {
            mg_key *g = realloc(hosts, (nhost + 1) * sizeof *g);
            char *copy = g ? strdup(h) : NULL;
            if (g)
                hosts = g;
            if (!copy) {
                mg_fail(c, "out of memory");
                free(part_host);
                goto out;
            }
            hosts[nhost] = (mg_key){copy, nhost};
            id = (int64_t)nhost++;
            mg_check(&rc, OTF2_GlobalDefWriter_WriteSystemTreeNode(
                              w, (OTF2_SystemTreeNodeRef)id, mg_string(&strs, h), snode,
                              OTF2_UNDEFINED_SYSTEM_TREE_NODE));
        }
        part_host[i] = (uint64_t)id;
    }

    /* Regions, metrics and locations of every part, mapped to global ids. */
    uint64_t next_location = 0;
    for (size_t i = 0; i < np && !rc; i++) {
        mg_part *p = &parts[i];
        char name[128];
        if (p->image)
            snprintf(name, sizeof name, "rank %ld (exec %ld)", p->rank, p->image);
        else
            snprintf(name, sizeof name, "rank %ld", p->rank);
        mg_check(&rc, OTF2_GlobalDefWriter_WriteLocationGroup(
                          w, (OTF2_LocationGroupRef)i, mg_string(&strs, name),
                          OTF2_LOCATION_GROUP_TYPE_PROCESS, (OTF2_SystemTreeNodeRef)part_host[i],
                          OTF2_UNDEFINED_LOCATION_GROUP));
        p->region_map = calloc(p->nregions ? p->nregions : 1, sizeof *p->region_map);
        p->class_map = calloc(p->nclasses ? p->nclasses : 1, sizeof *p->class_map);
        p->location_map = calloc(p->nlocations ? p->nlocations : 1, sizeof *p->location_map);
        if (!p->region_map || !p->class_map || !p->location_map) {
            mg_fail(c, "out of memory");
            free(part_host);
            goto out;
        }
        size_t sorted = nreg;
        for (size_t r = 0; r < p->nregions; r++) {
            const mg_region *g = &p->regions[r];
            char *key = NULL;
            const char *ident = *mg_str(p, g->canonical) ? mg_str(p, g->canonical) : mg_str(p, g->name);
            if (asprintf(&key, "%s", ident) < 0) {
                mg_fail(c, "out of memory");
                free(part_host);
                goto out;
            }
            int64_t id = mg_lookup(regions, sorted, nreg, key);
            if (id >= 0) {
                free(key);
                p->region_map[r] = (uint64_t)id;
                continue;
            }
            mg_key *t = realloc(regions, (nreg + 1) * sizeof *t);
            if (!t) {
                free(key);
                mg_fail(c, "out of memory");
                free(part_host);
                goto out;
            }
            regions = t;
            regions[nreg] = (mg_key){key, nreg};
            p->region_map[r] = nreg;
            mg_check(&rc, OTF2_GlobalDefWriter_WriteRegion(
                              w, (OTF2_RegionRef)nreg, mg_string(&strs, mg_str(p, g->name)),
                              mg_string(&strs, mg_str(p, g->canonical)),
                              mg_string(&strs, mg_str(p, g->description)), g->role, g->paradigm,
                              g->flags, mg_string(&strs, mg_str(p, g->file)), g->begin, g->end));
            nreg++;
        }
        qsort(regions, nreg, sizeof *regions, mg_key_cmp);

        /* Metric members by name and unit; a class by its member list. */
        uint64_t member_map[256];
        for (size_t m = 0; m < p->nmembers && m < 256; m++) {
            const mg_member *g = &p->members[m];
            char *key = NULL;
            if (asprintf(&key, "%s\x1f%s\x1f%d\x1f%d", mg_str(p, g->name), mg_str(p, g->unit),
                         (int)g->type, (int)g->mode) < 0) {
                mg_fail(c, "out of memory");
                free(part_host);
                goto out;
            }
            int64_t id = mg_lookup(members, 0, nmem, key);
            if (id >= 0) {
                free(key);
                member_map[m] = (uint64_t)id;
                continue;
            }
            mg_key *t = realloc(members, (nmem + 1) * sizeof *t);
            if (!t) {
                free(key);
                mg_fail(c, "out of memory");
                free(part_host);
                goto out;
            }
            members = t;
            members[nmem] = (mg_key){key, nmem};
            member_map[m] = nmem;
            mg_check(&rc, OTF2_GlobalDefWriter_WriteMetricMember(
                              w, (OTF2_MetricMemberRef)nmem, mg_string(&strs, mg_str(p, g->name)),
                              mg_string(&strs, mg_str(p, g->description)), g->type, g->mode,
                              g->value_type, g->base, g->exponent,
                              mg_string(&strs, mg_str(p, g->unit))));
            nmem++;
        }
        for (size_t k = 0; k < p->nclasses; k++) {
            const mg_class *g = &p->classes[k];
            if (!g->defined)
                continue;
            char key[2048] = "";
            size_t len = 0;
            OTF2_MetricMemberRef list[256];
            for (uint8_t m = 0; m < g->n; m++) {
                list[m] = (OTF2_MetricMemberRef)(g->members[m] < p->nmembers && g->members[m] < 256
                                                     ? member_map[g->members[m]]
                                                     : 0);
                if (len < sizeof key)
                    len += (size_t)snprintf(key + len, sizeof key - len, "%u,", (unsigned)list[m]);
            }
            int64_t id = mg_lookup(classes, 0, ncls, key);
            if (id < 0) {
                mg_key *t = realloc(classes, (ncls + 1) * sizeof *t);
                char *k2 = strdup(key);
                if (!t || !k2) {
                    free(k2);
                    if (t)
                        classes = t;
                    mg_fail(c, "out of memory");
                    free(part_host);
                    goto out;
                }
                classes = t;
                classes[ncls] = (mg_key){k2, ncls};
                id = (int64_t)ncls++;
                mg_check(&rc, OTF2_GlobalDefWriter_WriteMetricClass(w, (OTF2_MetricRef)id, g->n,
                                                                    list, g->occurrence, g->kind));
            }
            p->class_map[k] = (uint64_t)id;
        }
        /* Parameters by name and type; with string values, every string
         * of the part (the values are among them). */
        int strings = 0;
        if (p->nparams && !(p->param_map = calloc(p->nparams, sizeof *p->param_map))) {
            mg_fail(c, "out of memory");
            free(part_host);
            goto out;
        }
        for (size_t k = 0; k < p->nparams; k++) {
            const mg_param *g = &p->params[k];
            if (!g->defined)
                continue;
            strings |= g->type == OTF2_PARAMETER_TYPE_STRING;
            char *key = NULL;
            if (asprintf(&key, "%s\x1f%d", mg_str(p, g->name), (int)g->type) < 0) {
                mg_fail(c, "out of memory");
                free(part_host);
                goto out;
            }
            int64_t id = mg_lookup(params, 0, npar, key);
            if (id < 0) {
                mg_key *t = realloc(params, (npar + 1) * sizeof *t);
                if (!t) {
                    free(key);
                    mg_fail(c, "out of memory");
                    free(part_host);
                    goto out;
                }
                params = t;
                params[npar] = (mg_key){key, npar};
                id = (int64_t)npar++;
                mg_check(&rc, OTF2_GlobalDefWriter_WriteParameter(w, (OTF2_ParameterRef)id,
                                                                  mg_string(&strs, mg_str(p, g->name)),
                                                                  g->type));
            } else {
                free(key);
            }
            p->param_map[k] = (uint64_t)id;
        }
        if (strings && p->nstrings) {
            if (!(p->string_map = calloc(p->nstrings, sizeof *p->string_map))) {
                mg_fail(c, "out of memory");
                free(part_host);
                goto out;
            }
            for (size_t k = 0; k < p->nstrings; k++)
                p->string_map[k] = mg_string(&strs, mg_str(p, (uint32_t)k));
        }
        for (size_t l = 0; l < p->nlocations; l++) {
            uint64_t gl = next_location++;
            p->location_map[l] = gl;
            /* The writer's ASYNC samples have a location of their own. */
            int samples = p->locations[l].id == UINT32_MAX;
            if (samples)
                snprintf(name, sizeof name, "rank %ld%s metric samples", p->rank,
                         p->image ? " (exec)" : "");
            else
                snprintf(name, sizeof name, "rank %ld%s thread %" PRIu64, p->rank,
                         p->image ? " (exec)" : "", p->locations[l].id);
            mg_check(&rc, OTF2_GlobalDefWriter_WriteLocation(
                              w, gl, mg_string(&strs, name),
                              samples ? OTF2_LOCATION_TYPE_METRIC : OTF2_LOCATION_TYPE_CPU_THREAD,
                              p->locations[l].events, (OTF2_LocationGroupRef)i));
        }
    }
    free(part_host);
    mg_check(&rc, strs.rc);
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
            if (p->nregions) {
                OTF2_IdMap *m = OTF2_IdMap_CreateFromUint64Array(p->nregions, p->region_map, false);
                mg_check(&rc, m ? OTF2_DefWriter_WriteMappingTable(dw, OTF2_MAPPING_REGION, m)
                                : OTF2_ERROR_MEM_ALLOC_FAILED);
                OTF2_IdMap_Free(m);
            }
            if (p->nclasses) {
                OTF2_IdMap *m = OTF2_IdMap_CreateFromUint64Array(p->nclasses, p->class_map, false);
                mg_check(&rc, m ? OTF2_DefWriter_WriteMappingTable(dw, OTF2_MAPPING_METRIC, m)
                                : OTF2_ERROR_MEM_ALLOC_FAILED);
                OTF2_IdMap_Free(m);
            }
            if (p->param_map) {
                OTF2_IdMap *m = OTF2_IdMap_CreateFromUint64Array(p->nparams, p->param_map, false);
                mg_check(&rc, m ? OTF2_DefWriter_WriteMappingTable(dw, OTF2_MAPPING_PARAMETER, m)
                                : OTF2_ERROR_MEM_ALLOC_FAILED);
                OTF2_IdMap_Free(m);
            }
            if (p->string_map) {
                OTF2_IdMap *m = OTF2_IdMap_CreateFromUint64Array(p->nstrings, p->string_map, false);
                mg_check(&rc, m ? OTF2_DefWriter_WriteMappingTable(dw, OTF2_MAPPING_STRING, m)
                                : OTF2_ERROR_MEM_ALLOC_FAILED);
                OTF2_IdMap_Free(m);
            }
            /* global = local + offset, OTF2 interpolating between records. */
            for (size_t k = 0; k < p->npoints; k++) {
                double g = mg_global_ns(p, p->ticks[k], epoch);
                int64_t off = (int64_t)(g + 0.5) - (int64_t)p->ticks[k];
                mg_check(&rc, OTF2_DefWriter_WriteClockOffset(dw, p->ticks[k], off, 0.0));
            }
            mg_check(&rc, OTF2_Archive_CloseDefWriter(a, dw));
            if (rc) {
                mg_fail(c, "cannot write %s/traces/%" PRIu64 ".def: %s", dir, p->location_map[l],
                        c->otf2_error[0] ? c->otf2_error : OTF2_Error_GetDescription(rc));
                goto out;
            }
        }
    }
    /* Which parts are in it: a merge is redone when that changes. */
    char count[32];
    snprintf(count, sizeof count, "%zu", np);
    if ((rc = OTF2_Archive_SetProperty(a, LW_PROP_PARTS, count, true)) ||
        (rc = OTF2_Archive_SetProperty(a, LW_PROP_PARTS_DIGEST, digest, true))) {
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
    for (size_t i = 0; i < nreg; i++)
        free(regions[i].key);
    for (size_t i = 0; i < nmem; i++)
        free(members[i].key);
    for (size_t i = 0; i < ncls; i++)
        free(classes[i].key);
    for (size_t i = 0; i < nhost; i++)
        free(hosts[i].key);
    for (size_t i = 0; i < npar; i++)
        free(params[i].key);
    free(params);
    free(regions);
    free(members);
    free(classes);
    free(hosts);
    mg_strings_free(&strs);
    return result;
}

/* A digest of the parts' names and archive sizes: equal digests, same parts. */
static void mg_digest(const mg_part *parts, size_t np, char out[32])
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

/* The digest the merged archive `anchor` was made from; "" if none. */
static void mg_merged_digest(const char *anchor, char out[32])
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

int lw_trace_merge_job(const char *dir, size_t *nparts, char *err, size_t errlen)
{
    mg_ctx c = {err, errlen, ""};
    mg_part *parts = NULL;
    size_t np = 0;
    int rc = -1;
    err[0] = 0;
    *nparts = 0;

    mg_ctx *outer = mg_current;
    mg_current = &c;
    OTF2_ErrorCallback previous = OTF2_Error_RegisterCallback(mg_otf2_error, NULL);

    char *lock = NULL, *anchor = NULL;
    char digest[32], merged[32];
    if (asprintf(&lock, "%s/.merging", dir) < 0 || asprintf(&anchor, "%s/traces.otf2", dir) < 0) {
        mg_fail(&c, "out of memory");
        goto out;
    }
    if (mg_list_parts(&c, dir, &parts, &np) < 0)
        goto out;
    if (np == 0) {
        rc = 1;
        goto out;
    }
    mg_digest(parts, np, digest);
    int fd = open(lock, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
        if (errno == EEXIST)
            mg_fail(&c,
                    "%s exists: another merge is running, or one was interrupted (then remove it)",
                    lock);
        else
            mg_fail(&c, "cannot create %s: %s", lock, strerror(errno));
        goto out;
    }
    close(fd);
    /* Merged from these very parts already; else a process finished after
     * the merge (a rank that ran several programs): merge again. */
    if (access(anchor, F_OK) == 0) {
        mg_merged_digest(anchor, merged);
        if (strcmp(merged, digest) == 0) {
            *nparts = np;
            rc = 2;
            goto unlock;
        }
        mg_remove_archive(dir);
    }
    for (size_t i = 0; i < np; i++)
        if (mg_read_part(&c, &parts[i]) < 0)
            goto unlock;
    if (mg_write(&c, dir, parts, np, digest) < 0) {
        mg_remove_archive(dir);
        goto unlock;
    }
    *nparts = np;
    rc = 0;
unlock:
    unlink(lock);
out:
    for (size_t i = 0; i < np; i++)
        mg_part_free(&parts[i]);
    free(parts);
    free(lock);
    free(anchor);
    OTF2_Error_RegisterCallback(previous, NULL);
    mg_current = outer;
    return rc;
}
