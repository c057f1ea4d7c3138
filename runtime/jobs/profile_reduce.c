/*
 * profile_reduce.c - the job's one profile, reduced over its ranks.
 *
 * At MPI_Finalize the ranks of a job combine their profiles along a
 * binomial tree (mpi.c moves the bytes): a rank receives the trees of at
 * most log2(size) ranges of ranks, each the union of their call paths, and
 * sends one tree up; no rank ever holds more than its own tree and one
 * incoming one, and the first rank ends with the job's. docs/mpi.md.
 *
 * A tree here is the job's view: nodes keyed by the path of symbols (a
 * rank's region numbers mean nothing on another rank), every thread of a
 * rank folded into the same paths, times already in nanoseconds (each rank
 * converts with its own clock). Besides the call paths, the functions of
 * each rank are a second, one-level tree: the flat profile's per-rank
 * extremes must come from each rank's own sums. Every node carries
 *
 *   sums over ranks  visits, inclusive, exclusive; min and max over calls;
 *                    metrics by their mode (accumulated: sum, absolute: max)
 *   per rank         smallest and largest visits, exclusive and inclusive
 *                    time with the rank of each (the lowest on a tie), and
 *                    the sum for the mean
 *   coverage         how many ranks have it, and the lowest rank of the
 *                    covered range that has not: ranks without a path count
 *                    0 there, as libwrap-report does for parts.
 *   arguments        recorded ones (LIBWRAP_ARGUMENTS) by their kind, as
 *                    libwrap-report adds up those of parts: numbers' counts,
 *                    128-bit sums, extremes and histogram buckets; strings'
 *                    and enums' values with their counts, the LW_ARG_TOP
 *                    most frequent kept after every merge (what a process's
 *                    profile.json lists), so a tree stays bounded.
 *
 * Ranges merge in rank order (the binomial tree receives rank+1, rank+2,
 * rank+4, ...), so "the lowest rank" is kept by preferring the first tree
 * on a tie.
 */
#include "jobs/jobs.h"
#include "core/output/output.h"
#include "core/measure/listen.h"
#include "core/arguments/arguments.h"
#include "core/base/json.h"
#include "profile_format.h"
#include "bytes.h"

#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LW_RT_FUNCS "#functions" /* '#' is in no linker symbol */
#define LW_RT_PATHS "#callpath"

typedef struct lw_rstat {
    uint64_t min, max, sum;
    int64_t min_rank, max_rank;
} lw_rstat;

enum { LW_RS_VISITS, LW_RS_EXCL, LW_RS_INCL, LW_RS_N };

typedef struct lw_rnode {
    char *symbol, *name, *file;
    int64_t line;
    struct lw_rnode *parent, *first, *last, *next;
    uint64_t visits, incl, excl, min, max;
    double metrics[LW_MAX_METRICS];
    lw_rstat st[LW_RS_N];
    int64_t called, absent;
    unsigned stamp; /* the merge that last saw it in the incoming tree */
    /* Recorded arguments: args[i].d is &argp[i], whose name and type are
     * the node's own, as are the strings of the values. */
    lw_argout *args;
    libwrap_param *argp;
    uint32_t nargs;
} lw_rnode;

struct lw_rtree {
    lw_rnode root;
    lw_rnode **slots; /* (parent, symbol) -> node */
    size_t mask, used;
    int64_t first_rank, end_rank; /* the ranks covered: [first, end) */
    size_t nmetrics;
    uint64_t metric_names; /* a hash of the metrics' names and modes */
    int metrics_differ;    /* some rank had other metrics: none are written */
    int64_t lost;          /* ranks of the range whose trees never came */
    unsigned round;
};

static uint64_t lw_fnv(const char *s, uint64_t h)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

static size_t lw_slot(const lw_rtree *t, const lw_rnode *parent, const char *symbol)
{
    uint64_t h = lw_fnv(symbol, 0xcbf29ce484222325ull ^ (uint64_t)(uintptr_t)parent);
    return (size_t)(h ^ (h >> 29)) & t->mask;
}

static int lw_rehash(lw_rtree *t)
{
    size_t n = t->mask ? 2 * (t->mask + 1) : 1024;
    lw_rnode **old = t->slots;
    size_t oldn = t->mask ? t->mask + 1 : 0;
    t->slots = calloc(n, sizeof *t->slots);
    if (!t->slots) {
        t->slots = old;
        return -1;
    }
    t->mask = n - 1;
    for (size_t i = 0; i < oldn; i++)
        if (old[i]) {
            size_t k = lw_slot(t, old[i]->parent, old[i]->symbol);
            while (t->slots[k])
                k = (k + 1) & t->mask;
            t->slots[k] = old[i];
        }
    free(old);
    return 0;
}

static void lw_rstat_empty(lw_rstat *s)
{
    s->min = UINT64_MAX;
    s->max = s->sum = 0;
    s->min_rank = s->max_rank = -1;
}

