/*
 * arguments_write.c - the recorded arguments in profile.json and
 * profile.txt (docs/arguments.md). Run by the finaliser, with every thread
 * out of the runtime: each function's blocks (one per call path node and
 * thread) are merged when its entry is written.
 *
 *   "arguments": [{"name", "type", "kind", "count",
 *                  numbers: "sum", "min", "max", "histogram": [{"lo", "hi", "count"}]
 *                  strings, enums: "values": [{"value", "count"}], "other"}]
 */
#include "core/arguments/arguments.h"
#include "core/base/json.h"
#include "profile_format.h"

#include <stdlib.h>
#include <string.h>

void lw_argnum_merge(lw_argnum *to, const lw_argnum *from, unsigned kind)
{
    int from_empty = from->count == from->nan, to_empty = to->count == to->nan;
    if (!from_empty) {
        switch (kind) {
        case LIBWRAP_PARAM_SIGNED:
            if (to_empty || from->min.i < to->min.i)
                to->min.i = from->min.i;
            if (to_empty || from->max.i > to->max.i)
                to->max.i = from->max.i;
            to->sum.i += from->sum.i;
            break;
        case LIBWRAP_PARAM_DOUBLE:
            if (to_empty || from->min.d < to->min.d)
                to->min.d = from->min.d;
            if (to_empty || from->max.d > to->max.d)
                to->max.d = from->max.d;
            to->sum.d += from->sum.d;
            break;
        default:
            if (to_empty || from->min.u < to->min.u)
                to->min.u = from->min.u;
            if (to_empty || from->max.u > to->max.u)
                to->max.u = from->max.u;
            to->sum.u += from->sum.u;
            break;
        }
    }
    to->count += from->count;
    to->nan += from->nan;
    for (unsigned b = 0; b < LW_ARG_BUCKETS; b++) {
        to->pos[b] += from->pos[b];
        to->neg[b] += from->neg[b];
    }
}

int lw_argout_value(lw_argout *o, uint64_t key, const char *s, uint64_t count, uint64_t err)
{
    size_t k = 0;
    while (k < o->nvals && !(o->vals[k].key == key && (!s || strcmp(o->vals[k].s, s) == 0)))
        k++;
    if (k == o->nvals) {
        if (o->nvals == o->cap) {
            size_t cap = o->cap ? o->cap * 2 : 64;
            lw_valcount *v = realloc(o->vals, cap * sizeof *v);
            if (!v)
                return -1;
            o->vals = v;
            o->cap = cap;
        }
        char *own = s && o->owned ? strdup(s) : NULL;
        if (s && o->owned && !own)
            return -1;
        o->vals[o->nvals++] = (lw_valcount){key, 0, 0, own ? own : s};
    }
    o->vals[k].count += count;
    o->vals[k].err += err;
    return 0;
}

static int lw_top_merge(lw_argout *o, const lw_argtop *tp, int strings)
{
    o->count += tp->count;
    for (uint32_t i = 0; i < tp->used; i++) {
        const lw_argtop_entry *e = &tp->e[i];
        if (lw_argout_value(o, e->key, strings ? e->s : NULL, e->count, e->err) < 0)
            return -1;
    }
    return 0;
}

/* Slot `slot` of thread `t` into `o`: with the integers the thread set
 * aside for it (lw_args_add). Those of a thread still running (a job's
 * profile reduced at MPI_Finalize) are read as its calls are, while it may
 * add more. */
static void lw_argout_add(lw_argout *o, const lw_thread *t, const lw_argslot *slot)
{
    const lw_argagg *a = &slot->agg;
    if (o->d->kind == LIBWRAP_PARAM_STRING || o->d->kind == LIBWRAP_PARAM_ENUM) {
        (void)lw_top_merge(o, &a->top, o->d->kind == LIBWRAP_PARAM_STRING);
        return;
    }
    lw_argnum_merge(&o->num, &a->num, o->d->kind);
    uint32_t n = __atomic_load_n(&t->args.npend, __ATOMIC_ACQUIRE);
    if (n > LW_ARG_PEND)
        n = LW_ARG_PEND;
    lw_argnum set_aside;
    int any = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (t->args.pend_slot[i] != slot)
            continue;
        if (!any) {
            memset(&set_aside, 0, sizeof set_aside);
            lw_argnum_limits(&set_aside, o->d->kind);
            any = 1;
        }
        lw_argnum_add_ints(&set_aside, &t->args.pend_val[i], 1, slot->sign);
    }
    if (any)
        lw_argnum_merge(&o->num, &set_aside, o->d->kind);
}

