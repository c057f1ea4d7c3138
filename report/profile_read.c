/*
 * profile_read.c - loads DIR/profile.json (SPEC §5) with json-c.
 *
 * The file comes from a measured program that may have been killed while
 * writing it, or the user may point us at some other JSON: every key is
 * checked for type, and a message names the file, the JSON path and what to
 * do, instead of trusting the structure.
 *
 * Call paths nest two JSON levels per call (the node and its "children")
 * and may be tens of thousands of calls deep (LWR_MAX_CALL_DEPTH): nothing
 * here recurses along them, json-c's own recursive free included
 * (json_release).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "profile_format.h"
#include "report.h"

typedef struct {
    lwr_profile *p;
    const char *path;
} ctx;

static int fail(const ctx *c, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: %s: ", LWR_PROG, c->path);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return -1;
}

char *lwr_xstrdup(const char *s)
{
    char *r = strdup(s ? s : "");
    if (!r) {
        perror(LWR_PROG);
        exit(1);
    }
    return r;
}

void *lwr_xcalloc(size_t n, size_t sz)
{
    void *r = calloc(n ? n : 1, sz);
    if (!r) {
        perror(LWR_PROG);
        exit(1);
    }
    return r;
}

void *lwr_xrealloc(void *p, size_t n)
{
    void *r = realloc(p, n ? n : 1);
    if (!r) {
        perror(LWR_PROG);
        exit(1);
    }
    return r;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        cap *= 2;
        char *nb = realloc(buf, cap + 1);
        if (!nb)
            free(buf);
        buf = nb;
    }
    int err = ferror(f);
    fclose(f);
    if (!buf || err) {
        free(buf);
        errno = err ? EIO : ENOMEM;
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

static const char *get_str(json_object *o, const char *key)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
        return NULL;
    return json_object_get_string(v);
}

/* A non-negative number under `key`: 1 found, 0 absent, -1 wrong type. */
static int get_u64(json_object *o, const char *key, uint64_t *out)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) || json_object_is_type(v, json_type_null))
        return 0;
    if (json_object_is_type(v, json_type_int)) {
        int64_t i = json_object_get_int64(v);
        /* Values above INT64_MAX parse as unsigned; get_uint64 keeps them. */
        *out = i < 0 ? 0 : (uint64_t)json_object_get_uint64(v);
        return 1;
    }
    if (json_object_is_type(v, json_type_double)) {
        double d = json_object_get_double(v);
        /* json-c reads NaN and Infinity, which JSON has not and the runtime
         * never writes (it writes null): a damaged file, and no count. */
        if (!isfinite(d))
            return -1;
        /* A damaged file may hold 1e300, which no cast may take: saturate. */
        *out = !(d > 0) ? 0 : d >= 0x1p64 ? UINT64_MAX : (uint64_t)d;
        return 1;
    }
    return -1;
}

/* A number (int or double), finite: json-c's NaN and Infinity are not. */
static int is_number(json_object *v)
{
    return json_object_is_type(v, json_type_int) ||
           (json_object_is_type(v, json_type_double) && isfinite(json_object_get_double(v)));
}

/* An integer member without a type check of its own (a line, a pid, a
 * rank): `def` when absent or null; -1 after the message for NaN or
 * Infinity, which no cast to an integer takes. `where` "" at the top. */
static int get_i64(const ctx *c, json_object *o, const char *key, const char *where, int64_t def, int64_t *out)
{
    json_object *v;
    *out = def;
    if (!json_object_object_get_ex(o, key, &v) || json_object_is_type(v, json_type_null))
        return 0;
    if (json_object_is_type(v, json_type_double) && !isfinite(json_object_get_double(v)))
        return fail(c, "%s%s%s: expected a number", where, *where ? "." : "", key);
    *out = json_object_get_int64(v);
    return 0;
}

static int metric_index(lwr_profile *p, const char *name, int add)
{
    for (size_t i = 0; i < p->nmetrics; i++)
        if (strcmp(p->metrics[i].name, name) == 0)
            return (int)i;
    if (!add)
        return -1;
    lwr_metric *m = realloc(p->metrics, (p->nmetrics + 1) * sizeof *m);
    if (!m) {
        perror(LWR_PROG);
        exit(1);
    }
    p->metrics = m;
    m[p->nmetrics].name = lwr_xstrdup(name);
    m[p->nmetrics].unit = lwr_xstrdup("");
    return (int)p->nmetrics++;
}

/* A stack that grows by doubling (the walks below keep theirs on the heap). */
#define PUSH(st, n, cap, ...)                                      \
    do {                                                           \
        if ((n) == (cap)) {                                        \
            (cap) = (cap) ? 2 * (cap) : 64;                        \
            (st) = lwr_xrealloc((st), (cap) * sizeof *(st));       \
        }                                                          \
        (st)[(n)++] = (__typeof__(*(st))){__VA_ARGS__};            \
    } while (0)

