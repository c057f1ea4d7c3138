/*
 * union.c - the merged definitions that events refer to, under the job's
 * numbers: a part's regions, metrics, parameters and strings join them
 * (mg_union_add), and a job of groups keeps them in a file that each
 * group's merge reads and extends under a lock (docs/mpi.md, "One trace
 * for the job").
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

#include "bytes.h"
#include "hash.h"

#include "otf2merge/merge.h"
#include "otf2merge/otf2_merge.h"
#include "owner.h"

/* ---- strings ------------------------------------------------------------- */

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

/* The id of `s`, added when new. */
uint32_t mg_string(mg_strings *t, const char *s)
{
    s = s ? s : "";
    if (4 * (t->used + 1) > 3 * (t->mask + 1) && mg_strings_grow(t) < 0) {
        t->oom = 1;
        return 0;
    }
    size_t i = lw_fnv1a(s) & t->mask;
    for (; t->keys[i]; i = (i + 1) & t->mask)
        if (strcmp(t->keys[i], s) == 0)
            return t->vals[i];
    if (t->n == t->cap) {
        uint32_t cap = t->cap ? 2 * t->cap : 256;
        char **b = realloc(t->byid, cap * sizeof *b);
        if (!b) {
            t->oom = 1;
            return 0;
        }
        t->byid = b;
        t->cap = cap;
    }
    char *copy = strdup(s);
    if (!copy) {
        t->oom = 1;
        return 0;
    }
    t->keys[i] = copy;
    t->vals[i] = t->n;
    t->used++;
    t->byid[t->n] = copy;
    return t->n++;
}

static void mg_strings_free(mg_strings *t)
{
    for (uint32_t i = 0; i < t->n; i++)
        free(t->byid[i]);
    free(t->byid);
    free(t->keys);
    free(t->vals);
}

/* ---- the union: what events refer to, under the job's numbers ------------ */

static int mg_key_cmp(const void *a, const void *b)
{
    return strcmp(((const mg_key *)a)->key, ((const mg_key *)b)->key);
}

static int64_t mg_find(const mg_index *x, const char *key)
{
    mg_key probe = {(char *)key, 0};
    mg_key *hit = x->sorted ? bsearch(&probe, x->k, x->sorted, sizeof *x->k, mg_key_cmp) : NULL;
    if (hit)
        return (int64_t)hit->id;
    for (size_t i = x->sorted; i < x->n; i++)
        if (strcmp(x->k[i].key, key) == 0)
            return (int64_t)x->k[i].id;
    return -1;
}

/* Adds `key` (taken over, freed on failure) as `id`; -1 without memory. */
static int mg_insert(mg_index *x, char *key, uint64_t id)
{
    if (!key)
        return -1;
    if (x->n == x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 64;
        mg_key *k = realloc(x->k, cap * sizeof *k);
        if (!k) {
            free(key);
            return -1;
        }
        x->k = k;
        x->cap = cap;
    }
    x->k[x->n++] = (mg_key){key, id};
    if (x->n - x->sorted > 32) {
        qsort(x->k, x->n, sizeof *x->k, mg_key_cmp);
        x->sorted = x->n;
    }
    return 0;
}

static void mg_index_free(mg_index *x)
{
    for (size_t i = 0; i < x->n; i++)
        free(x->k[i].key);
    free(x->k);
}

void mg_union_free(mg_union *u)
{
    mg_strings_free(&u->str);
    mg_index_free(&u->regk);
    mg_index_free(&u->memk);
    mg_index_free(&u->clsk);
    mg_index_free(&u->park);
    mg_index_free(&u->nodek);
    for (size_t i = 0; i < u->ncls; i++)
        free(u->cls[i].members);
    free(u->reg);
    free(u->mem);
    free(u->cls);
    free(u->par);
    free(u->node);
    memset(u, 0, sizeof *u);
}

/* The id of `key` (taken over) in index x of the definitions `arr` (n of
 * them, `elem` bytes each); when new, `def` is appended as the next one.
 * -1 without memory. */
static int64_t mg_intern(mg_index *x, char *key, void **arr, size_t *n, size_t elem,
                         const void *def)
{
    if (!key)
        return -1;
    int64_t id = mg_find(x, key);
    if (id >= 0) {
        free(key);
        return id;
    }
    if (mg_append(arr, *n, elem, def) < 0) {
        free(key);
        return -1;
    }
    if (mg_insert(x, key, *n) < 0)
        return -1;
    return (int64_t)(*n)++;
}

