/*
 * arguments_table.c - `libwrap-report --arguments DIR` and the arguments
 * part of `--diff`: the recorded arguments (docs/arguments.md) as text,
 * TSV or JSON.
 *
 * Functions come in the order of the profile's table (`--sort`), arguments
 * in the order of the parameters. The text shows each number's log2
 * histogram and each string's or enum's most frequent values under its row
 * (`--top N` values, 10 by default).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define DEFAULT_VALUES 10

static double mean(const lwr_arg *a)
{
    return a->count ? lwr_num_double(&a->sum) / (double)a->count : 0.0;
}

static const char *mean_fmt(char buf[48], const lwr_arg *a)
{
    if (!a->numeric || !a->count)
        return strcpy(buf, "-");
    snprintf(buf, 48, "%.6g", mean(a));
    return buf;
}

/* "[lo, hi]" of a bucket, "(-inf" or "inf)" at an open end. */
static void bucket_label(char buf[112], const lwr_arg *a, const lwr_bucket *b)
{
    char lo[48], hi[48];
    int dbl = strcmp(a->kind, "double") == 0;
    snprintf(buf, 112, "%s%s, %s%s", b->lo.kind == LWR_NUM_NONE ? "(" : "[",
             b->lo.kind == LWR_NUM_NONE ? "-inf" : lwr_num_fmt(lo, &b->lo),
             b->hi.kind == LWR_NUM_NONE ? "inf" : lwr_num_fmt(hi, &b->hi),
             b->hi.kind == LWR_NUM_NONE || dbl ? ")" : "]");
}

static void text_detail(FILE *out, const lwr_arg *a, size_t top)
{
    if (a->numeric) {
        uint64_t most = 0;
        for (size_t k = 0; k < a->nhist; k++)
            if (a->hist[k].count > most)
                most = a->hist[k].count;
        for (size_t k = 0; k < a->nhist; k++) {
            char label[112];
            bucket_label(label, a, &a->hist[k]);
            int bar = most ? (int)((40 * a->hist[k].count + most - 1) / most) : 0;
            fprintf(out, "      %-46s %12llu  %.*s\n", label, (unsigned long long)a->hist[k].count, bar,
                    "########################################");
        }
        return;
    }
    size_t shown = a->nvalues < top ? a->nvalues : top;
    uint64_t rest = a->other;
    for (size_t k = 0; k < a->nvalues; k++) {
        const lwr_argval *v = &a->values[k];
        if (k >= shown) {
            rest += v->count;
            continue;
        }
        fprintf(out, "      %12llu  ", (unsigned long long)v->count);
        if (v->is_string)
            lwr_text_string(out, v->text);
        else
            fputs(v->text, out);
        if (v->overcount)
            fprintf(out, "  (at most %llu too many)", (unsigned long long)v->overcount);
        fputc('\n', out);
    }
    if (rest)
        fprintf(out, "      %12llu  (other values)\n", (unsigned long long)rest);
}

static void json_num(FILE *out, const lwr_num *n)
{
    char b[48];
    if (n->kind == LWR_NUM_NONE || (n->kind == LWR_NUM_DOUBLE && !isfinite(n->d)))
        fputs("null", out);
    else if (n->kind == LWR_NUM_DOUBLE)
        fprintf(out, "%.17g", n->d);
    else
        fputs(lwr_num_fmt(b, n), out);
}

static void json_arg(FILE *out, const lwr_arg *a)
{
    fputs("{\"name\": ", out);
    lwr_json_string(out, a->name);
    fputs(", \"type\": ", out);
    lwr_json_string(out, a->type);
    fputs(", \"kind\": ", out);
    lwr_json_string(out, a->kind);
    fprintf(out, ", \"count\": %llu", (unsigned long long)a->count);
    if (a->numeric) {
        fputs(", \"sum\": ", out);
        json_num(out, &a->sum);
        fputs(", \"min\": ", out);
        json_num(out, &a->min);
        fputs(", \"max\": ", out);
        json_num(out, &a->max);
        fputs(", \"histogram\": [", out);
        for (size_t k = 0; k < a->nhist; k++) {
            fputs(k ? ", {\"lo\": " : "{\"lo\": ", out);
            json_num(out, &a->hist[k].lo);
            fputs(", \"hi\": ", out);
            json_num(out, &a->hist[k].hi);
            fprintf(out, ", \"count\": %llu}", (unsigned long long)a->hist[k].count);
        }
        fputc(']', out);
    } else {
        fputs(", \"values\": [", out);
        for (size_t k = 0; k < a->nvalues; k++) {
            fputs(k ? ", {\"value\": " : "{\"value\": ", out);
            if (a->values[k].is_string) {
                lwr_json_string(out, a->values[k].text);
                lwr_json_bytes(out, "value", a->values[k].text);
            } else
                fputs(a->values[k].text, out);
            fprintf(out, ", \"count\": %llu}", (unsigned long long)a->values[k].count);
        }
        fprintf(out, "], \"other\": %llu", (unsigned long long)a->other);
    }
    fputc('}', out);
}