static int lw_block_is(const lw_argblock *b, int32_t region)
{
    return b && b->region == region && b->nslots;
}

int lw_arguments_has(int32_t region)
{
    for (lw_thread *t = lw_thread_first(); t; t = t->next)
        for (uint32_t k = 0; k < t->args.n; k++)
            if (lw_block_is(t->args.blocks[k], region))
                return 1;
    return 0;
}

/* The slots of `b` as lw_argout, or NULL (out of memory). */
static lw_argout *lw_argout_new(const lw_argblock *b)
{
    lw_argout *o = calloc(b->nslots, sizeof *o);
    if (!o)
        return NULL;
    for (uint32_t k = 0; k < b->nslots; k++)
        o[k].d = &b->params->param[b->slot[k].index];
    return o;
}

void lw_argout_free(lw_argout *o, uint32_t n)
{
    for (uint32_t i = 0; o && i < n; i++) {
        for (size_t k = 0; o[i].owned && k < o[i].nvals; k++)
            free((char *)o[i].vals[k].s);
        free(o[i].vals);
    }
    free(o);
}

/* All blocks of `region`, over threads and nodes; *first the first. */
static lw_argout *lw_collect(int32_t region, const lw_argblock **first)
{
    lw_argout *o = NULL;
    *first = NULL;
    for (lw_thread *t = lw_thread_first(); t; t = t->next)
        for (uint32_t k = 0; k < t->args.n; k++) {
            const lw_argblock *b = t->args.blocks[k];
            if (!lw_block_is(b, region))
                continue;
            if (!*first) {
                *first = b;
                if (!(o = lw_argout_new(b)))
                    return NULL;
            }
            if (b->mask != (*first)->mask)
                continue;
            for (uint32_t s = 0; s < b->nslots; s++)
                lw_argout_add(&o[s], t, &b->slot[s]);
        }
    return o;
}

static const char *lw_kind_name(unsigned kind)
{
    static const char *const names[] = {"none", "signed", "unsigned", "double", "string", "enum"};
    return kind < sizeof names / sizeof *names ? names[kind] : "none";
}

lw_argout *lw_arguments_collect(int32_t region, uint32_t *n)
{
    const lw_argblock *first;
    lw_argout *o = lw_collect(region, &first);
    *n = o && first ? first->nslots : 0;
    if (!*n) {
        free(o);
        return NULL;
    }
    return o;
}

static int lw_valcount_cmp(const void *a, const void *b)
{
    const lw_valcount *x = a, *y = b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    if (x->s && y->s)
        return strcmp(x->s, y->s);
    return (int64_t)x->key < (int64_t)y->key ? -1 : (int64_t)x->key > (int64_t)y->key;
}

/* A 128-bit sum: exact where it fits 64 bits, else as a double. */
static void lw_json_sum(lw_json *j, const lw_argnum *n, unsigned kind)
{
    if (kind == LIBWRAP_PARAM_DOUBLE)
        lw_json_double(j, "sum", n->sum.d);
    else if (kind == LIBWRAP_PARAM_SIGNED && n->sum.i >= INT64_MIN && n->sum.i <= INT64_MAX)
        lw_json_int(j, "sum", (int64_t)n->sum.i);
    else if (kind == LIBWRAP_PARAM_SIGNED)
        lw_json_double(j, "sum", (double)n->sum.i);
    else if (n->sum.u <= UINT64_MAX)
        lw_json_uint(j, "sum", (uint64_t)n->sum.u);
    else
        lw_json_double(j, "sum", (double)n->sum.u);
}

/* The bounds of bucket b, |v| in [lo, hi] (integers) or [lo, hi) (doubles). */
static void lw_bucket_bounds(unsigned b, int is_double, double *lo, double *hi, uint64_t *ulo, uint64_t *uhi)
{
    if (is_double) {
        /* 2^(b-32) and 2^(b-31), exactly. */
        *lo = b == 0 ? 0.0 : (double)(1ull << b) / 4294967296.0;
        *hi = b == LW_ARG_BUCKETS - 1 ? __builtin_inf() : (double)(1ull << b) / 2147483648.0;
        return;
    }
    *ulo = b == 0 ? 0 : 1ull << (b - 1);
    *uhi = b == 0 ? 0 : b == LW_ARG_BUCKETS - 1 ? UINT64_MAX : (1ull << b) - 1;
}