static char *mg_member_key(const mg_union *u, const mg_member *m)
{
    char *key = NULL;
    return asprintf(&key, "%s\x1f%s\x1f%d\x1f%d", u->str.byid[m->name], u->str.byid[m->unit],
                    (int)m->type, (int)m->mode) < 0
               ? NULL
               : key;
}

static char *mg_class_key(const mg_class *g)
{
    size_t len = 0, cap = 16 + 12 * (size_t)g->n;
    char *key = malloc(cap);
    if (!key)
        return NULL;
    key[0] = 0;
    for (uint8_t m = 0; m < g->n; m++)
        len += (size_t)snprintf(key + len, cap - len, "%u,", (unsigned)g->members[m]);
    return key;
}

static char *mg_param_key(const mg_union *u, const mg_param *q)
{
    char *key = NULL;
    return asprintf(&key, "%s\x1f%d", u->str.byid[q->name], (int)q->type) < 0 ? NULL : key;
}

/* A region's identity: its symbol (canonical name), else its name. */
static const char *mg_region_key(const mg_strings *s, const mg_region *g)
{
    return *s->byid[g->canonical] ? s->byid[g->canonical] : s->byid[g->name];
}

/* Part p's definitions into the union: p's maps to the union's numbers,
 * its locations numbered. 0, or -1 on error. */
int mg_union_add(mg_ctx *c, mg_union *u, mg_part *p)
{
    if (u->chunk && p->chunk != u->chunk)
        return mg_fail(c,
                       "%s was written with another LIBWRAP_TOTAL_MEMORY than the job's other "
                       "ranks (event chunks of %" PRIu64 " and %" PRIu64
                       " bytes): their events cannot be in one archive",
                       p->dir, p->chunk, u->chunk);
    u->chunk = p->chunk;
    mg_strings *s = &u->str;
    p->region_map = calloc(p->nregions ? p->nregions : 1, sizeof *p->region_map);
    p->class_map = calloc(p->nclasses ? p->nclasses : 1, sizeof *p->class_map);
    p->location_map = calloc(p->nlocations ? p->nlocations : 1, sizeof *p->location_map);
    if (!p->region_map || !p->class_map || !p->location_map)
        return mg_fail(c, "out of memory");

    /* Hosts: a system tree node each, of the class "node". */
    const char *h = *p->host ? p->host : "localhost";
    mg_string(s, "node");
    int64_t id = mg_find(&u->nodek, h);
    if (id < 0) {
        uint32_t name = mg_string(s, h);
        if (mg_append((void **)&u->node, u->nnode, sizeof *u->node, &name) < 0 ||
            mg_insert(&u->nodek, strdup(h), u->nnode) < 0)
            return mg_fail(c, "out of memory");
        id = (int64_t)u->nnode++;
    }
    p->node = (uint64_t)id;

    for (size_t r = 0; r < p->nregions; r++) {
        const mg_region *g = &p->regions[r];
        if (!g->defined) /* a hole in the part's numbers */
            continue;
        const char *ident = *mg_str(p, g->canonical) ? mg_str(p, g->canonical) : mg_str(p, g->name);
        id = mg_find(&u->regk, ident);
        if (id < 0) {
            mg_region d = {mg_string(s, mg_str(p, g->name)),
                           mg_string(s, mg_str(p, g->canonical)),
                           mg_string(s, mg_str(p, g->description)),
                           mg_string(s, mg_str(p, g->file)),
                           g->begin,
                           g->end,
                           g->role,
                           g->paradigm,
                           g->flags,
                           1};
            if (mg_append((void **)&u->reg, u->nreg, sizeof *u->reg, &d) < 0 ||
                mg_insert(&u->regk, strdup(ident), u->nreg) < 0)
                return mg_fail(c, "out of memory");
            id = (int64_t)u->nreg++;
        }
        p->region_map[r] = (uint64_t)id;
    }

    /* Metric members by name, unit, type and mode; a class by its members. */
    uint64_t member_map[256] = {0};
    for (size_t m = 0; m < p->nmembers && m < 256; m++) {
        const mg_member *g = &p->members[m];
        if (!g->defined)
            continue;
        mg_member d = *g;
        d.name = mg_string(s, mg_str(p, g->name));
        d.description = mg_string(s, mg_str(p, g->description));
        d.unit = mg_string(s, mg_str(p, g->unit));
        id = s->oom ? -1
                    : mg_intern(&u->memk, mg_member_key(u, &d), (void **)&u->mem, &u->nmem,
                                sizeof *u->mem, &d);
        if (id < 0)
            return mg_fail(c, "out of memory");
        member_map[m] = (uint64_t)id;
    }
    for (size_t k = 0; k < p->nclasses; k++) {
        const mg_class *g = &p->classes[k];
        if (!g->defined)
            continue;
        mg_class d = *g;
        d.members = malloc((g->n ? g->n : 1) * sizeof *d.members);
        if (!d.members)
            return mg_fail(c, "out of memory");
        for (uint8_t m = 0; m < g->n; m++)
            d.members[m] = (OTF2_MetricMemberRef)(g->members[m] < p->nmembers && g->members[m] < 256
                                                      ? member_map[g->members[m]]
                                                      : 0);
        size_t known = u->ncls;
        id = mg_intern(&u->clsk, mg_class_key(&d), (void **)&u->cls, &u->ncls, sizeof *u->cls, &d);
        if (id < (int64_t)known) /* an old class (its own list kept), or no memory */
            free(d.members);
        if (id < 0)
            return mg_fail(c, "out of memory");
        p->class_map[k] = (uint64_t)id;
    }

    /* Parameters by name and type; with string values, every string of
     * the part (the values are among them). */
    int strings = 0;
    if (p->nparams && !(p->param_map = calloc(p->nparams, sizeof *p->param_map)))
        return mg_fail(c, "out of memory");
    for (size_t k = 0; k < p->nparams; k++) {
        const mg_param *g = &p->params[k];
        if (!g->defined)
            continue;
        strings |= g->type == OTF2_PARAMETER_TYPE_STRING;
        mg_param d = {mg_string(s, mg_str(p, g->name)), g->type, 1};
        id = s->oom ? -1
                    : mg_intern(&u->park, mg_param_key(u, &d), (void **)&u->par, &u->npar,
                                sizeof *u->par, &d);
        if (id < 0)
            return mg_fail(c, "out of memory");
        p->param_map[k] = (uint64_t)id;
    }
    if (strings && p->nstrings) {
        if (!(p->string_map = calloc(p->nstrings, sizeof *p->string_map)))
            return mg_fail(c, "out of memory");
        for (size_t k = 0; k < p->nstrings; k++)
            p->string_map[k] = mg_string(s, mg_str(p, (uint32_t)k));
    }
    for (size_t l = 0; l < p->nlocations; l++)
        p->location_map[l] = u->next_location++;
    return s->oom ? mg_fail(c, "out of memory") : 0;
}