/* The width of the label column: the longest "function: argument (type)",
 * at least 40. */
static int label_width(const lwr_func *f, size_t n)
{
    size_t w = 40;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < f[i].nargs; k++) {
            size_t len = strlen(f[i].name) + strlen(f[i].args[k].name) + strlen(f[i].args[k].type) + 5;
            if (len > w)
                w = len < 200 ? len : 200;
        }
    return (int)w;
}

int lwr_print_arguments(FILE *out, const lwr_profile *p, const lwr_table_opts *o)
{
    lwr_func *f = lwr_xcalloc(p->nfuncs, sizeof *f);
    memcpy(f, p->funcs, p->nfuncs * sizeof *f);
    lwr_sort_funcs(f, p->nfuncs, o->sort);
    size_t top = o->top ? o->top : DEFAULT_VALUES;
    if (o->format == LWR_JSON) {
        fputs("{\"libwrap_arguments\": 1, \"profile\": ", out);
        lwr_json_string(out, p->path);
        lwr_json_bytes(out, "profile", p->path);
        fputs(", \"functions\": [", out);
        int first = 1;
        for (size_t i = 0; i < p->nfuncs; i++) {
            if (!f[i].nargs)
                continue;
            fputs(first ? "\n  {\"symbol\": " : ",\n  {\"symbol\": ", out);
            first = 0;
            lwr_json_string(out, f[i].symbol);
            lwr_json_bytes(out, "symbol", f[i].symbol);
            fputs(", \"name\": ", out);
            lwr_json_string(out, f[i].name);
            lwr_json_bytes(out, "name", f[i].name);
            fprintf(out, ", \"visits\": %llu, \"arguments\": [", (unsigned long long)f[i].visits);
            for (size_t k = 0; k < f[i].nargs; k++) {
                fputs(k ? ",\n    " : "\n    ", out);
                json_arg(out, &f[i].args[k]);
            }
            fputs("]}", out);
        }
        fputs("\n]}\n", out);
    } else if (o->format == LWR_TSV) {
        fputs("symbol\tname\targument\ttype\tkind\tcount\tsum\tmin\tmax\tmean\ttop_value\ttop_count\n", out);
        for (size_t i = 0; i < p->nfuncs; i++)
            for (size_t k = 0; k < f[i].nargs; k++) {
                const lwr_arg *a = &f[i].args[k];
                char s[48], mn[48], mx[48], me[48];
                fprintf(out, "%s\t%s\t%s\t%s\t%s\t%llu\t%s\t%s\t%s\t%s\t", f[i].symbol, f[i].name, a->name, a->type,
                        a->kind, (unsigned long long)a->count, a->numeric ? lwr_num_fmt(s, &a->sum) : "",
                        a->numeric ? lwr_num_fmt(mn, &a->min) : "", a->numeric ? lwr_num_fmt(mx, &a->max) : "",
                        a->numeric ? mean_fmt(me, a) : "");
                if (a->nvalues) {
                    /* TSV has no quoting: tabs and newlines become blanks. */
                    for (const char *c = a->values[0].text; *c; c++)
                        fputc(*c == '\t' || *c == '\n' || *c == '\r' ? ' ' : *c, out);
                    fprintf(out, "\t%llu\n", (unsigned long long)a->values[0].count);
                } else {
                    fputs("\t\n", out);
                }
            }
    } else {
        int width = label_width(f, p->nfuncs);
        /* LIBWRAP_ARGUMENTS as the run had it, unless unset or "none". */
        char *setting = lwr_profile_has_arguments(p) ? NULL : lwr_run_setting(p->path, "LIBWRAP_ARGUMENTS");
        if (setting && (!setting[0] || !strcmp(setting, "none"))) {
            free(setting);
            setting = NULL;
        }
        if (setting) {
            fprintf(out, "no recorded arguments in %s: LIBWRAP_ARGUMENTS=%s recorded none (the run's "
                         "warnings say which of its rules were not applied, and why; see docs/arguments.md)\n",
                    p->path, setting);
        } else if (!lwr_profile_has_arguments(p)) {
            fprintf(out, "no recorded arguments in %s: run the program with LIBWRAP_ARGUMENTS set "
                         "(for example LIBWRAP_ARGUMENTS=sizes; see docs/arguments.md)\n",
                    p->path);
        } else {
            fprintf(out, "%-*s %12s %20s %14s %20s %20s\n", width, "function: argument (type)", "count", "sum",
                    "mean", "min", "max");
        }
        free(setting);
        for (size_t i = 0; i < p->nfuncs; i++)
            for (size_t k = 0; k < f[i].nargs; k++) {
                const lwr_arg *a = &f[i].args[k];
                char label[512], s[48], mn[48], mx[48], me[48];
                snprintf(label, sizeof label, "%s: %s (%s)", f[i].name, a->name, a->type);
                fprintf(out, "%-*s %12llu %20s %14s %20s %20s\n", width, label, (unsigned long long)a->count,
                        a->numeric ? lwr_num_fmt(s, &a->sum) : "-", mean_fmt(me, a),
                        a->numeric ? lwr_num_fmt(mn, &a->min) : "-", a->numeric ? lwr_num_fmt(mx, &a->max) : "-");
                text_detail(out, a, top);
            }
    }
    free(f);
    return 0;
}