/* Drops a json-c tree without recursion. json_object_put frees the
 * containers inside a container recursively, several C frames a level: at
 * a call path some ten thousand calls deep that overflows the stack. Each
 * container's own containers are taken first (a reference each), so its
 * put frees one level only; they are dropped in turn. */
static void json_release(json_object *root)
{
    json_object **st = NULL;
    size_t n = 0, cap = 0;
    if (root)
        PUSH(st, n, cap, root);
    while (n) {
        json_object *o = st[--n];
        if (json_object_is_type(o, json_type_object)) {
            json_object_object_foreach(o, k, v)
            {
                (void)k;
                if ((json_object_is_type(v, json_type_object) && json_object_object_length(v)) ||
                    (json_object_is_type(v, json_type_array) && json_object_array_length(v)))
                    PUSH(st, n, cap, json_object_get(v));
            }
        } else if (json_object_is_type(o, json_type_array)) {
            for (size_t i = 0, len = json_object_array_length(o); i < len; i++) {
                json_object *v = json_object_array_get_idx(o, i);
                if ((json_object_is_type(v, json_type_object) && json_object_object_length(v)) ||
                    (json_object_is_type(v, json_type_array) && json_object_array_length(v)))
                    PUSH(st, n, cap, json_object_get(v));
            }
        }
        json_object_put(o);
    }
    free(st);
}

/* First pass: metrics named in entries but missing from the "metrics"
 * list, in the order a depth-first walk meets them (the columns' order). */
static void collect_metric_names(lwr_profile *p, json_object *entries)
{
    struct {
        json_object *a;
        size_t i;
    } *st = NULL;
    size_t n = 0, cap = 0;
    PUSH(st, n, cap, entries, 0);
    while (n) {
        json_object *a = st[n - 1].a, *m, *ch;
        size_t i = st[n - 1].i++;
        if (i >= json_object_array_length(a)) {
            n--;
            continue;
        }
        json_object *e = json_object_array_get_idx(a, i);
        if (!json_object_is_type(e, json_type_object))
            continue;
        if (json_object_object_get_ex(e, LWP_KEY(metrics), &m) && json_object_is_type(m, json_type_object)) {
            json_object_object_foreach(m, k, v)
            {
                (void)v;
                metric_index(p, k, 1);
            }
        }
        if (json_object_object_get_ex(e, LWP_KEY(children), &ch) && json_object_is_type(ch, json_type_array))
            PUSH(st, n, cap, ch, 0);
    }
    free(st);
}

static int read_metrics(const ctx *c, json_object *e, const char *where, double **out)
{
    json_object *m;
    *out = lwr_xcalloc(c->p->nmetrics, sizeof **out);
    if (!json_object_object_get_ex(e, LWP_KEY(metrics), &m) || json_object_is_type(m, json_type_null))
        return 0;
    if (!json_object_is_type(m, json_type_object))
        return fail(c, "%s.metrics: expected an object of metric totals", where);
    json_object_object_foreach(m, k, v)
    {
        if (!is_number(v))
            return fail(c, "%s.metrics.%s: expected a number", where, k);
        (*out)[metric_index(c->p, k, 0)] = json_object_get_double(v);
    }
    return 0;
}

/* The counters every function and call-path entry carries. */
static int read_counts(const ctx *c, json_object *e, const char *where, uint64_t *visits, uint64_t *incl,
                       uint64_t *excl, uint64_t *min, uint64_t *max, int *has_minmax)
{
#define REQUIRED(key) LWP_KEY(key),
    const char *required[] = {LWP_REQUIRED_COUNTS(REQUIRED)};
#undef REQUIRED
    uint64_t *dst[] = {visits, incl, excl};
    for (size_t i = 0; i < sizeof required / sizeof *required; i++) {
        int r = get_u64(e, required[i], dst[i]);
        if (r == 0)
            return fail(c, "%s: missing \"%s\"; is the profile complete?", where, required[i]);
        if (r < 0)
            return fail(c, "%s.%s: expected a number", where, required[i]);
    }
    int a = get_u64(e, LWP_KEY(min_ns), min), b = get_u64(e, LWP_KEY(max_ns), max);
    if (a < 0 || b < 0)
        return fail(c, "%s: min_ns/max_ns must be numbers", where);
    *has_minmax = a > 0 && b > 0;
    return 0;
}

/* One call-path node's own members; *children: its "children" array when it
 * has any (n->children allocated for them), else NULL. */
