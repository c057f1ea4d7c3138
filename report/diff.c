/*
 * diff.c - what changed between two runs: visits and times per function,
 * matched by linker symbol, largest change of exclusive time first; then
 * the recorded arguments of either run (arguments_table.c).
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

typedef struct {
    const lwr_func *a, *b; /* either may be NULL: only in one run */
    const char *name, *symbol;
    int64_t d_excl;
} row;

static uint64_t v(const lwr_func *f, size_t field)
{
    if (!f)
        return 0;
    switch (field) {
    case 0: return f->visits;
    case 1: return f->inclusive_ns;
    default: return f->exclusive_ns;
    }
}

static int cmp_sym(const void *pa, const void *pb)
{
    const lwr_func *a = *(const lwr_func *const *)pa, *b = *(const lwr_func *const *)pb;
    return strcmp(a->symbol, b->symbol);
}

static int cmp_row(const void *pa, const void *pb)
{
    const row *a = pa, *b = pb;
    int64_t x = a->d_excl < 0 ? -a->d_excl : a->d_excl, y = b->d_excl < 0 ? -b->d_excl : b->d_excl;
    if (x != y)
        return x < y ? 1 : -1;
    int c = strcmp(a->name, b->name);
    return c ? c : strcmp(a->symbol, b->symbol);
}

static const lwr_func **by_symbol(const lwr_profile *p)
{
    return (const lwr_func **)lwr_sorted_view(p->funcs, p->nfuncs, sizeof *p->funcs, cmp_sym);
}

static const char *status(const row *r)
{
    return !r->a ? "new" : !r->b ? "gone" : "";
}

/* Relative change in percent, or a word when there is no base. */
static void change(char buf[32], uint64_t a, uint64_t b)
{
    if (a == 0)
        snprintf(buf, 32, "%s", b ? "-" : "=");
    else
        snprintf(buf, 32, "%+.1f%%", 100.0 * ((double)b - (double)a) / (double)a);
}

static void signed_time(char buf[40], int64_t d)
{
    char t[32];
    lwr_fmt_time(t, (double)(d < 0 ? -d : d));
    snprintf(buf, 40, "%s%s", d < 0 ? "-" : d > 0 ? "+" : "", t);
}

int lwr_print_diff(FILE *out, const lwr_profile *pa, const lwr_profile *pb, const lwr_table_opts *o)
{
    const lwr_func **sa = by_symbol(pa), **sb = by_symbol(pb);
    row *rows = calloc(pa->nfuncs + pb->nfuncs + 1, sizeof *rows);
    if (!rows) {
        perror(LWR_PROG);
        exit(1);
    }
    size_t n = 0, i = 0, j = 0;
    while (i < pa->nfuncs || j < pb->nfuncs) {
        int c = i == pa->nfuncs ? 1 : j == pb->nfuncs ? -1 : strcmp(sa[i]->symbol, sb[j]->symbol);
        row *r = &rows[n++];
        r->a = c <= 0 ? sa[i++] : NULL;
        r->b = c >= 0 ? sb[j++] : NULL;
        const lwr_func *any = r->b ? r->b : r->a;
        r->name = any->name;
        r->symbol = any->symbol;
        r->d_excl = (int64_t)v(r->b, 2) - (int64_t)v(r->a, 2);
    }
    qsort(rows, n, sizeof *rows, cmp_row);
    size_t shown = o->top && o->top < n ? o->top : n;

    if (o->format == LWR_TSV) {
        fputs("symbol\tname\tstatus\tvisits_a\tvisits_b\tinclusive_ns_a\tinclusive_ns_b\texclusive_ns_a\t"
              "exclusive_ns_b\n",
              out);
        for (size_t k = 0; k < shown; k++)
            fprintf(out, "%s\t%s\t%s\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\n", rows[k].symbol, rows[k].name,
                    status(&rows[k]), (unsigned long long)v(rows[k].a, 0), (unsigned long long)v(rows[k].b, 0),
                    (unsigned long long)v(rows[k].a, 1), (unsigned long long)v(rows[k].b, 1),
                    (unsigned long long)v(rows[k].a, 2), (unsigned long long)v(rows[k].b, 2));
    } else if (o->format == LWR_JSON) {
        fputs("{\"libwrap_diff\": 1, \"a\": ", out);
        lwr_json_string(out, pa->path);
        lwr_json_bytes(out, "a", pa->path);
        fputs(", \"b\": ", out);
        lwr_json_string(out, pb->path);
        lwr_json_bytes(out, "b", pb->path);
        fputs(", \"functions\": [", out);
        for (size_t k = 0; k < shown; k++) {
            fprintf(out, "%s\n  {\"symbol\": ", k ? "," : "");
            lwr_json_string(out, rows[k].symbol);
            lwr_json_bytes(out, "symbol", rows[k].symbol);
            fputs(", \"name\": ", out);
            lwr_json_string(out, rows[k].name);
            lwr_json_bytes(out, "name", rows[k].name);
            fprintf(out, ", \"status\": \"%s\"", *status(&rows[k]) ? status(&rows[k]) : "both");
            fprintf(out, ", \"visits\": [%llu, %llu], \"inclusive_ns\": [%llu, %llu], \"exclusive_ns\": [%llu, %llu]}",
                    (unsigned long long)v(rows[k].a, 0), (unsigned long long)v(rows[k].b, 0),
                    (unsigned long long)v(rows[k].a, 1), (unsigned long long)v(rows[k].b, 1),
                    (unsigned long long)v(rows[k].a, 2), (unsigned long long)v(rows[k].b, 2));
        }
        fputs("\n]", out);
        if (lwr_profile_has_arguments(pa) || lwr_profile_has_arguments(pb)) {
            fputs(", \"arguments\": ", out);
            lwr_print_arguments_diff(out, pa, pb, o);
        }
        fputs("}\n", out);
    } else {
        size_t w = strlen("function");
        for (size_t k = 0; k < shown; k++)
            if (strlen(rows[k].name) > w)
                w = strlen(rows[k].name);
        fprintf(out, "A: %s\nB: %s\n\n", pa->path, pb->path);
        fprintf(out, "%-*s  %10s  %10s  %8s  %12s  %12s  %13s  %8s\n", (int)w, "function", "visits A", "visits B",
                "visits%", "exclusive A", "exclusive B", "delta", "excl%");
        for (size_t k = 0; k < shown; k++) {
            const row *r = &rows[k];
            char ea[32], eb[32], d[40], cv[32], ce[32];
            change(cv, v(r->a, 0), v(r->b, 0));
            change(ce, v(r->a, 2), v(r->b, 2));
            signed_time(d, r->d_excl);
            fprintf(out, "%-*s  %10llu  %10llu  %8s  %12s  %12s  %13s  %8s", (int)w, r->name,
                    (unsigned long long)v(r->a, 0), (unsigned long long)v(r->b, 0), cv,
                    lwr_fmt_time(ea, (double)v(r->a, 2)), lwr_fmt_time(eb, (double)v(r->b, 2)), d, ce);
            if (*status(r))
                fprintf(out, "  %s", status(r));
            fputc('\n', out);
        }
        if (shown < n)
            fprintf(out, "(%zu more functions not shown; --top 0 shows all)\n", n - shown);
        if (lwr_profile_has_arguments(pa) || lwr_profile_has_arguments(pb))
            lwr_print_arguments_diff(out, pa, pb, o);
    }
    free(rows);
    free(sa);
    free(sb);
    return 0;
}