/* ---- --diff ------------------------------------------------------------ */

typedef struct {
    const lwr_func *fa, *fb;
    const lwr_arg *a, *b; /* either may be NULL: only in one run */
} argrow;

static const lwr_func *find_func(const lwr_profile *p, const char *symbol)
{
    for (size_t i = 0; i < p->nfuncs; i++)
        if (strcmp(p->funcs[i].symbol, symbol) == 0)
            return &p->funcs[i];
    return NULL;
}

static const lwr_arg *find_arg(const lwr_func *f, const lwr_arg *like)
{
    for (size_t k = 0; f && k < f->nargs; k++)
        if (strcmp(f->args[k].name, like->name) == 0 && strcmp(f->args[k].type, like->type) == 0)
            return &f->args[k];
    return NULL;
}

/* Every argument of either run, A's order first, then those only in B. */
static argrow *arg_rows(const lwr_profile *pa, const lwr_profile *pb, size_t *n)
{
    size_t cap = 8;
    argrow *rows = lwr_xcalloc(cap, sizeof *rows);
    *n = 0;
    for (int side = 0; side < 2; side++) {
        const lwr_profile *p = side ? pb : pa, *q = side ? pa : pb;
        for (size_t i = 0; i < p->nfuncs; i++)
            for (size_t k = 0; k < p->funcs[i].nargs; k++) {
                const lwr_func *other = find_func(q, p->funcs[i].symbol);
                const lwr_arg *oa = find_arg(other, &p->funcs[i].args[k]);
                if (side && oa)
                    continue; /* already a row from A */
                if (*n == cap)
                    rows = lwr_xrealloc(rows, (cap *= 2) * sizeof *rows);
                argrow *r = &rows[(*n)++];
                r->fa = side ? other : &p->funcs[i];
                r->fb = side ? &p->funcs[i] : other;
                r->a = side ? oa : &p->funcs[i].args[k];
                r->b = side ? &p->funcs[i].args[k] : oa;
            }
    }
    return rows;
}

static uint64_t value_count(const lwr_arg *a, const char *text)
{
    for (size_t k = 0; a && k < a->nvalues; k++)
        if (strcmp(a->values[k].text, text) == 0)
            return a->values[k].count;
    return 0;
}

static void change(char buf[32], double a, double b)
{
    if (a == 0)
        snprintf(buf, 32, "%s", b ? "-" : "=");
    else
        snprintf(buf, 32, "%+.1f%%", 100.0 * (b - a) / fabs(a));
}