static int read_one(const ctx *c, json_object *e, const char *where, lwr_node *n, json_object **children)
{
    *children = NULL;
    if (!json_object_is_type(e, json_type_object))
        return fail(c, "%s: expected an object", where);
    const char *sym = get_str(e, LWP_KEY(symbol)), *name = get_str(e, LWP_KEY(name));
    if (!sym)
        return fail(c, "%s: missing \"symbol\" string", where);
    n->symbol = lwr_xstrdup(sym);
    n->name = lwr_xstrdup(lwr_display_name(name, sym));
    if (read_counts(c, e, where, &n->visits, &n->inclusive_ns, &n->exclusive_ns, &n->min_ns, &n->max_ns,
                    &n->has_minmax) ||
        read_metrics(c, e, where, &n->metrics))
        return -1;
    json_object *ch;
    if (!json_object_object_get_ex(e, LWP_KEY(children), &ch) || json_object_is_type(ch, json_type_null))
        return 0;
    if (!json_object_is_type(ch, json_type_array))
        return fail(c, "%s.children: expected an array", where);
    n->nchildren = json_object_array_length(ch);
    n->children = lwr_xcalloc(n->nchildren, sizeof *n->children);
    if (n->nchildren)
        *children = ch;
    return 0;
}

/* A call path and everything below it, depth first without recursion.
 * `where` is kept in one buffer: a node's is the first 200 characters of
 * its parent's and ".children[I]"; the parent's first 200 are a prefix of
 * every descendant's, so each level keeps only their length. */
static int read_tree(const ctx *c, json_object *e, const char *top, lwr_node *n)
{
    char where[256];
    json_object *ch;
    snprintf(where, sizeof where, "%s", top);
    if (read_one(c, e, where, n, &ch))
        return -1;
    struct {
        json_object *ch;
        lwr_node *n;
        size_t next, plen;
    } *st = NULL;
    size_t depth = 0, cap = 0; /* the levels open: the node of st[d] is at level d + 1 */
    int rc = 0;
    if (ch)
        PUSH(st, depth, cap, ch, n, 0, strlen(where) < 200 ? strlen(where) : 200);
    while (depth) {
        lwr_node *parent = st[depth - 1].n;
        size_t i = st[depth - 1].next++;
        if (i == parent->nchildren) {
            depth--;
            continue;
        }
        if (depth + 1 > LWR_MAX_CALL_DEPTH) {
            rc = fail(c, "%s: call paths deeper than %d levels, more than %s reads", top, LWR_MAX_CALL_DEPTH,
                      LWR_PROG);
            break;
        }
        json_object *ce = json_object_array_get_idx(st[depth - 1].ch, i);
        snprintf(where + st[depth - 1].plen, sizeof where - st[depth - 1].plen, ".children[%zu]", i);
        if (read_one(c, ce, where, &parent->children[i], &ch)) {
            rc = -1;
            break;
        }
        if (ch)
            PUSH(st, depth, cap, ch, &parent->children[i], 0, strlen(where) < 200 ? strlen(where) : 200);
    }
    free(st);
    return rc;
}

/* One per-rank statistic of a reduced job profile: {"min", "min_rank",
 * "mean", "max", "max_rank"}. */
static int read_rank_stat(const ctx *c, json_object *ranks, const char *key, const char *where,
                          lwr_rank_stat *s)
{
    json_object *o, *v;
    if (!json_object_object_get_ex(ranks, key, &o) || !json_object_is_type(o, json_type_object))
        return fail(c, "%s.ranks: missing \"%s\" object", where, key);
    uint64_t u;
    if (get_u64(o, LWP_KEY(min), &u) <= 0)
        return fail(c, "%s.ranks.%s: missing \"min\"", where, key);
    s->min = u;
    if (get_u64(o, LWP_KEY(max), &u) <= 0)
        return fail(c, "%s.ranks.%s: missing \"max\"", where, key);
    s->max = u;
    s->mean = 0;
    if (json_object_object_get_ex(o, LWP_KEY(mean), &v) && !json_object_is_type(v, json_type_null)) {
        if (!is_number(v))
            return fail(c, "%s.ranks.%s.mean: expected a number", where, key);
        s->mean = json_object_get_double(v);
    }
    char at[96];
    snprintf(at, sizeof at, "%s.ranks.%s", where, key);
    if (get_i64(c, o, LWP_KEY(min_rank), at, -1, &s->min_rank) || get_i64(c, o, LWP_KEY(max_rank), at, -1, &s->max_rank))
        return -1;
    return 0;
}

/* The job's reduced profile (docs/mpi.md): "reduced" at the top, and each
 * function's per-rank statistics under "ranks". */