/* The child `symbol` of `parent`, created (empty, absent from the ranks
 * covered so far) if new; NULL without memory. */
static lw_rnode *lw_child(lw_rtree *t, lw_rnode *parent, const char *symbol, const char *name,
                          const char *file, int64_t line)
{
    size_t k = lw_slot(t, parent, symbol);
    for (; t->slots[k]; k = (k + 1) & t->mask)
        if (t->slots[k]->parent == parent && strcmp(t->slots[k]->symbol, symbol) == 0)
            return t->slots[k];
    lw_rnode *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    n->symbol = strdup(symbol);
    n->name = strdup(name && *name ? name : symbol);
    n->file = strdup(file ? file : "");
    if (!n->symbol || !n->name || !n->file) {
        free(n->symbol);
        free(n->name);
        free(n->file);
        free(n);
        return NULL;
    }
    n->line = line;
    n->parent = parent;
    n->min = UINT64_MAX;
    for (int i = 0; i < LW_RS_N; i++)
        lw_rstat_empty(&n->st[i]);
    n->absent = t->first_rank < t->end_rank ? t->first_rank : -1;
    if (parent->last)
        parent->last->next = n;
    else
        parent->first = n;
    parent->last = n;
    t->slots[k] = n;
    if (4 * ++t->used > 3 * (t->mask + 1) && lw_rehash(t) < 0)
        return NULL;
    return n;
}

static void lw_rargs_free(lw_rnode *n)
{
    for (uint32_t i = 0; i < n->nargs; i++) {
        free((char *)n->argp[i].name);
        free((char *)n->argp[i].type);
    }
    lw_argout_free(n->args, n->nargs);
    free(n->argp);
}

static void lw_rnode_free(lw_rnode *n)
{
    for (lw_rnode *c = n->first, *next; c; c = next) {
        next = c->next;
        lw_rnode_free(c);
        lw_rargs_free(c);
        free(c->symbol);
        free(c->name);
        free(c->file);
        free(c);
    }
}

void lw_rtree_free(lw_rtree *t)
{
    if (!t)
        return;
    lw_rnode_free(&t->root);
    free(t->slots);
    free(t);
}

/* Where the job's profile was reduced: over MPI at MPI_Finalize, or
 * through files as the ranks exited (job_reduce.c). */
static const char *lw_reduced_at(void)
{
    return lw_job_info.records ? "exit" : "MPI_Finalize";
}

static lw_rtree *lw_rtree_new(void)
{
    lw_rtree *t = calloc(1, sizeof *t);
    if (!t || lw_rehash(t) < 0) {
        free(t);
        return NULL;
    }
    t->root.symbol = (char *)"";
    t->nmetrics = lw_nmetrics;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < lw_nmetrics; i++) {
        h = lw_fnv(lw_metric_info(i)->name, h);
        h = lw_fnv((lw_metric_absolute & (1u << i)) ? "/a" : "/s", h);
    }
    t->metric_names = h;
    return t;
}

lw_rtree *lw_rtree_empty(long first)
{
    lw_rtree *t = lw_rtree_new();
    if (t)
        t->first_rank = t->end_rank = first;
    return t;
}

static void lw_metrics_add(double *to, const double *from, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (lw_metric_absolute & (1u << i))
            to[i] = from[i] > to[i] ? from[i] : to[i];
        else
            to[i] += from[i];
}

/* The argument `p` of node `n` (the same name, type and kind), added
 * empty if new; NULL without memory. */
static lw_argout *lw_rarg(lw_rnode *n, const libwrap_param *p)
{
    const char *pname = p->name ? p->name : "?", *ptype = p->type ? p->type : "";
    for (uint32_t i = 0; i < n->nargs; i++)
        if (n->argp[i].kind == p->kind && strcmp(n->argp[i].name, pname) == 0 &&
            strcmp(n->argp[i].type, ptype) == 0)
            return &n->args[i];
    lw_argout *args = realloc(n->args, (n->nargs + 1) * sizeof *args);
    if (args)
        n->args = args;
    libwrap_param *argp = realloc(n->argp, (n->nargs + 1) * sizeof *argp);
    if (argp)
        n->argp = argp;
    for (uint32_t i = 0; i < n->nargs; i++)
        n->args[i].d = &n->argp[i];
    char *name = strdup(pname), *type = strdup(ptype);
    if (!args || !argp || !name || !type) {
        free(name);
        free(type);
        return NULL;
    }
    argp[n->nargs] = *p;
    argp[n->nargs].name = name;
    argp[n->nargs].type = type;
    lw_argout *o = &args[n->nargs];
    memset(o, 0, sizeof *o);
    o->d = &argp[n->nargs++];
    o->owned = 1;
    return o;
}

static int lw_is_top(unsigned kind)
{
    return kind == LIBWRAP_PARAM_STRING || kind == LIBWRAP_PARAM_ENUM;
}