/* The names of p's location group and locations, as strings of `s`. */
int mg_part_names(mg_ctx *c, mg_strings *s, mg_part *p)
{
    char name[160];
    if (p->image)
        snprintf(name, sizeof name, "rank %ld (exec %ld)", p->rank, p->image);
    else
        snprintf(name, sizeof name, "rank %ld", p->rank);
    p->lgroup_name = mg_string(s, name);
    free(p->location_name);
    if (!(p->location_name = calloc(p->nlocations ? p->nlocations : 1, sizeof *p->location_name)))
        return mg_fail(c, "out of memory");
    for (size_t l = 0; l < p->nlocations; l++) {
        /* The writer's ASYNC samples have a location of their own. */
        if (p->locations[l].id == UINT32_MAX)
            snprintf(name, sizeof name, "rank %ld%s metric samples", p->rank,
                     p->image ? " (exec)" : "");
        else
            snprintf(name, sizeof name, "rank %ld%s thread %" PRIu64, p->rank,
                     p->image ? " (exec)" : "", p->locations[l].id);
        p->location_name[l] = mg_string(s, name);
    }
    return s->oom ? mg_fail(c, "out of memory") : 0;
}

/* ---- the union's file ------------------------------------------------------ */

#define MG_UNION_MAGIC 0x314e4f494e55574cull /* "LWUNION1" */