static void lw_json_histogram(lw_json *j, const lw_argnum *n, unsigned kind)
{
    int dbl = kind == LIBWRAP_PARAM_DOUBLE;
    lw_json_array(j, "histogram");
    for (unsigned k = LW_ARG_BUCKETS; k-- > 0;) {
        if (!n->neg[k])
            continue;
        double lo, hi;
        uint64_t ulo, uhi;
        lw_bucket_bounds(k, dbl, &lo, &hi, &ulo, &uhi);
        lw_json_object(j, NULL);
        if (dbl) {
            lw_json_double(j, "lo", -hi);
            lw_json_double(j, "hi", -lo);
        } else {
            /* The largest magnitude of a negative int64_t is 2^63. */
            lw_json_int(j, "lo", uhi >= (1ull << 63) ? INT64_MIN : -(int64_t)uhi);
            lw_json_int(j, "hi", -(int64_t)ulo);
        }
        lw_json_uint(j, "count", n->neg[k]);
        lw_json_end(j);
    }
    for (unsigned k = 0; k < LW_ARG_BUCKETS; k++) {
        if (!n->pos[k])
            continue;
        double lo, hi;
        uint64_t ulo, uhi;
        lw_bucket_bounds(k, dbl, &lo, &hi, &ulo, &uhi);
        lw_json_object(j, NULL);
        if (dbl) {
            lw_json_double(j, "lo", lo);
            lw_json_double(j, "hi", hi);
        } else {
            lw_json_uint(j, "lo", ulo);
            lw_json_uint(j, "hi", kind == LIBWRAP_PARAM_SIGNED && uhi > INT64_MAX ? INT64_MAX : uhi);
        }
        lw_json_uint(j, "count", n->pos[k]);
        lw_json_end(j);
    }
    lw_json_end(j);
}

void lw_argout_keep_top(lw_argout *o)
{
    qsort(o->vals, o->nvals, sizeof *o->vals, lw_valcount_cmp);
    for (size_t k = LW_ARG_TOP; o->owned && k < o->nvals; k++)
        free((char *)o->vals[k].s);
    if (o->nvals > LW_ARG_TOP)
        o->nvals = LW_ARG_TOP;
}

static void lw_json_argout(lw_json *j, lw_argout *o)
{
    const libwrap_param *d = o->d;
    lw_json_object(j, NULL);
    lw_json_string(j, "name", d->name ? d->name : "?");
    lw_json_string(j, "type", d->type ? d->type : "");
    lw_json_string(j, "kind", lw_kind_name(d->kind));
    if (d->kind == LIBWRAP_PARAM_STRING || d->kind == LIBWRAP_PARAM_ENUM) {
        lw_json_uint(j, "count", o->count);
        qsort(o->vals, o->nvals, sizeof *o->vals, lw_valcount_cmp);
        size_t shown = o->nvals < LW_ARG_TOP ? o->nvals : LW_ARG_TOP;
        uint64_t listed = 0;
        lw_json_array(j, "values");
        for (size_t i = 0; i < shown; i++) {
            const lw_valcount *v = &o->vals[i];
            lw_json_object(j, NULL);
            if (v->s)
                lw_json_string(j, "value", v->s);
            else if (d->flags & LIBWRAP_PARAM_ZEXT)
                lw_json_uint(j, "value", v->key);
            else
                lw_json_int(j, "value", (int64_t)v->key);
            lw_json_uint(j, "count", v->count);
            if (v->err)
                lw_json_uint(j, "overcount", v->err);
            lw_json_end(j);
            listed += v->count;
        }
        lw_json_end(j);
        lw_json_uint(j, "other", o->count > listed ? o->count - listed : 0);
    } else {
        const lw_argnum *n = &o->num;
        lw_json_uint(j, "count", n->count);
        lw_json_sum(j, n, d->kind);
        int empty = n->count == n->nan;
        if (d->kind == LIBWRAP_PARAM_DOUBLE) {
            lw_json_double(j, "min", empty ? 0.0 : n->min.d);
            lw_json_double(j, "max", empty ? 0.0 : n->max.d);
            if (n->nan)
                lw_json_uint(j, "nan", n->nan);
        } else if (d->kind == LIBWRAP_PARAM_SIGNED) {
            lw_json_int(j, "min", empty ? 0 : n->min.i);
            lw_json_int(j, "max", empty ? 0 : n->max.i);
        } else {
            lw_json_uint(j, "min", empty ? 0 : n->min.u);
            lw_json_uint(j, "max", empty ? 0 : n->max.u);
        }
        lw_json_histogram(j, n, d->kind);
    }
    lw_json_end(j);
}

void lw_argouts_json(lw_json *j, lw_argout *o, uint32_t n)
{
    lw_json_array(j, LWP_KEY(arguments));
    for (uint32_t s = 0; s < n; s++)
        lw_json_argout(j, &o[s]);
    lw_json_end(j);
}