/* The merged arguments `from` (a rank's, in its own memory) into n's. */
static int lw_rargs_add(lw_rnode *n, const lw_argout *from, uint32_t k)
{
    for (uint32_t i = 0; i < k; i++) {
        const lw_argout *f = &from[i];
        lw_argout *o = lw_rarg(n, f->d);
        if (!o)
            return -1;
        if (!lw_is_top(f->d->kind)) {
            lw_argnum_merge(&o->num, &f->num, f->d->kind);
            continue;
        }
        o->count += f->count;
        for (size_t v = 0; v < f->nvals; v++) {
            const lw_valcount *x = &f->vals[v];
            if (lw_argout_value(o, x->key, x->s, x->count, x->err) < 0)
                return -1;
        }
    }
    return 0;
}

/* ---- this rank's own tree ------------------------------------------------ */

typedef struct lw_rflat {
    int active; /* activations on the current path */
    uint64_t visits, incl, excl, min, max;
    double metrics[LW_MAX_METRICS];
} lw_rflat;

/* A thread's subtree below `n` into the job's paths below `to`, and into
 * the rank's functions (inclusive time of the outermost activation only). */
static int lw_add_thread(lw_rtree *t, lw_rnode *to, const lw_thread *th, const lw_node *n,
                         lw_rflat *flat)
{
    for (const lw_node *c = n->first_child; c; c = c->next_sibling) {
        const libwrap_region *r = lw_region_get(c->region);
        if (!r || !c->visits)
            continue;
        lw_rnode *d = lw_child(t, to, r->symbol, lw_region_name(c->region), r->file, r->line);
        if (!d)
            return -1;
        double m[LW_MAX_METRICS];
        for (size_t i = 0; i < lw_nmetrics; i++)
            m[i] = (double)c->metrics[i];
        uint64_t incl = lw_ticks_to_ns(c->incl_c), excl = lw_ticks_to_ns(c->excl_c);
        uint64_t mn, mx;
        lw_node_minmax(c, &mn, &mx);
        lw_minmax_ns(c->visits, incl, mn, mx, &mn, &mx);
        d->visits += c->visits;
        d->incl += incl;
        d->excl += excl;
        d->min = mn < d->min ? mn : d->min;
        d->max = mx > d->max ? mx : d->max;
        lw_metrics_add(d->metrics, m, lw_nmetrics);
        uint32_t k = 0;
        lw_argout *args = c->args ? lw_arguments_node(th, c, &k) : NULL;
        int rc = args ? lw_rargs_add(d, args, k) : 0;
        lw_argout_free(args, k);
        if (rc < 0)
            return -1;
        lw_rflat *f = &flat[c->region];
        f->visits += c->visits;
        f->excl += excl;
        f->min = mn < f->min ? mn : f->min;
        f->max = mx > f->max ? mx : f->max;
        if (!f->active) {
            f->incl += incl;
            lw_metrics_add(f->metrics, m, lw_nmetrics);
        }
        f->active++;
        rc = lw_add_thread(t, d, th, c, flat);
        f->active--;
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* The rank's totals become its per-rank values, for the one rank covered;
 * its values of strings and enums are cut as its own profile.json would
 * list them. */
static void lw_own_stats(lw_rnode *n, int64_t rank)
{
    for (lw_rnode *c = n->first; c; c = c->next) {
        uint64_t v[LW_RS_N] = {c->visits, c->excl, c->incl};
        for (int i = 0; i < LW_RS_N; i++)
            c->st[i] = (lw_rstat){v[i], v[i], v[i], rank, rank};
        for (uint32_t i = 0; i < c->nargs; i++)
            lw_argout_keep_top(&c->args[i]);
        c->called = 1;
        c->absent = -1;
        lw_own_stats(c, rank);
    }
}

static uint64_t lw_node_visits(const lw_node *n)
{
    uint64_t v = 0;
    for (const lw_node *c = n->first_child; c; c = c->next_sibling)
        v += c->visits + lw_node_visits(c);
    return v;
}

uint64_t lw_rtree_visits_now(void)
{
    uint64_t v = 0;
    for (lw_thread *th = lw_thread_first(); th; th = th->next)
        v += lw_node_visits(th->tree.root);
    return v;
}

lw_rtree *lw_rtree_local(long rank, uint64_t *visits)
{
    lw_rtree *t = lw_rtree_new();
    if (!t)
        return NULL;
    t->first_rank = rank;
    t->end_rank = rank; /* nothing covered while the rank's own tree is built */
    size_t nregions = lw_region_count();
    lw_rflat *flat = calloc(nregions + 1, sizeof *flat);
    lw_rnode *funcs = lw_child(t, &t->root, LW_RT_FUNCS, NULL, NULL, 0);
    lw_rnode *paths = lw_child(t, &t->root, LW_RT_PATHS, NULL, NULL, 0);
    int rc = flat && funcs && paths ? 0 : -1;
    for (size_t i = 0; flat && i <= nregions; i++)
        flat[i].min = UINT64_MAX;
    /* The lock order (core/measure/measure.h). Threads still running are read as the
     * finaliser reads them (their trees are never freed): a call still
     * open is not counted yet. */
    lw_region_lock();
    lw_thread_registry_lock();
    *visits = lw_rtree_visits_now();
    for (lw_thread *th = lw_thread_first(); rc == 0 && th; th = th->next) {
        lw_tree_finish(th->tree.root);
        rc = lw_add_thread(t, paths, th, th->tree.root, flat);
    }
    for (size_t i = 1; rc == 0 && i <= nregions; i++) {
        const libwrap_region *r = flat[i].visits ? lw_region_get((int32_t)i) : NULL;
        lw_rnode *d = r ? lw_child(t, funcs, r->symbol, lw_region_name((int32_t)i), r->file, r->line) : NULL;
        if (!r)
            continue;
        if (!d) {
            rc = -1;
            break;
        }
        d->visits = flat[i].visits;
        d->incl = flat[i].incl;
        d->excl = flat[i].excl;
        d->min = flat[i].min;
        d->max = flat[i].max;
        memcpy(d->metrics, flat[i].metrics, sizeof d->metrics);
        uint32_t k = 0;
        lw_argout *args = lw_arguments_collect((int32_t)i, &k);
        if (args && lw_rargs_add(d, args, k) < 0)
            rc = -1;
        lw_argout_free(args, k);
    }
    lw_thread_registry_unlock();
    lw_region_unlock();
    free(flat);
    if (rc < 0) {
        lw_rtree_free(t);
        return NULL;
    }
    t->end_rank = rank + 1;
    lw_own_stats(funcs, rank);
    lw_own_stats(paths, rank);
    funcs->called = paths->called = 1;
    funcs->absent = paths->absent = -1;
    return t;
}

/* ---- bytes (bytes.h) ------------------------------------------------------ */

/* A node's arguments: name, type, kind and flags; a number's statistics
 * with the non-empty histogram buckets only (a mask per sign, then their
 * counts); a string's or enum's count and values. */
static void lw_pack_args(lw_buf *b, const lw_rnode *n)
{
    lw_put(b, &n->nargs, sizeof n->nargs);
    for (uint32_t i = 0; i < n->nargs; i++) {
        const lw_argout *o = &n->args[i];
        lw_put_str(b, o->d->name);
        lw_put_str(b, o->d->type);
        lw_put_u64(b, o->d->kind | (uint64_t)o->d->flags << 8);
        if (lw_is_top(o->d->kind)) {
            uint32_t nv = (uint32_t)o->nvals;
            lw_put_u64(b, o->count);
            lw_put(b, &nv, sizeof nv);
            for (size_t v = 0; v < o->nvals; v++) {
                lw_put_u64(b, o->vals[v].key);
                lw_put_u64(b, o->vals[v].count);
                lw_put_u64(b, o->vals[v].err);
                lw_put_str(b, o->vals[v].s ? o->vals[v].s : "");
            }
            continue;
        }
        const lw_argnum *a = &o->num;
        lw_put_u64(b, a->count);
        lw_put_u64(b, a->nan);
        lw_put(b, &a->sum, sizeof a->sum);
        lw_put(b, &a->min, sizeof a->min);
        lw_put(b, &a->max, sizeof a->max);
        const uint64_t *h[2] = {a->pos, a->neg};
        for (int sign = 0; sign < 2; sign++) {
            uint64_t mask = 0;
            for (unsigned k = 0; k < LW_ARG_BUCKETS; k++)
                mask |= (uint64_t)(h[sign][k] != 0) << k;
            lw_put_u64(b, mask);
            for (unsigned k = 0; k < LW_ARG_BUCKETS; k++)
                if (h[sign][k])
                    lw_put_u64(b, h[sign][k]);
        }
    }
}

static void lw_pack_node(lw_buf *b, const lw_rtree *t, const lw_rnode *n, uint32_t depth)
{
    for (const lw_rnode *c = n->first; c; c = c->next) {
        lw_put(b, &depth, sizeof depth);
        lw_put_str(b, c->symbol);
        lw_put_str(b, c->name);
        lw_put_str(b, c->file);
        lw_put_u64(b, (uint64_t)c->line);
        lw_put_u64(b, c->visits);
        lw_put_u64(b, c->incl);
        lw_put_u64(b, c->excl);
        lw_put_u64(b, c->min);
        lw_put_u64(b, c->max);
        lw_put(b, c->metrics, t->nmetrics * sizeof(double));
        lw_put(b, c->st, sizeof c->st);
        lw_put_u64(b, (uint64_t)c->called);
        lw_put_u64(b, (uint64_t)c->absent);
        lw_pack_args(b, c);
        lw_pack_node(b, t, c, depth + 1);
    }
}

int lw_rtree_pack(const lw_rtree *t, char **buf, size_t *len)
{
    lw_buf b = {0};
    uint32_t head[2] = {LW_RT_MAGIC, (uint32_t)t->nmetrics};
    lw_put(&b, head, sizeof head);
    lw_put_u64(&b, t->metric_names);
    lw_put_u64(&b, (uint64_t)t->metrics_differ);
    lw_put_u64(&b, (uint64_t)t->first_rank);
    lw_put_u64(&b, (uint64_t)t->end_rank);
    lw_put_u64(&b, (uint64_t)t->lost);
    lw_pack_node(&b, t, &t->root, 1);
    if (b.failed) {
        free(b.p);
        return -1;
    }
    *buf = b.p;
    *len = b.len;
    return 0;
}

static void lw_rstat_merge(lw_rstat *a, const lw_rstat *b)
{
    /* b's ranks all follow a's: on a tie a's rank, the lower, stays. */
    if (b->min_rank >= 0 && (a->min_rank < 0 || b->min < a->min)) {
        a->min = b->min;
        a->min_rank = b->min_rank;
    }
    if (b->max_rank >= 0 && (a->max_rank < 0 || b->max > a->max)) {
        a->max = b->max;
        a->max_rank = b->max_rank;
    }
    a->sum += b->sum;
}

/* Nodes of `t` that the incoming range lacked: their lowest rank without
 * them is the incoming range's first, unless one of t's own lacked them. */
static void lw_mark_absent(lw_rnode *n, unsigned round, int64_t first)
{
    for (lw_rnode *c = n->first; c; c = c->next) {
        if (c->stamp != round && c->absent < 0)
            c->absent = first;
        lw_mark_absent(c, round, first);
    }
}

/* The strings of an incoming tree, read one node at a time. */
enum { LW_S_SYM, LW_S_NAME, LW_S_FILE, LW_S_ARG, LW_S_TYPE, LW_S_VALUE, LW_S_N };
typedef struct {
    char *s[LW_S_N];
    size_t cap[LW_S_N];
} lw_strings;

/* A node's packed arguments (lw_pack_args), added to d's; d NULL: only
 * read. -1 when they are not readable, or without memory. */
static int lw_get_args(lw_rd *r, lw_rnode *d, lw_strings *sc)
{
    uint32_t na = 0;
    lw_get(r, &na, sizeof na);
    for (uint32_t i = 0; i < na && !r->bad; i++) {
        char *name = lw_get_str(r, &sc->s[LW_S_ARG], &sc->cap[LW_S_ARG]);
        char *type = lw_get_str(r, &sc->s[LW_S_TYPE], &sc->cap[LW_S_TYPE]);
        uint64_t kf = lw_get_u64(r);
        unsigned kind = (unsigned)(kf & 0xff);
        if (r->bad || kind < LIBWRAP_PARAM_SIGNED || kind > LIBWRAP_PARAM_ENUM || kf >> 24)
            return -1;
        libwrap_param p = LIBWRAP_PARAM_INIT(name, type, kind, 0, (uint16_t)(kf >> 8), 0);
        lw_argout *o = d ? lw_rarg(d, &p) : NULL;
        if (d && !o)
            return -1;
        if (lw_is_top(kind)) {
            uint64_t count = lw_get_u64(r);
            uint32_t nv = 0;
            lw_get(r, &nv, sizeof nv);
            /* A tree holds at most LW_ARG_TOP values of an argument. */
            if (r->bad || nv > LW_ARG_TOP)
                return -1;
            if (o)
                o->count += count;
            for (uint32_t v = 0; v < nv; v++) {
                uint64_t key = lw_get_u64(r), n = lw_get_u64(r), err = lw_get_u64(r);
                char *s = lw_get_str(r, &sc->s[LW_S_VALUE], &sc->cap[LW_S_VALUE]);
                if (r->bad)
                    return -1;
                if (kind != LIBWRAP_PARAM_STRING)
                    s = NULL;
                if (o && lw_argout_value(o, key, s, n, err) < 0)
                    return -1;
            }
            if (o)
                lw_argout_keep_top(o);
            continue;
        }
        lw_argnum a;
        memset(&a, 0, sizeof a);
        a.count = lw_get_u64(r);
        a.nan = lw_get_u64(r);
        lw_get(r, &a.sum, sizeof a.sum);
        lw_get(r, &a.min, sizeof a.min);
        lw_get(r, &a.max, sizeof a.max);
        uint64_t *h[2] = {a.pos, a.neg};
        for (int sign = 0; sign < 2; sign++)
            for (uint64_t mask = lw_get_u64(r); mask; mask &= mask - 1)
                h[sign][__builtin_ctzll(mask)] = lw_get_u64(r);
        if (r->bad)
            return -1;
        if (o)
            lw_argnum_merge(&o->num, &a, kind);
    }
    return r->bad ? -1 : 0;
}

/* The nodes of an incoming tree, with `nm` metrics. `apply` 0: only read,
 * so that a tree that is not readable to its end changes nothing. */
static int lw_get_nodes(lw_rtree *t, lw_rd r, size_t nm, int same_metrics, int apply,
                        lw_strings *sc)
{
    lw_rnode *stack[4096];
    stack[0] = &t->root;
    /* New nodes are absent from t's range, whose first rank is t's first. */
    while (r.p < r.end) {
        uint32_t depth;
        lw_get(&r, &depth, sizeof depth);
        char *sym = lw_get_str(&r, &sc->s[LW_S_SYM], &sc->cap[LW_S_SYM]);
        char *name = lw_get_str(&r, &sc->s[LW_S_NAME], &sc->cap[LW_S_NAME]);
        char *file = lw_get_str(&r, &sc->s[LW_S_FILE], &sc->cap[LW_S_FILE]);
        int64_t line = (int64_t)lw_get_u64(&r);
        if (r.bad || depth < 1 || depth >= sizeof stack / sizeof *stack || !stack[depth - 1])
            return -1;
        /* Read only, the root stands for every node. */
        lw_rnode *d = apply ? lw_child(t, stack[depth - 1], sym, name, file, line) : &t->root;
        if (!d)
            return -1;
        stack[depth] = d;
        if (depth + 1 < sizeof stack / sizeof *stack)
            stack[depth + 1] = NULL;
        uint64_t v[5];
        for (int i = 0; i < 5; i++)
            v[i] = lw_get_u64(&r);
        double m[LW_MAX_METRICS] = {0};
        lw_get(&r, m, nm * sizeof(double));
        lw_rstat st[LW_RS_N];
        lw_get(&r, st, sizeof st);
        int64_t called = (int64_t)lw_get_u64(&r), absent = (int64_t)lw_get_u64(&r);
        if (r.bad || lw_get_args(&r, apply ? d : NULL, sc) < 0)
            return -1;
        if (!apply)
            continue;
        d->visits += v[0];
        d->incl += v[1];
        d->excl += v[2];
        d->min = v[3] < d->min ? v[3] : d->min;
        d->max = v[4] > d->max ? v[4] : d->max;
        if (same_metrics)
            lw_metrics_add(d->metrics, m, nm);
        for (int i = 0; i < LW_RS_N; i++)
            lw_rstat_merge(&d->st[i], &st[i]);
        d->called += called;
        if (d->absent < 0)
            d->absent = absent;
        d->stamp = t->round;
    }
    return 0;
}

int lw_rtree_merge(lw_rtree *t, const char *buf, size_t len)
{
    lw_rd r = {buf, buf + len, 0};
    uint32_t head[2];
    lw_get(&r, head, sizeof head);
    uint64_t names = lw_get_u64(&r), differ = lw_get_u64(&r);
    int64_t first = (int64_t)lw_get_u64(&r), end = (int64_t)lw_get_u64(&r);
    int64_t lost = (int64_t)lw_get_u64(&r);
    if (r.bad || head[0] != LW_RT_MAGIC || head[1] > LW_MAX_METRICS || first != t->end_rank ||
        end < first)
        return -1;
    size_t nm = head[1];
    int same_metrics = nm == t->nmetrics && names == t->metric_names;
    lw_strings sc = {{0}, {0}};
    /* Read through first: a tree cut short or garbled is left out whole,
     * never half merged. Merging fails after that only without memory. */
    int rc = lw_get_nodes(t, r, nm, same_metrics, 0, &sc);
    if (rc == 0) {
        if (!same_metrics || differ)
            t->metrics_differ = 1;
        ++t->round;
        rc = lw_get_nodes(t, r, nm, same_metrics, 1, &sc);
    }
    for (int i = 0; i < LW_S_N; i++)
        free(sc.s[i]);
    if (rc == 0) {
        lw_mark_absent(&t->root, t->round, first);
        t->end_rank = end;
        t->lost += lost;
    }
    return rc;
}

void lw_rtree_lost(lw_rtree *t, int64_t first, int64_t end)
{
    lw_mark_absent(&t->root, ++t->round, first);
    t->lost += end - first;
    t->end_rank = end;
}

int lw_rtree_merge_at(lw_rtree *t, const char *buf, size_t len)
{
    /* The range, as lw_rtree_pack writes it after the magic, the number
     * of metrics, their names' hash and the flag. */
    int64_t range[2];
    if (len < 24 + sizeof range)
        return -1;
    memcpy(range, buf + 24, sizeof range);
    if (range[0] < 0 || range[1] <= range[0])
        return -1;
    if (range[0] < t->end_rank)
        return 1;
    if (range[0] > t->end_rank)
        lw_rtree_lost(t, t->end_rank, range[0]);
    return lw_rtree_merge(t, buf, len) < 0 ? -1 : 0;
}

void lw_rtree_end_at(lw_rtree *t, int64_t end)
{
    if (t->end_rank < end)
        lw_rtree_lost(t, t->end_rank, end);
}

/* ---- the job's profile.json and profile.txt ------------------------------ */

/* A per-rank value over the job: a rank without the node counts 0. */
static void lw_json_rstat(lw_json *j, const char *key, const lw_rstat *s, const lw_rnode *n, long size)
{
    uint64_t min = s->min_rank >= 0 ? s->min : 0;
    int64_t min_rank = s->min_rank;
    if (n->absent >= 0 && (min > 0 || min_rank < 0 || n->absent < min_rank)) {
        min = 0;
        min_rank = n->absent;
    }
    lw_json_object(j, key);
    lw_json_uint(j, LWP_KEY(min), min);
    lw_json_int(j, LWP_KEY(min_rank), min_rank);
    lw_json_double(j, LWP_KEY(mean), size > 0 ? (double)s->sum / (double)size : 0);
    lw_json_uint(j, LWP_KEY(max), s->max);
    lw_json_int(j, LWP_KEY(max_rank), s->max_rank);
    lw_json_end(j);
}

static void lw_json_rnode(lw_json *j, const lw_rtree *t, const lw_rnode *n, long size, int flat)
{
    lw_json_string(j, LWP_KEY(symbol), n->symbol);
    lw_json_string(j, LWP_KEY(name), n->name);
    if (flat) {
        lw_json_string(j, LWP_KEY(file), n->file);
        lw_json_int(j, LWP_KEY(line), n->line);
    }
    lw_json_uint(j, LWP_KEY(visits), n->visits);
    lw_json_uint(j, LWP_KEY(inclusive_ns), n->incl);
    lw_json_uint(j, LWP_KEY(exclusive_ns), n->excl);
    lw_json_uint(j, LWP_KEY(min_ns), n->visits ? n->min : 0);
    lw_json_uint(j, LWP_KEY(max_ns), n->max);
    lw_json_object(j, LWP_KEY(metrics));
    for (size_t i = 0; !t->metrics_differ && i < t->nmetrics; i++)
        lw_json_double(j, lw_metric_info(i)->name, n->metrics[i]);
    lw_json_end(j);
    lw_json_object(j, LWP_KEY(ranks));
    lw_json_int(j, LWP_KEY(called), n->called);
    lw_json_rstat(j, LWP_KEY(visits), &n->st[LW_RS_VISITS], n, size);
    lw_json_rstat(j, LWP_KEY(exclusive_ns), &n->st[LW_RS_EXCL], n, size);
    lw_json_rstat(j, LWP_KEY(inclusive_ns), &n->st[LW_RS_INCL], n, size);
    lw_json_end(j);
    /* As a process's profile.json has them, over all ranks. */
    if (n->nargs)
        lw_argouts_json(j, n->args, n->nargs);
}

static void lw_json_paths(lw_json *j, const lw_rtree *t, const lw_rnode *n, long size)
{
    for (const lw_rnode *c = n->first; c; c = c->next) {
        lw_json_object(j, NULL);
        lw_json_rnode(j, t, c, size, 0);
        lw_json_array(j, LWP_KEY(children));
        lw_json_paths(j, t, c, size);
        lw_json_end(j);
        lw_json_end(j);
    }
}

static int lw_rnode_cmp(const void *a, const void *b)
{
    const lw_rnode *x = *(lw_rnode *const *)a, *y = *(lw_rnode *const *)b;
    if (x->excl != y->excl)
        return x->excl < y->excl ? 1 : -1;
    return strcmp(x->symbol, y->symbol);
}

static lw_rnode *lw_root_child(const lw_rtree *t, const char *sym)
{
    for (lw_rnode *c = t->root.first; c; c = c->next)
        if (strcmp(c->symbol, sym) == 0)
            return c;
    return NULL;
}

static char *lw_path_in(const char *dir, const char *name)
{
    char *p;
    return asprintf(&p, "%s/%s", dir, name) < 0 ? NULL : p;
}

static int lw_write_json(const lw_rtree *t, lw_rnode **funcs, size_t nf, const lw_rnode *paths,
                         const char *path, long size)
{
    const lw_job *job = &lw_job_info;
    lw_json *j = malloc(sizeof *j);
    lw_out o;
    FILE *f = j ? lw_out_open(&o) : NULL;
    if (!f) {
        free(j);
        return -1;
    }
    lw_json_init(j, f);
    lw_json_object(j, NULL);
    lw_json_int(j, LWP_KEY(libwrap_profile), LWP_FORMAT_VERSION);
    lw_json_string(j, LWP_KEY(program), lw_program_name());
    lw_json_int(j, LWP_KEY(pid), getpid());
    lw_json_int(j, LWP_KEY(rank), 0);
    lw_json_int(j, LWP_KEY(size), size);
    lw_json_string(j, LWP_KEY(host), job->host);
    lw_json_string(j, LWP_KEY(launcher), job->launcher);
    lw_json_string(j, LWP_KEY(job), job->id);
    lw_json_string(j, LWP_KEY(timer), lw_timer_name());
    /* What makes this the job's profile rather than one process's. */
    lw_json_object(j, LWP_KEY(reduced));
    lw_json_int(j, LWP_KEY(ranks), size);
    lw_json_int(j, LWP_KEY(ranks_reduced), t->end_rank - t->first_rank - t->lost);
    lw_json_string(j, LWP_KEY(at), lw_reduced_at());
    lw_json_bool(j, LWP_KEY(metrics_differ), t->metrics_differ);
    lw_json_end(j);
    lw_json_metric_defs(j, t->metrics_differ ? 0 : t->nmetrics);
    lw_json_array(j, LWP_KEY(functions));
    for (size_t i = 0; i < nf; i++) {
        lw_json_object(j, NULL);
        lw_json_rnode(j, t, funcs[i], size, 1);
        lw_json_end(j);
    }
    lw_json_end(j);
    /* One call tree: every rank's threads folded into the job's paths. */
    lw_json_array(j, LWP_KEY(threads));
    lw_json_object(j, NULL);
    lw_json_int(j, LWP_KEY(id), 0);
    lw_json_string(j, LWP_KEY(label), "all ranks and threads");
    lw_json_array(j, LWP_KEY(callpath));
    if (paths)
        lw_json_paths(j, t, paths, size);
    lw_json_end(j);
    lw_json_end(j);
    lw_json_end(j);
    int rc = lw_json_finish(j);
    free(j);
    if (lw_out_write(&o, path) != 0)
        rc = -1;
    return rc;
}

static int lw_write_txt(lw_rnode **funcs, size_t nf, const char *path, long size)
{
    const lw_job *job = &lw_job_info;
    lw_out o;
    FILE *f = lw_out_open(&o);
    if (!f)
        return -1;
    fprintf(f, "libwrap profile of %s: %s job %s, %ld ranks, reduced at %s, timer %s\n\n",
            lw_program_name(), job->launcher, job->id, size, lw_reduced_at(), lw_timer_name());
    fprintf(f, "%14s %14s %14s %9s %24s %14s %24s  %s\n", "visits", "incl_us", "excl_us", "ranks",
            "excl_us/rank min @rank", "mean", "max @rank", "function");
    for (size_t i = 0; i < nf; i++) {
        const lw_rnode *n = funcs[i];
        const lw_rstat *s = &n->st[LW_RS_EXCL];
        uint64_t min = s->min_rank >= 0 ? s->min : 0;
        int64_t min_rank = s->min_rank;
        if (n->absent >= 0 && (min > 0 || min_rank < 0 || n->absent < min_rank)) {
            min = 0;
            min_rank = n->absent;
        }
        char ranks[32];
        snprintf(ranks, sizeof ranks, "%lld/%ld", (long long)n->called, size);
        fprintf(f, "%14llu %14.3f %14.3f %9s %17.3f @%-6lld %14.3f %17.3f @%-6lld  %s\n",
                (unsigned long long)n->visits, (double)n->incl / 1e3, (double)n->excl / 1e3, ranks,
                (double)min / 1e3, (long long)min_rank, (double)s->sum / 1e3 / (double)size,
                (double)s->max / 1e3, (long long)s->max_rank, n->name);
    }
    int header = 0;
    for (size_t i = 0; i < nf; i++)
        if (funcs[i]->nargs)
            lw_argouts_txt(f, &header, funcs[i]->name, funcs[i]->args, funcs[i]->nargs);
    return lw_out_write(&o, path);
}

int lw_rtree_write(lw_rtree *t, const char *dir, long size)
{
    locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    locale_t old = c ? uselocale(c) : (locale_t)0;
    const lw_rnode *fr = lw_root_child(t, LW_RT_FUNCS), *paths = lw_root_child(t, LW_RT_PATHS);
    size_t nf = 0;
    for (const lw_rnode *n = fr ? fr->first : NULL; n; n = n->next)
        nf++;
    lw_rnode **funcs = calloc(nf ? nf : 1, sizeof *funcs);
    char *json = lw_path_in(dir, "profile.json"), *txt = lw_path_in(dir, "profile.txt");
    int rc = -1;
    if (funcs && json && txt) {
        size_t k = 0;
        for (lw_rnode *n = fr ? fr->first : NULL; n; n = n->next)
            funcs[k++] = n;
        qsort(funcs, nf, sizeof *funcs, lw_rnode_cmp);
        rc = lw_write_json(t, funcs, nf, paths, json, size);
        if (rc == 0)
            rc = lw_write_txt(funcs, nf, txt, size);
        if (rc < 0)
            lw_warn("cannot write the job's profile into %s: %s", dir, strerror(errno));
    }
    free(funcs);
    free(json);
    free(txt);
    if (c) {
        uselocale(old);
        freelocale(c);
    }
    return rc;
}