static int read_reduced(const ctx *c, json_object *root)
{
    lwr_profile *p = c->p;
    json_object *red, *funcs, *v;
    if (!json_object_object_get_ex(root, LWP_KEY(reduced), &red) || !json_object_is_type(red, json_type_object))
        return 0;
    p->reduced = 1;
    p->is_job = 1;
    snprintf(p->reduced_at, sizeof p->reduced_at, "%s",
             json_object_object_get_ex(red, "at", &v) && json_object_is_type(v, json_type_string)
                 ? json_object_get_string(v)
                 : "MPI_Finalize");
    p->rank = -1;
    int64_t n;
    if (get_i64(c, red, LWP_KEY(ranks_reduced), "reduced", p->size, &n))
        return -1;
    p->nranks = n > 0 ? (size_t)n : 0;
    json_object_object_get_ex(root, LWP_KEY(functions), &funcs);
    for (size_t i = 0; i < p->nfuncs; i++) {
        json_object *e = json_object_array_get_idx(funcs, i), *ranks;
        char where[64];
        snprintf(where, sizeof where, "functions[%zu]", i);
        if (!json_object_object_get_ex(e, LWP_KEY(ranks), &ranks) || !json_object_is_type(ranks, json_type_object))
            continue;
        lwr_func *f = &p->funcs[i];
        f->has_rank_stats = 1;
        int64_t called;
        char at[80];
        snprintf(at, sizeof at, "%s.ranks", where);
        if (get_i64(c, ranks, LWP_KEY(called), at, 0, &called))
            return -1;
        f->ranks_called = (uint64_t)called;
        if (read_rank_stat(c, ranks, LWP_KEY(visits), where, &f->rank_visits) ||
            read_rank_stat(c, ranks, LWP_KEY(exclusive_ns), where, &f->rank_exclusive))
            return -1;
    }
    return 0;
}

static int read_profile(const ctx *c, json_object *root)
{
    lwr_profile *p = c->p;
    json_object *funcs, *threads, *metrics;
    char where[64];

    if (!json_object_is_type(root, json_type_object) || !json_object_object_get_ex(root, LWP_KEY(functions), &funcs) ||
        !json_object_is_type(funcs, json_type_array))
        return fail(c, "not a libwrap profile (no \"functions\" array)");
    p->program = lwr_xstrdup(get_str(root, LWP_KEY(program)));
    p->timer = lwr_xstrdup(get_str(root, LWP_KEY(timer)));
    json_object *v;
    if (get_i64(c, root, LWP_KEY(pid), "", 0, &p->pid))
        return -1;
    /* A process of a job says which (SPEC §6); older profiles do not. */
    p->rank = json_object_object_get_ex(root, LWP_KEY(rank), &v) && json_object_is_type(v, json_type_int)
                  ? json_object_get_int64(v)
                  : 0;
    p->size = json_object_object_get_ex(root, LWP_KEY(size), &v) && json_object_is_type(v, json_type_int)
                  ? json_object_get_int64(v)
                  : 1;
    p->host = lwr_xstrdup(get_str(root, LWP_KEY(host)));
    p->launcher = lwr_xstrdup(get_str(root, LWP_KEY(launcher)));
    p->job = lwr_xstrdup(get_str(root, LWP_KEY(job)));

    if (json_object_object_get_ex(root, LWP_KEY(metrics), &metrics) && json_object_is_type(metrics, json_type_array)) {
        for (size_t i = 0; i < json_object_array_length(metrics); i++) {
            json_object *m = json_object_array_get_idx(metrics, i);
            const char *name = get_str(m, LWP_KEY(name)), *unit = get_str(m, LWP_KEY(unit)), *mode = get_str(m, LWP_KEY(mode));
            if (!name)
                return fail(c, "metrics[%zu]: missing \"name\"", i);
            if (mode && strcmp(mode, LWP_MODE_ABSOLUTE) != 0 && strcmp(mode, LWP_MODE_ACCUMULATED) != 0)
                return fail(c, "metrics[%zu].mode: expected \"" LWP_MODE_ACCUMULATED "\" or \"" LWP_MODE_ABSOLUTE
                               "\", not \"%s\"",
                            i, mode);
            int k = metric_index(p, name, 1);
            free(p->metrics[k].unit);
            p->metrics[k].unit = lwr_xstrdup(unit);
            p->metrics[k].absolute = mode && strcmp(mode, LWP_MODE_ABSOLUTE) == 0;
        }
    }
    int has_threads = json_object_object_get_ex(root, LWP_KEY(threads), &threads) &&
                      json_object_is_type(threads, json_type_array);
    collect_metric_names(p, funcs);
    if (has_threads)
        for (size_t i = 0; i < json_object_array_length(threads); i++) {
            json_object *cp, *t = json_object_array_get_idx(threads, i);
            if (json_object_object_get_ex(t, LWP_KEY(callpath), &cp) && json_object_is_type(cp, json_type_array))
                collect_metric_names(p, cp);
        }

    p->nfuncs = json_object_array_length(funcs);
    p->funcs = lwr_xcalloc(p->nfuncs, sizeof *p->funcs);
    for (size_t i = 0; i < p->nfuncs; i++) {
        json_object *e = json_object_array_get_idx(funcs, i);
        lwr_func *f = &p->funcs[i];
        snprintf(where, sizeof where, "functions[%zu]", i);
        if (!json_object_is_type(e, json_type_object))
            return fail(c, "%s: expected an object", where);
        const char *sym = get_str(e, LWP_KEY(symbol)), *name = get_str(e, LWP_KEY(name));
        if (!sym)
            return fail(c, "%s: missing \"symbol\" string", where);
        f->symbol = lwr_xstrdup(sym);
        f->name = lwr_xstrdup(lwr_display_name(name, sym));
        f->file = lwr_xstrdup(get_str(e, LWP_KEY(file)));
        if (get_i64(c, e, LWP_KEY(line), where, 0, &f->line))
            return -1;
        if (read_counts(c, e, where, &f->visits, &f->inclusive_ns, &f->exclusive_ns, &f->min_ns, &f->max_ns,
                        &f->has_minmax) ||
            read_metrics(c, e, where, &f->metrics))
            return -1;
        json_object *thr, *sampled;
        if (json_object_object_get_ex(e, LWP_KEY(throttled), &thr) && json_object_is_type(thr, json_type_object) &&
            json_object_object_get_ex(thr, LWP_KEY(sampled), &sampled) && json_object_is_type(sampled, json_type_string))
            f->throttled = lwr_xstrdup(json_object_get_string(sampled));
        const char *why = NULL;
        if (lwr_args_parse(e, &f->args, &f->nargs, &why))
            return fail(c, "%s.arguments: %s", where, why);
    }

    if (read_reduced(c, root))
        return -1;
    if (!has_threads)
        return 0;
    p->nthreads = json_object_array_length(threads);
    p->threads = lwr_xcalloc(p->nthreads, sizeof *p->threads);
    for (size_t i = 0; i < p->nthreads; i++) {
        json_object *t = json_object_array_get_idx(threads, i), *cp;
        lwr_thread *th = &p->threads[i];
        snprintf(where, sizeof where, "threads[%zu]", i);
        if (!json_object_is_type(t, json_type_object))
            return fail(c, "%s: expected an object", where);
        if (get_i64(c, t, LWP_KEY(id), where, (int64_t)i, &th->id))
            return -1;
        th->rank = p->reduced ? LWR_ALL_RANKS : -1;
        th->root.symbol = lwr_xstrdup("");
        th->root.name = lwr_xstrdup("");
        th->root.metrics = lwr_xcalloc(p->nmetrics, sizeof(double));
        if (!json_object_object_get_ex(t, LWP_KEY(callpath), &cp) || json_object_is_type(cp, json_type_null))
            continue;
        if (!json_object_is_type(cp, json_type_array))
            return fail(c, "%s.callpath: expected an array", where);
        th->root.nchildren = json_object_array_length(cp);
        th->root.children = lwr_xcalloc(th->root.nchildren, sizeof(lwr_node));
        for (size_t k = 0; k < th->root.nchildren; k++) {
            char sub[96];
            snprintf(sub, sizeof sub, "%s.callpath[%zu]", where, k);
            if (read_tree(c, json_object_array_get_idx(cp, k), sub, &th->root.children[k]))
                return -1;
            th->root.inclusive_ns += th->root.children[k].inclusive_ns;
        }
    }
    return 0;
}