int lwr_print_arguments_diff(FILE *out, const lwr_profile *pa, const lwr_profile *pb, const lwr_table_opts *o)
{
    size_t n;
    argrow *rows = arg_rows(pa, pb, &n);
    size_t top = o->top ? o->top : DEFAULT_VALUES;
    if (o->format == LWR_JSON) {
        fputc('[', out);
        for (size_t i = 0; i < n; i++) {
            const argrow *r = &rows[i];
            const lwr_func *f = r->fa ? r->fa : r->fb;
            const lwr_arg *any = r->a ? r->a : r->b;
            fputs(i ? ",\n  {\"symbol\": " : "\n  {\"symbol\": ", out);
            lwr_json_string(out, f->symbol);
            lwr_json_bytes(out, "symbol", f->symbol);
            fputs(", \"argument\": ", out);
            lwr_json_string(out, any->name);
            fputs(", \"type\": ", out);
            lwr_json_string(out, any->type);
            fprintf(out, ", \"status\": \"%s\", \"count\": [%llu, %llu]", !r->a ? "new" : !r->b ? "gone" : "both",
                    (unsigned long long)(r->a ? r->a->count : 0), (unsigned long long)(r->b ? r->b->count : 0));
            if (any->numeric) {
                static const char *const keys[] = {"sum", "min", "max"};
                for (int k = 0; k < 3; k++) {
                    fprintf(out, ", \"%s\": [", keys[k]);
                    const lwr_num *x[2] = {r->a ? (k == 0 ? &r->a->sum : k == 1 ? &r->a->min : &r->a->max) : NULL,
                                           r->b ? (k == 0 ? &r->b->sum : k == 1 ? &r->b->min : &r->b->max) : NULL};
                    for (int s = 0; s < 2; s++) {
                        if (s)
                            fputs(", ", out);
                        if (x[s])
                            json_num(out, x[s]);
                        else
                            fputs("null", out);
                    }
                    fputc(']', out);
                }
            } else {
                fputs(", \"values\": [", out);
                int first = 1;
                for (int s = 0; s < 2; s++) {
                    const lwr_arg *x = s ? r->b : r->a, *y = s ? r->a : r->b;
                    for (size_t k = 0; x && k < x->nvalues; k++) {
                        if (s && value_count(y, x->values[k].text))
                            continue;
                        fputs(first ? "{\"value\": " : ", {\"value\": ", out);
                        first = 0;
                        if (x->values[k].is_string) {
                            lwr_json_string(out, x->values[k].text);
                            lwr_json_bytes(out, "value", x->values[k].text);
                        } else
                            fputs(x->values[k].text, out);
                        fprintf(out, ", \"count\": [%llu, %llu]}",
                                (unsigned long long)value_count(r->a, x->values[k].text),
                                (unsigned long long)value_count(r->b, x->values[k].text));
                    }
                }
                fputc(']', out);
            }
            fputc('}', out);
        }
        fputs(n ? "\n]" : "]", out);
    } else if (o->format == LWR_TSV) {
        fputs("symbol\tname\targument\ttype\tstatus\tcount_a\tcount_b\tmean_a\tmean_b\n", out);
        for (size_t i = 0; i < n; i++) {
            const argrow *r = &rows[i];
            const lwr_func *f = r->fa ? r->fa : r->fb;
            const lwr_arg *any = r->a ? r->a : r->b;
            char ma[48], mb[48];
            fprintf(out, "%s\t%s\t%s\t%s\t%s\t%llu\t%llu\t%s\t%s\n", f->symbol, f->name, any->name, any->type,
                    !r->a ? "new" : !r->b ? "gone" : "both", (unsigned long long)(r->a ? r->a->count : 0),
                    (unsigned long long)(r->b ? r->b->count : 0), r->a ? mean_fmt(ma, r->a) : "-",
                    r->b ? mean_fmt(mb, r->b) : "-");
        }
    } else if (n) {
        fprintf(out, "\n%-40s %10s %10s %8s %14s %14s %8s\n", "function: argument (type)", "count A", "count B",
                "count%", "mean A", "mean B", "mean%");
        for (size_t i = 0; i < n; i++) {
            const argrow *r = &rows[i];
            const lwr_func *f = r->fa ? r->fa : r->fb;
            const lwr_arg *any = r->a ? r->a : r->b;
            char label[512], ma[48], mb[48], cc[32], cm[32];
            uint64_t ca = r->a ? r->a->count : 0, cb = r->b ? r->b->count : 0;
            snprintf(label, sizeof label, "%s: %s (%s)", f->name, any->name, any->type);
            change(cc, (double)ca, (double)cb);
            if (any->numeric && r->a && r->b)
                change(cm, mean(r->a), mean(r->b));
            else
                strcpy(cm, "");
            fprintf(out, "%-40s %10llu %10llu %8s %14s %14s %8s%s\n", label, (unsigned long long)ca,
                    (unsigned long long)cb, cc, r->a ? mean_fmt(ma, r->a) : "-", r->b ? mean_fmt(mb, r->b) : "-", cm,
                    !r->a ? "  new" : !r->b ? "  gone" : "");
            if (any->numeric)
                continue;
            /* The values whose counts changed, most frequent in B first. */
            size_t shown = 0;
            for (int s = 1; s >= 0 && shown < top; s--) {
                const lwr_arg *x = s ? r->b : r->a, *y = s ? r->a : r->b;
                for (size_t k = 0; x && k < x->nvalues && shown < top; k++) {
                    const char *t = x->values[k].text;
                    uint64_t va = value_count(r->a, t), vb = value_count(r->b, t);
                    if (va == vb || (!s && value_count(y, t)))
                        continue;
                    fprintf(out, "      %10llu %10llu  ", (unsigned long long)va, (unsigned long long)vb);
                    if (x->values[k].is_string)
                        lwr_text_string(out, t);
                    else
                        fputs(t, out);
                    fputc('\n', out);
                    shown++;
                }
            }
        }
    }
    free(rows);
    return 0;
}
