/*
 * arguments.c - the recorded arguments of profile.json (docs/arguments.md):
 * reading a function's "arguments", and adding those of the processes of a
 * job together (job.c).
 *
 *   "arguments": [{"name", "type", "kind", "count",
 *                  numbers: "sum", "min", "max", "histogram": [{"lo", "hi", "count"}],
 *                  strings, enums: "values": [{"value", "count"}], "other"}]
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report.h"

/* A number: 1, absent or null: 0 (kind NONE), not a number (NaN, Infinity included): -1. */
static int read_num(json_object *o, const char *key, lwr_num *n)
{
    json_object *v;
    memset(n, 0, sizeof *n);
    if (!json_object_object_get_ex(o, key, &v) || json_object_is_type(v, json_type_null))
        return 0;
    if (json_object_is_type(v, json_type_int)) {
        int64_t i = json_object_get_int64(v);
        uint64_t u = json_object_get_uint64(v);
        /* json-c keeps integers above INT64_MAX as unsigned. */
        if (i == INT64_MAX && u > (uint64_t)INT64_MAX) {
            n->kind = LWR_NUM_UINT;
            n->u = u;
        } else {
            n->kind = LWR_NUM_INT;
            n->i = i;
        }
        return 1;
    }
    /* NaN and Infinity (json-c reads them) are no value the runtime writes:
     * it writes null for an infinite bound. */
    if (json_object_is_type(v, json_type_double) && isfinite(json_object_get_double(v))) {
        n->kind = LWR_NUM_DOUBLE;
        n->d = json_object_get_double(v);
        return 1;
    }
    return -1;
}

static int read_count(json_object *o, const char *key, uint64_t *out)
{
    lwr_num n;
    int r = read_num(o, key, &n);
    *out = 0;
    if (r <= 0)
        return r;
    if (n.kind == LWR_NUM_INT)
        *out = n.i < 0 ? 0 : (uint64_t)n.i;
    else if (n.kind == LWR_NUM_UINT)
        *out = n.u;
    else
        *out = !(n.d > 0) ? 0 : n.d >= 0x1p64 ? UINT64_MAX : (uint64_t)n.d;
    return 1;
}

double lwr_num_double(const lwr_num *n)
{
    switch (n->kind) {
    case LWR_NUM_INT: return (double)n->i;
    case LWR_NUM_UINT: return (double)n->u;
    case LWR_NUM_DOUBLE: return n->d;
    default: return NAN;
    }
}

const char *lwr_num_fmt(char buf[48], const lwr_num *n)
{
    switch (n->kind) {
    case LWR_NUM_INT: snprintf(buf, 48, "%" PRId64, n->i); break;
    case LWR_NUM_UINT: snprintf(buf, 48, "%" PRIu64, n->u); break;
    case LWR_NUM_DOUBLE: snprintf(buf, 48, "%.6g", n->d); break;
    default: snprintf(buf, 48, "-"); break;
    }
    return buf;
}

static int num_cmp(const lwr_num *a, const lwr_num *b)
{
    if (a->kind == LWR_NUM_INT && b->kind == LWR_NUM_INT)
        return a->i < b->i ? -1 : a->i > b->i;
    if (a->kind == LWR_NUM_UINT && b->kind == LWR_NUM_UINT)
        return a->u < b->u ? -1 : a->u > b->u;
    if (a->kind == LWR_NUM_UINT && b->kind == LWR_NUM_INT)
        return b->i < 0 || a->u > (uint64_t)b->i ? 1 : a->u < (uint64_t)b->i ? -1 : 0;
    if (a->kind == LWR_NUM_INT && b->kind == LWR_NUM_UINT)
        return -num_cmp(b, a);
    double x = lwr_num_double(a), y = lwr_num_double(b);
    return x < y ? -1 : x > y;
}

static int num_equal(const lwr_num *a, const lwr_num *b)
{
    if (a->kind == LWR_NUM_NONE || b->kind == LWR_NUM_NONE)
        return a->kind == b->kind;
    return num_cmp(a, b) == 0;
}