/* A string member "KEY" that was not UTF-8 was written with U+FFFD and is
 * followed by "KEY_bytes", its bytes in hex (common/utf8.h): put the bytes
 * back into "KEY", everywhere below o, so that the report shows and writes
 * what was recorded. */
static void restore_bytes(json_object *root)
{
    json_object **st = NULL;
    size_t n = 0, cap = 0;
    PUSH(st, n, cap, root);
    while (n) {
        json_object *o = st[--n];
        if (json_object_is_type(o, json_type_array)) {
            for (size_t i = 0, len = json_object_array_length(o); i < len; i++)
                PUSH(st, n, cap, json_object_array_get_idx(o, i));
            continue;
        }
        if (!json_object_is_type(o, json_type_object))
            continue;
        json_object_object_foreach(o, key, v)
        {
            size_t kl = strlen(key);
            if (json_object_is_type(v, json_type_string) && kl > 6 && !strcmp(key + kl - 6, "_bytes")) {
                const char *hex = json_object_get_string(v);
                size_t nb = strlen(hex) / 2;
                char *raw = lwr_xcalloc(nb + 1, 1), *base = lwr_xstrdup(key);
                base[kl - 6] = 0;
                size_t k = 0;
                for (; k < nb; k++) {
                    unsigned b;
                    if (sscanf(hex + 2 * k, "%2x", &b) != 1 || !b)
                        break;
                    raw[k] = (char)b;
                }
                json_object *orig;
                if (k == nb && json_object_object_get_ex(o, base, &orig) &&
                    json_object_is_type(orig, json_type_string))
                    json_object_set_string_len(orig, raw, (int)nb);
                free(raw);
                free(base);
            } else if (json_object_is_type(v, json_type_object) || json_object_is_type(v, json_type_array))
                PUSH(st, n, cap, v);
        }
    }
    free(st);
}