static void mg_union_encode(const mg_union *u, lw_buf *b)
{
    lw_put_u64(b, MG_UNION_MAGIC);
    lw_put_u64(b, u->chunk);
    lw_put_u64(b, u->next_location);
    lw_put_u32(b, u->str.n);
    for (uint32_t i = 0; i < u->str.n; i++)
        lw_put_str(b, u->str.byid[i]);
    lw_put_u32(b, (uint32_t)u->nreg);
    for (size_t i = 0; i < u->nreg; i++) {
        const mg_region *r = &u->reg[i];
        uint32_t v[9] = {r->name,           r->canonical, r->description,    r->file,
                         r->begin,          r->end,       (uint32_t)r->role, (uint32_t)r->paradigm,
                         (uint32_t)r->flags};
        lw_put(b, v, sizeof v);
    }
    lw_put_u32(b, (uint32_t)u->nmem);
    for (size_t i = 0; i < u->nmem; i++) {
        const mg_member *m = &u->mem[i];
        uint32_t v[8] = {
            m->name,           m->description,          m->unit,           (uint32_t)m->type,
            (uint32_t)m->mode, (uint32_t)m->value_type, (uint32_t)m->base, 0};
        lw_put(b, v, sizeof v);
        lw_put_u64(b, (uint64_t)m->exponent);
    }
    lw_put_u32(b, (uint32_t)u->ncls);
    for (size_t i = 0; i < u->ncls; i++) {
        const mg_class *k = &u->cls[i];
        lw_put_u32(b, k->n);
        for (uint8_t m = 0; m < k->n; m++)
            lw_put_u32(b, (uint32_t)k->members[m]);
        lw_put_u32(b, (uint32_t)k->occurrence);
        lw_put_u32(b, (uint32_t)k->kind);
    }
    lw_put_u32(b, (uint32_t)u->npar);
    for (size_t i = 0; i < u->npar; i++) {
        lw_put_u32(b, u->par[i].name);
        lw_put_u32(b, (uint32_t)u->par[i].type);
    }
    lw_put_u32(b, (uint32_t)u->nnode);
    for (size_t i = 0; i < u->nnode; i++)
        lw_put_u32(b, u->node[i]);
}

/* The union of the file's bytes; its keys made again. 0, or -1 when the
 * file is not one (or no memory). */
static int mg_union_decode(mg_union *u, lw_rd *b)
{
    if (lw_get_u64(b) != MG_UNION_MAGIC)
        return -1;
    u->chunk = lw_get_u64(b);
    u->next_location = lw_get_u64(b);
    uint32_t n = lw_get_u32(b);
    char *s = NULL;
    size_t cap = 0;
    for (uint32_t i = 0; i < n && !b->bad; i++) {
        if (!lw_get_str(b, &s, &cap) || mg_string(&u->str, s) != i) {
            /* (the file's strings are distinct) */
            free(s);
            return -1;
        }
    }
    free(s);
    n = lw_get_u32(b);
    for (uint32_t i = 0; i < n && !b->bad; i++) {
        uint32_t v[9];
        lw_get(b, v, sizeof v);
        mg_region r = {v[0],
                       v[1],
                       v[2],
                       v[3],
                       v[4],
                       v[5],
                       (OTF2_RegionRole)v[6],
                       (OTF2_Paradigm)v[7],
                       (OTF2_RegionFlag)v[8],
                       1};
        if (r.name >= u->str.n || r.canonical >= u->str.n || r.description >= u->str.n ||
            r.file >= u->str.n || mg_append((void **)&u->reg, u->nreg, sizeof *u->reg, &r) < 0 ||
            mg_insert(&u->regk, strdup(mg_region_key(&u->str, &r)), u->nreg) < 0)
            return -1;
        u->nreg++;
    }
    n = lw_get_u32(b);
    for (uint32_t i = 0; i < n && !b->bad; i++) {
        uint32_t v[8];
        lw_get(b, v, sizeof v);
        mg_member m = {v[0],
                       v[1],
                       v[2],
                       (OTF2_MetricType)v[3],
                       (OTF2_MetricMode)v[4],
                       (OTF2_Type)v[5],
                       (OTF2_Base)v[6],
                       (int64_t)lw_get_u64(b),
                       1};
        if (m.name >= u->str.n || m.description >= u->str.n || m.unit >= u->str.n ||
            mg_append((void **)&u->mem, u->nmem, sizeof *u->mem, &m) < 0 ||
            mg_insert(&u->memk, mg_member_key(u, &m), u->nmem) < 0)
            return -1;
        u->nmem++;
    }
    n = lw_get_u32(b);
    for (uint32_t i = 0; i < n && !b->bad; i++) {
        mg_class k = {0};
        uint32_t members = lw_get_u32(b);
        if (members > 255 || !(k.members = malloc((members ? members : 1) * sizeof *k.members)))
            return -1;
        k.n = (uint8_t)members;
        for (uint8_t m = 0; m < k.n; m++)
            k.members[m] = lw_get_u32(b);
        k.occurrence = (OTF2_MetricOccurrence)lw_get_u32(b);
        k.kind = (OTF2_RecorderKind)lw_get_u32(b);
        k.defined = 1;
        if (mg_append((void **)&u->cls, u->ncls, sizeof *u->cls, &k) < 0) {
            free(k.members);
            return -1;
        }
        u->ncls++;
        if (mg_insert(&u->clsk, mg_class_key(&k), u->ncls - 1) < 0)
            return -1;
    }
    n = lw_get_u32(b);
    for (uint32_t i = 0; i < n && !b->bad; i++) {
        uint32_t name = lw_get_u32(b);
        mg_param q = {name, (OTF2_ParameterType)lw_get_u32(b), 1};
        if (q.name >= u->str.n || mg_append((void **)&u->par, u->npar, sizeof *u->par, &q) < 0 ||
            mg_insert(&u->park, mg_param_key(u, &q), u->npar) < 0)
            return -1;
        u->npar++;
    }
    n = lw_get_u32(b);
    for (uint32_t i = 0; i < n && !b->bad; i++) {
        uint32_t name = lw_get_u32(b);
        if (name >= u->str.n ||
            mg_append((void **)&u->node, u->nnode, sizeof *u->node, &name) < 0 ||
            mg_insert(&u->nodek, strdup(u->str.byid[name]), u->nnode) < 0)
            return -1;
        u->nnode++;
    }
    return b->bad || u->str.oom || b->p != b->end ? -1 : 0;
}