void lw_arguments_json(lw_json *j, int32_t region)
{
    const lw_argblock *first;
    lw_argout *o = lw_collect(region, &first);
    if (o && first)
        lw_argouts_json(j, o, first->nslots);
    lw_argout_free(o, first ? first->nslots : 0);
}

lw_argout *lw_arguments_node(const lw_thread *t, const lw_node *n, uint32_t *nslots)
{
    *nslots = 0;
    if (!n->args || n->args > t->args.n)
        return NULL;
    const lw_argblock *b = t->args.blocks[n->args - 1];
    lw_argout *o = b && b->nslots ? lw_argout_new(b) : NULL;
    if (!o)
        return NULL;
    for (uint32_t s = 0; s < b->nslots; s++)
        lw_argout_add(&o[s], t, &b->slot[s]);
    *nslots = b->nslots;
    return o;
}

void lw_arguments_json_node(lw_json *j, const lw_thread *t, const lw_node *n)
{
    uint32_t k;
    lw_argout *o = lw_arguments_node(t, n, &k);
    if (o)
        lw_argouts_json(j, o, k);
    lw_argout_free(o, k);
}

void lw_argouts_txt(FILE *f, int *header, const char *function, lw_argout *o, uint32_t nslots)
{
    if (!*header) {
        fprintf(f, "\nrecorded arguments (LIBWRAP_ARGUMENTS)\n%12s %20s %20s %20s  %s\n", "count",
                "sum", "min", "max", "function: argument (type)");
        *header = 1;
    }
    for (uint32_t s = 0; s < nslots; s++) {
        const libwrap_param *d = o[s].d;
        const lw_argnum *n = &o[s].num;
        char sum[48] = "-", min[48] = "-", max[48] = "-";
        uint64_t count = o[s].count;
        if (d->kind == LIBWRAP_PARAM_SIGNED) {
            count = n->count;
            snprintf(sum, sizeof sum, "%.17g", (double)n->sum.i);
            if (n->sum.i >= INT64_MIN && n->sum.i <= INT64_MAX)
                snprintf(sum, sizeof sum, "%lld", (long long)n->sum.i);
            snprintf(min, sizeof min, "%lld", (long long)n->min.i);
            snprintf(max, sizeof max, "%lld", (long long)n->max.i);
        } else if (d->kind == LIBWRAP_PARAM_UNSIGNED) {
            count = n->count;
            snprintf(sum, sizeof sum, "%.17g", (double)n->sum.u);
            if (n->sum.u <= UINT64_MAX)
                snprintf(sum, sizeof sum, "%llu", (unsigned long long)n->sum.u);
            snprintf(min, sizeof min, "%llu", (unsigned long long)n->min.u);
            snprintf(max, sizeof max, "%llu", (unsigned long long)n->max.u);
        } else if (d->kind == LIBWRAP_PARAM_DOUBLE) {
            count = n->count;
            snprintf(sum, sizeof sum, "%g", n->sum.d);
            snprintf(min, sizeof min, "%g", n->min.d);
            snprintf(max, sizeof max, "%g", n->max.d);
        }
        fprintf(f, "%12llu %20s %20s %20s  %s: %s (%s)\n", (unsigned long long)count, sum, min, max,
                function, d->name, d->type);
        if (d->kind == LIBWRAP_PARAM_STRING || d->kind == LIBWRAP_PARAM_ENUM) {
            qsort(o[s].vals, o[s].nvals, sizeof *o[s].vals, lw_valcount_cmp);
            uint64_t listed = 0;
            for (size_t i = 0; i < o[s].nvals && i < 10; i++) {
                const lw_valcount *v = &o[s].vals[i];
                if (v->s)
                    fprintf(f, "%12llu   \"%s\"\n", (unsigned long long)v->count, v->s);
                else
                    fprintf(f, "%12llu   %lld\n", (unsigned long long)v->count, (long long)v->key);
                listed += v->count;
            }
            if (o[s].count > listed)
                fprintf(f, "%12llu   (other values)\n", (unsigned long long)(o[s].count - listed));
        }
    }
}

/* profile.txt: a line per recorded argument, the most frequent values of
 * strings and enums after it. */
void lw_arguments_txt(FILE *f)
{
    int header = 0;
    size_t nregions = lw_region_count();
    for (size_t r = 1; r <= nregions; r++) {
        uint32_t n;
        lw_argout *o = lw_arguments_collect((int32_t)r, &n);
        if (o)
            lw_argouts_txt(f, &header, lw_region_name((int32_t)r), o, n);
        lw_argout_free(o, n);
    }
}