/* Whether JSON nested too deep at `off` is a call path's: a node's
 * "children" opened just before (the runtime indents at most 128 levels). */
static int deep_callpath(const char *text, size_t off)
{
    char key[64];
    int n = snprintf(key, sizeof key, "\"%s\"", LWP_KEY(children));
    size_t from = off > 1024 ? off - 1024 : 0;
    return n > 0 && memmem(text + from, off - from, key, (size_t)n) != NULL;
}

/* Frees the tokener and, when it stopped inside the text (an error, a
 * truncated file), the containers it had begun, without recursion: one of
 * them may hold a whole call path already read. json-c keeps them in its
 * stack of levels (struct json_tokener_srec, public in json-c 0.13 to
 * 0.18); each level's is its own tree (a value joins its parent when
 * complete). */
static void tokener_free(json_tokener *tok)
{
    for (int d = tok->depth; d >= 0; d--) {
        json_object *cur = tok->stack[d].current;
        tok->stack[d].current = NULL;
        json_release(cur);
    }
    json_tokener_free(tok);
}

int lwr_profile_parse(lwr_profile *p, const char *text, size_t len, const char *path)
{
    ctx c = {p, path};
    memset(p, 0, sizeof *p);
    p->path = lwr_xstrdup(path);
    if (len == 0)
        return fail(&c, "empty file; the measured program probably did not finish writing it");
    /* json-c takes an int length. */
    if (len > INT_MAX)
        return fail(&c, "too large for a profile (%zu bytes)", len);
    /* Two JSON levels a call (the node, its "children"), the few above the
     * call paths and the few inside a node (metrics, arguments): a file
     * deeper than this has call paths deeper than LWR_MAX_CALL_DEPTH,
     * which read_tree refuses from LWR_MAX_CALL_DEPTH + 1 on. json-c
     * allocates its stack of levels at once, untouched past the file's
     * depth. */
    json_tokener *tok = json_tokener_new_ex(2 * LWR_MAX_CALL_DEPTH + 64);
    if (!tok)
        return fail(&c, "out of memory");
    json_object *root = json_tokener_parse_ex(tok, text, (int)len);
    enum json_tokener_error err = json_tokener_get_error(tok);
    size_t off = json_tokener_get_parse_end(tok);
    /* The text need not be NUL-terminated: bound the trailing-space scan. */
    size_t rest = off;
    while (rest < len && text[rest] && strchr(" \t\r\n", text[rest]))
        rest++;
    int rc = 0;
    if (err == json_tokener_continue)
        rc = fail(&c, "truncated JSON at byte %zu; the measured program probably did not finish writing it",
                  len);
    else if (err == json_tokener_error_depth && deep_callpath(text, off))
        rc = fail(&c, "call paths deeper than %d levels, more than %s reads (JSON nested too deep at byte %zu)",
                  LWR_MAX_CALL_DEPTH, LWR_PROG, off);
    else if (err != json_tokener_success)
        rc = fail(&c, "invalid JSON at byte %zu: %s", off, json_tokener_error_desc(err));
    else if (rest < len)
        rc = fail(&c, "invalid JSON at byte %zu: unexpected data after the profile", rest);
    else {
        if (memmem(text, len, "_bytes\"", 7))
            restore_bytes(root);
        rc = read_profile(&c, root);
        if (rc == 0)
            lwr_mark_throttled(p);
    }
    json_release(root);
    tokener_free(tok);
    return rc;
}

/* `name` beside `path` (in its directory), allocated. */
static char *lwr_beside(const char *path, const char *name)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) + 1 : 0, len = strlen(name);
    char *p = lwr_xcalloc(1, n + len + 1);
    memcpy(p, path, n);
    memcpy(p + n, name, len);
    return p;
}

static int lwr_beside_exists(const char *path, const char *name)
{
    char *p = lwr_beside(path, name);
    int there = access(p, F_OK) == 0;
    free(p);
    return there;
}

char *lwr_run_setting(const char *path, const char *setting)
{
    char *config = lwr_beside(path, "config.txt");
    FILE *f = fopen(config, "r");
    free(config);
    if (!f)
        return NULL;
    char line[4096], *value = NULL;
    size_t n = strlen(setting);
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, setting, n) && line[n] == '=') {
            line[strcspn(line, "\n")] = '\0';
            free(value);
            value = lwr_xstrdup(line + n + 1);
        }
    fclose(f);
    return value;
}

int lwr_dir_unfinished(const char *path, const char *setting)
{
    if (lwr_beside_exists(path, LWP_FILE) || lwr_beside_exists(path, "traces.otf2"))
        return 0;
    char *value = lwr_run_setting(path, setting);
    int on = value && !strncmp(value, "true", 4);
    free(value);
    return on;
}