/* The job's union file, open and locked (fcntl: works on local and
 * parallel file systems, and is let go when the process dies); -1 with a
 * message. */
static int mg_union_open(mg_ctx *c, const char *path)
{
    int fd = lw_owner_open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return mg_fail(c, "cannot open %s: %s", path, strerror(errno));
    struct flock lk = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    int rc;
    while ((rc = fcntl(fd, F_SETLKW, &lk)) < 0 && errno == EINTR)
        ;
    if (rc < 0) {
        mg_fail(c, "cannot lock %s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

/* Reads the union from the locked file `fd` (empty: an empty union). */
static int mg_union_read(mg_ctx *c, int fd, const char *path, mg_union *u)
{
    struct stat st;
    if (fstat(fd, &st) < 0)
        return mg_fail(c, "cannot read %s: %s", path, strerror(errno));
    if (st.st_size == 0)
        return 0;
    size_t n = (size_t)st.st_size;
    char *bytes = malloc(n);
    if (!bytes)
        return mg_fail(c, "out of memory");
    ssize_t got = pread(fd, bytes, n, 0);
    int err = errno;
    lw_rd b = {bytes, bytes + n, 0};
    int rc = got == (ssize_t)n ? mg_union_decode(u, &b) : -1;
    free(bytes);
    if (rc < 0)
        return mg_fail(c, "%s is damaged (%s)", path,
                       got < 0 ? strerror(err) : "not what the trace merge wrote");
    return 0;
}

/* The job's union file `path` opened, locked and read into u: its
 * descriptor, the lock held until it is closed; -1 with a message. */
int mg_union_load(mg_ctx *c, const char *path, mg_union *u)
{
    int fd = mg_union_open(c, path);
    if (fd >= 0 && mg_union_read(c, fd, path, u) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int mg_union_write(mg_ctx *c, int fd, const char *path, const mg_union *u)
{
    lw_buf b = {0};
    mg_union_encode(u, &b);
    int rc = 0;
    if (b.failed)
        rc = mg_fail(c, "out of memory");
    else if (pwrite(fd, b.p, b.len, 0) != (ssize_t)b.len || ftruncate(fd, (off_t)b.len) < 0)
        rc = mg_fail(c, "cannot write %s: %s", path, strerror(errno));
    free(b.p);
    return rc;
}