/* a + b, exact while it fits 64 bits. */
static lwr_num num_add(const lwr_num *a, const lwr_num *b)
{
    lwr_num r = {LWR_NUM_DOUBLE, 0, 0, 0};
    if (a->kind == LWR_NUM_NONE)
        return *b;
    if (b->kind == LWR_NUM_NONE)
        return *a;
    if (a->kind == LWR_NUM_INT && b->kind == LWR_NUM_INT && !__builtin_add_overflow(a->i, b->i, &r.i)) {
        r.kind = LWR_NUM_INT;
        return r;
    }
    if (a->kind == LWR_NUM_UINT && b->kind == LWR_NUM_UINT && !__builtin_add_overflow(a->u, b->u, &r.u)) {
        r.kind = LWR_NUM_UINT;
        return r;
    }
    r.d = lwr_num_double(a) + lwr_num_double(b);
    return r;
}

static int read_values(json_object *o, lwr_arg *a, const char **why)
{
    json_object *vals;
    if (!json_object_object_get_ex(o, "values", &vals) || !json_object_is_type(vals, json_type_array))
        return *why = "a string or enum argument lacks its \"values\" array", -1;
    a->nvalues = json_object_array_length(vals);
    a->values = lwr_xcalloc(a->nvalues, sizeof *a->values);
    for (size_t k = 0; k < a->nvalues; k++) {
        json_object *e = json_object_array_get_idx(vals, k), *v;
        lwr_argval *d = &a->values[k];
        if (!json_object_is_type(e, json_type_object) || !json_object_object_get_ex(e, "value", &v))
            return *why = "a value of an argument lacks \"value\"", -1;
        if (json_object_is_type(v, json_type_string)) {
            d->text = lwr_xstrdup(json_object_get_string(v));
            d->is_string = 1;
        } else if (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)) {
            d->text = lwr_xstrdup(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN));
        } else {
            return *why = "a value of an argument is neither a string nor a number", -1;
        }
        if (read_count(e, "count", &d->count) < 0 || read_count(e, "overcount", &d->overcount) < 0)
            return *why = "the count of a value of an argument is not a number", -1;
    }
    if (read_count(o, "other", &a->other) < 0)
        return *why = "\"other\" of an argument is not a number", -1;
    return 0;
}

static int read_histogram(json_object *o, lwr_arg *a, const char **why)
{
    json_object *h;
    a->numeric = 1;
    if (read_num(o, "sum", &a->sum) < 0 || read_num(o, "min", &a->min) < 0 || read_num(o, "max", &a->max) < 0)
        return *why = "\"sum\", \"min\" or \"max\" of an argument is not a number", -1;
    if (!json_object_object_get_ex(o, "histogram", &h) || json_object_is_type(h, json_type_null))
        return 0;
    if (!json_object_is_type(h, json_type_array))
        return *why = "the \"histogram\" of an argument is not an array", -1;
    a->nhist = json_object_array_length(h);
    a->hist = lwr_xcalloc(a->nhist, sizeof *a->hist);
    for (size_t k = 0; k < a->nhist; k++) {
        json_object *b = json_object_array_get_idx(h, k);
        lwr_bucket *d = &a->hist[k];
        if (!json_object_is_type(b, json_type_object) || read_num(b, "lo", &d->lo) < 0 ||
            read_num(b, "hi", &d->hi) < 0 || read_count(b, "count", &d->count) < 0)
            return *why = "a histogram bucket of an argument is not {\"lo\", \"hi\", \"count\"}", -1;
    }
    return 0;
}

int lwr_args_parse(json_object *entry, lwr_arg **args, size_t *nargs, const char **why)
{
    json_object *arr;
    *args = NULL;
    *nargs = 0;
    if (!json_object_object_get_ex(entry, "arguments", &arr) || json_object_is_type(arr, json_type_null))
        return 0;
    if (!json_object_is_type(arr, json_type_array))
        return *why = "\"arguments\" is not an array", -1;
    size_t n = json_object_array_length(arr);
    *args = lwr_xcalloc(n, sizeof **args);
    for (size_t i = 0; i < n; i++) {
        json_object *o = json_object_array_get_idx(arr, i), *v;
        lwr_arg *a = &(*args)[(*nargs)++];
        if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, "name", &v) ||
            !json_object_is_type(v, json_type_string))
            return *why = "an argument has no \"name\"", -1;
        a->name = lwr_xstrdup(json_object_get_string(v));
        a->type = lwr_xstrdup(json_object_object_get_ex(o, "type", &v) && json_object_is_type(v, json_type_string)
                                  ? json_object_get_string(v)
                                  : "");
        a->kind = lwr_xstrdup(json_object_object_get_ex(o, "kind", &v) && json_object_is_type(v, json_type_string)
                                  ? json_object_get_string(v)
                                  : "");
        if (read_count(o, "count", &a->count) <= 0)
            return *why = "an argument has no \"count\"", -1;
        int r = json_object_object_get_ex(o, "values", NULL) ? read_values(o, a, why) : read_histogram(o, a, why);
        if (r)
            return r;
    }
    return 0;
}