int lwr_profile_load(lwr_profile *p, const char *path)
{
    size_t len = 0;
    char *text = read_file(path, &len);
    if (!text) {
        ctx c = {p, path};
        memset(p, 0, sizeof *p);
        p->path = lwr_xstrdup(path);
        if (errno == ENOENT && lwr_dir_unfinished(path, "LIBWRAP_ENABLE_PROFILING"))
            return fail(&c, "%s", LWR_UNFINISHED);
        if (errno == ENOENT)
            return fail(&c, "no such file; is this a libwrap experiment directory "
                            "(LIBWRAP_EXPERIMENT_DIRECTORY) with profiling on?");
        return fail(&c, "cannot read: %s", strerror(errno));
    }
    int rc = lwr_profile_parse(p, text, len, path);
    free(text);
    return rc;
}

void lwr_tree_walk(lwr_node *n, void (*pre)(lwr_node *, size_t, void *), void (*post)(lwr_node *, size_t, void *),
                   void *ud)
{
    struct {
        lwr_node *n;
        size_t next;
    } *st = NULL;
    size_t d = 0, cap = 0;
    if (pre)
        pre(n, 0, ud);
    PUSH(st, d, cap, n, 0);
    while (d) {
        lwr_node *top = st[d - 1].n;
        if (st[d - 1].next < top->nchildren) {
            lwr_node *k = &top->children[st[d - 1].next++];
            if (pre)
                pre(k, d, ud);
            PUSH(st, d, cap, k, 0);
        } else {
            d--;
            if (post)
                post(top, d, ud);
        }
    }
    free(st);
}

static void free_fields(lwr_node *n, size_t depth, void *ud)
{
    (void)depth, (void)ud;
    free(n->children);
    free(n->symbol);
    free(n->name);
    free(n->metrics);
    free(n->throttled);
}

static void free_node(lwr_node *n)
{
    lwr_tree_walk(n, NULL, free_fields, NULL);
}

void lwr_funcs_free(lwr_func *f, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(f[i].symbol);
        free(f[i].name);
        free(f[i].file);
        free(f[i].throttled);
        free(f[i].metrics);
        lwr_args_free(f[i].args, f[i].nargs);
    }
    free(f);
}

void lwr_profile_free(lwr_profile *p)
{
    lwr_funcs_free(p->funcs, p->nfuncs);
    for (size_t i = 0; i < p->nthreads; i++)
        free_node(&p->threads[i].root);
    free(p->threads);
    for (size_t i = 0; i < p->nmetrics; i++) {
        free(p->metrics[i].name);
        free(p->metrics[i].unit);
    }
    free(p->metrics);
    free(p->program);
    free(p->timer);
    free(p->path);
    free(p->host);
    free(p->launcher);
    free(p->job);
    for (size_t i = 0; i < p->nparts; i++)
        free(p->parts[i].host);
    free(p->parts);
    memset(p, 0, sizeof *p);
}

const char *lwr_display_name(const char *name, const char *symbol)
{
    return name && *name ? name : symbol ? symbol : "";
}

const char *lwr_thread_label(const lwr_thread *t, char buf[64])
{
    if (t->rank == LWR_ALL_RANKS)
        snprintf(buf, 64, "all ranks and threads");
    else if (t->rank < 0)
        snprintf(buf, 64, "thread %lld", (long long)t->id);
    else if (t->image)
        snprintf(buf, 64, "rank %lld (exec %lld) thread %lld", (long long)t->rank, (long long)t->image,
                 (long long)t->id);
    else
        snprintf(buf, 64, "rank %lld thread %lld", (long long)t->rank, (long long)t->id);
    return buf;
}

/* ---- per-thread flat rows ------------------------------------------------ */

typedef struct {
    const lwr_profile *p;
    lwr_func *rows;
    size_t n, cap;
    size_t *active; /* [cap]: how many of a row's calls are open on the path walked (recursion) */
    size_t *open;   /* the rows of the nodes on that path */
    size_t nopen, capopen;
} flat;