void lwr_args_free(lwr_arg *a, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(a[i].name);
        free(a[i].type);
        free(a[i].kind);
        free(a[i].hist);
        for (size_t k = 0; k < a[i].nvalues; k++)
            free(a[i].values[k].text);
        free(a[i].values);
    }
    free(a);
}

static int val_cmp(const void *pa, const void *pb)
{
    const lwr_argval *a = pa, *b = pb;
    if (a->count != b->count)
        return a->count < b->count ? 1 : -1;
    return strcmp(a->text, b->text);
}

static int bucket_cmp(const void *pa, const void *pb)
{
    const lwr_bucket *a = pa, *b = pb;
    /* A missing lower bound is minus infinity. */
    if (a->lo.kind == LWR_NUM_NONE || b->lo.kind == LWR_NUM_NONE)
        return (b->lo.kind == LWR_NUM_NONE) - (a->lo.kind == LWR_NUM_NONE);
    return num_cmp(&a->lo, &b->lo);
}

static void merge_one(lwr_arg *d, const lwr_arg *s)
{
    if (s->numeric && d->numeric) {
        if (s->count) {
            if (!d->count || num_cmp(&s->min, &d->min) < 0)
                d->min = s->min;
            if (!d->count || num_cmp(&s->max, &d->max) > 0)
                d->max = s->max;
            d->sum = num_add(&d->sum, &s->sum);
        }
        for (size_t k = 0; k < s->nhist; k++) {
            size_t j = 0;
            while (j < d->nhist && !(num_equal(&d->hist[j].lo, &s->hist[k].lo) && num_equal(&d->hist[j].hi, &s->hist[k].hi)))
                j++;
            if (j == d->nhist) {
                d->hist = lwr_xrealloc(d->hist, (d->nhist + 1) * sizeof *d->hist);
                d->hist[d->nhist++] = (lwr_bucket){s->hist[k].lo, s->hist[k].hi, 0};
            }
            d->hist[j].count += s->hist[k].count;
        }
        qsort(d->hist, d->nhist, sizeof *d->hist, bucket_cmp);
    }
    for (size_t k = 0; k < s->nvalues; k++) {
        size_t j = 0;
        while (j < d->nvalues && strcmp(d->values[j].text, s->values[k].text) != 0)
            j++;
        if (j == d->nvalues) {
            d->values = lwr_xrealloc(d->values, (d->nvalues + 1) * sizeof *d->values);
            d->values[d->nvalues++] = (lwr_argval){lwr_xstrdup(s->values[k].text), s->values[k].is_string, 0, 0};
        }
        d->values[j].count += s->values[k].count;
        d->values[j].overcount += s->values[k].overcount;
    }
    qsort(d->values, d->nvalues, sizeof *d->values, val_cmp);
    d->other += s->other;
    d->count += s->count;
}

void lwr_args_merge(lwr_arg **to, size_t *nto, const lwr_arg *from, size_t nfrom)
{
    for (size_t i = 0; i < nfrom; i++) {
        const lwr_arg *s = &from[i];
        size_t j = 0;
        while (j < *nto && !(strcmp((*to)[j].name, s->name) == 0 && strcmp((*to)[j].type, s->type) == 0))
            j++;
        if (j == *nto) {
            *to = lwr_xrealloc(*to, (*nto + 1) * sizeof **to);
            lwr_arg *d = &(*to)[(*nto)++];
            memset(d, 0, sizeof *d);
            d->name = lwr_xstrdup(s->name);
            d->type = lwr_xstrdup(s->type);
            d->kind = lwr_xstrdup(s->kind);
            d->numeric = s->numeric;
        }
        merge_one(&(*to)[j], s);
    }
}

int lwr_profile_has_arguments(const lwr_profile *p)
{
    for (size_t i = 0; i < p->nfuncs; i++)
        if (p->funcs[i].nargs)
            return 1;
    return 0;
}