static lwr_func *row_for(flat *f, const lwr_node *node)
{
    for (size_t i = 0; i < f->n; i++)
        if (strcmp(f->rows[i].symbol, node->symbol) == 0)
            return &f->rows[i];
    if (f->n == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 16;
        f->rows = realloc(f->rows, f->cap * sizeof *f->rows);
        if (!f->rows) {
            perror(LWR_PROG);
            exit(1);
        }
        f->active = lwr_xrealloc(f->active, f->cap * sizeof *f->active);
    }
    f->active[f->n] = 0;
    lwr_func *r = &f->rows[f->n++];
    memset(r, 0, sizeof *r);
    r->symbol = lwr_xstrdup(node->symbol);
    r->name = lwr_xstrdup(node->name);
    r->metrics = lwr_xcalloc(f->p->nmetrics, sizeof(double));
    /* File and line live in the summed table only; a damaged profile may
     * list a symbol twice, and the first entry wins. */
    for (size_t i = 0; i < f->p->nfuncs; i++)
        if (strcmp(f->p->funcs[i].symbol, node->symbol) == 0) {
            r->file = lwr_xstrdup(f->p->funcs[i].file);
            r->line = f->p->funcs[i].line;
            break;
        }
    if (!r->file)
        r->file = lwr_xstrdup("");
    if (node->throttled)
        r->throttled = lwr_xstrdup(node->throttled);
    r->has_minmax = 1;
    r->min_ns = UINT64_MAX;
    return r;
}

/* A node met going down (lwr_tree_walk): its figures into its row. */
static void flatten_enter(lwr_node *node, size_t depth, void *ud)
{
    flat *f = ud;
    (void)depth;
    lwr_func *r = row_for(f, node);
    size_t row = (size_t)(r - f->rows);
    /* Its function is open above it on the path: a recursive call. */
    int recursive = f->active[row] > 0;
    f->active[row]++;
    PUSH(f->open, f->nopen, f->capopen, row);
    r->visits += node->visits;
    r->exclusive_ns += node->exclusive_ns;
    if (!recursive) {
        /* A node's inclusive time and metrics hold those of the activations
         * below it: only the outermost one counts (as in the runtime). */
        r->inclusive_ns += node->inclusive_ns;
        lwr_metrics_add(f->p, r->metrics, node->metrics);
    }
    if (node->has_minmax) {
        if (node->min_ns < r->min_ns)
            r->min_ns = node->min_ns;
        if (node->max_ns > r->max_ns)
            r->max_ns = node->max_ns;
    } else {
        r->has_minmax = 0;
    }
}

static void flatten_leave(lwr_node *node, size_t depth, void *ud)
{
    flat *f = ud;
    (void)node, (void)depth;
    f->active[f->open[--f->nopen]]--;
}

void lwr_metrics_add(const lwr_profile *p, double *to, const double *from)
{
    for (size_t m = 0; m < p->nmetrics; m++)
        if (p->metrics[m].absolute)
            to[m] = from[m] > to[m] ? from[m] : to[m];
        else
            to[m] += from[m];
}

static int cmp_func_symbol(const void *pa, const void *pb)
{
    const lwr_func *a = *(const lwr_func *const *)pa, *b = *(const lwr_func *const *)pb;
    return strcmp(a->symbol, b->symbol);
}

typedef struct {
    const lwr_func **by;
    size_t nby;
} marks;

static void mark_node(lwr_node *n, size_t depth, void *ud)
{
    const marks *m = ud;
    (void)depth;
    if (n->symbol) {
        lwr_func key = {.symbol = n->symbol};
        const lwr_func *k = &key, **hit = bsearch(&k, m->by, m->nby, sizeof *m->by, cmp_func_symbol);
        free(n->throttled);
        n->throttled = hit ? lwr_xstrdup((*hit)->throttled) : NULL;
    }
}

void lwr_mark_throttled(lwr_profile *p)
{
    size_t k = 0;
    for (size_t i = 0; i < p->nfuncs; i++)
        k += p->funcs[i].throttled != NULL;
    if (!k)
        return;
    const lwr_func **by = lwr_xcalloc(k, sizeof *by);
    k = 0;
    for (size_t i = 0; i < p->nfuncs; i++)
        if (p->funcs[i].throttled)
            by[k++] = &p->funcs[i];
    qsort(by, k, sizeof *by, cmp_func_symbol);
    marks m = {by, k};
    for (size_t t = 0; t < p->nthreads; t++)
        lwr_tree_walk(&p->threads[t].root, mark_node, NULL, &m);
    free(by);
}

static void deepest(lwr_node *n, size_t depth, void *ud)
{
    size_t *d = ud;
    (void)n;
    if (depth + 1 > *d)
        *d = depth + 1;
}

size_t lwr_tree_depth(const lwr_node *n)
{
    size_t d = 0;
    /* Read only: the walk's pointers are not const. */
    lwr_tree_walk((lwr_node *)n, deepest, NULL, &d);
    return d;
}

int lwr_thread_functions(const lwr_profile *p, const lwr_thread *t, lwr_func **out, size_t *n)
{
    flat f = {.p = p};
    for (size_t i = 0; i < t->root.nchildren; i++)
        lwr_tree_walk((lwr_node *)&t->root.children[i], flatten_enter, flatten_leave, &f);
    free(f.active);
    free(f.open);
    for (size_t i = 0; i < f.n; i++)
        if (!f.rows[i].has_minmax)
            f.rows[i].min_ns = 0;
    *out = f.rows;
    *n = f.n;
    return 0;
}
