/*
 * table.c - the flat profile as a text table, TSV or JSON.
 *
 * Output order is fully determined by the data (ties broken by name, then
 * symbol) so that golden files stay stable across runs and libc versions.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

static lwr_sort sort_key;

static double mean_of(const lwr_func *f)
{
    return f->visits ? (double)f->inclusive_ns / (double)f->visits : 0.0;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
    return a < b ? 1 : a > b ? -1 : 0; /* descending */
}

static int cmp_func(const void *pa, const void *pb)
{
    const lwr_func *a = pa, *b = pb;
    int c = 0;
    switch (sort_key) {
    case LWR_SORT_EXCLUSIVE: c = cmp_u64(a->exclusive_ns, b->exclusive_ns); break;
    case LWR_SORT_INCLUSIVE: c = cmp_u64(a->inclusive_ns, b->inclusive_ns); break;
    case LWR_SORT_VISITS: c = cmp_u64(a->visits, b->visits); break;
    case LWR_SORT_MEAN: {
        double x = mean_of(a), y = mean_of(b);
        c = x < y ? 1 : x > y ? -1 : 0;
        break;
    }
    case LWR_SORT_NAME: break;
    }
    if (c == 0)
        c = strcmp(a->name, b->name);
    if (c == 0)
        c = strcmp(a->symbol, b->symbol);
    return c;
}

void lwr_sort_funcs(lwr_func *f, size_t n, lwr_sort key)
{
    sort_key = key;
    qsort(f, n, sizeof *f, cmp_func);
}

/* ---- text ------------------------------------------------------------------ */

enum { COL_NAME, COL_VISITS, COL_INCL, COL_EXCL, COL_MEAN, COL_MIN, COL_MAX, COL_SHARE, NFIXED };
static const char *const headers[NFIXED] = {"function", "visits", "inclusive", "exclusive",
                                            "mean", "min", "max", "excl%"};
/* A job of several ranks: how many called the function, and its exclusive
 * time per rank (smallest, mean, largest; "@N" says on which rank). */
enum { JCOL_RANKS, JCOL_MIN, JCOL_MEAN, JCOL_MAX, NJOB };
static const char *const job_headers[NJOB] = {"ranks", "rank min", "rank mean", "rank max"};

static int job_columns(const lwr_profile *p, const lwr_func *f, size_t n)
{
    if (!p->is_job || p->nranks < 2)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!f[i].has_rank_stats)
            return 0;
    return 1;
}

typedef struct {
    char **cells; /* rows x cols */
    size_t rows, cols;
} grid;

static char *cell(grid *g, size_t r, size_t c)
{
    return g->cells[r * g->cols + c];
}

static void grid_set(grid *g, size_t r, size_t c, const char *s)
{
    g->cells[r * g->cols + c] = strdup(s);
    if (!g->cells[r * g->cols + c]) {
        perror(LWR_PROG);
        exit(1);
    }
}

static void print_text(FILE *out, const lwr_profile *p, const lwr_func *f, size_t n, size_t shown)
{
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += f[i].exclusive_ns;
    size_t nj = job_columns(p, f, n) ? NJOB : 0, J = NFIXED + p->nmetrics;
    grid g = {.rows = shown + 1, .cols = NFIXED + p->nmetrics + nj};
    g.cells = calloc(g.rows * g.cols, sizeof *g.cells);
    if (!g.cells) {
        perror(LWR_PROG);
        exit(1);
    }
    for (size_t c = 0; c < NFIXED; c++)
        grid_set(&g, 0, c, headers[c]);
    for (size_t m = 0; m < p->nmetrics; m++)
        grid_set(&g, 0, NFIXED + m, p->metrics[m].name);
    for (size_t c = 0; c < nj; c++)
        grid_set(&g, 0, J + c, job_headers[c]);
    for (size_t i = 0; i < shown; i++) {
        char b[40];
        size_t r = i + 1;
        if (f[i].throttled) {
            /* Its times are estimates (LIBWRAP_THROTTLE). */
            char *label = lwr_xcalloc(strlen(f[i].name) + strlen(f[i].throttled) + 24, 1);
            sprintf(label, "%s [throttled %s]", f[i].name, f[i].throttled);
            grid_set(&g, r, COL_NAME, label);
            free(label);
        } else {
            grid_set(&g, r, COL_NAME, f[i].name);
        }
        snprintf(b, sizeof b, "%llu", (unsigned long long)f[i].visits);
        grid_set(&g, r, COL_VISITS, b);
        grid_set(&g, r, COL_INCL, lwr_fmt_time(b, (double)f[i].inclusive_ns));
        grid_set(&g, r, COL_EXCL, lwr_fmt_time(b, (double)f[i].exclusive_ns));
        grid_set(&g, r, COL_MEAN, lwr_fmt_time(b, mean_of(&f[i])));
        grid_set(&g, r, COL_MIN, f[i].has_minmax ? lwr_fmt_time(b, (double)f[i].min_ns) : "-");
        grid_set(&g, r, COL_MAX, f[i].has_minmax ? lwr_fmt_time(b, (double)f[i].max_ns) : "-");
        snprintf(b, sizeof b, "%.1f%%", total ? 100.0 * (double)f[i].exclusive_ns / (double)total : 0.0);
        grid_set(&g, r, COL_SHARE, b);
        for (size_t m = 0; m < p->nmetrics; m++) {
            lwr_fmt_metric(b, f[i].metrics[m]);
            grid_set(&g, r, NFIXED + m, b);
        }
        if (nj) {
            char t[32];
            const lwr_rank_stat *x = &f[i].rank_exclusive;
            snprintf(b, sizeof b, "%llu/%zu", (unsigned long long)f[i].ranks_called, p->nranks);
            grid_set(&g, r, J + JCOL_RANKS, b);
            snprintf(b, sizeof b, "%s @%lld", lwr_fmt_time(t, (double)x->min), (long long)x->min_rank);
            grid_set(&g, r, J + JCOL_MIN, b);
            grid_set(&g, r, J + JCOL_MEAN, lwr_fmt_time(t, x->mean));
            snprintf(b, sizeof b, "%s @%lld", lwr_fmt_time(t, (double)x->max), (long long)x->max_rank);
            grid_set(&g, r, J + JCOL_MAX, b);
        }
    }
    size_t *w = calloc(g.cols, sizeof *w);
    if (!w) {
        perror(LWR_PROG);
        exit(1);
    }
    for (size_t r = 0; r < g.rows; r++)
        for (size_t c = 0; c < g.cols; c++) {
            size_t l = strlen(cell(&g, r, c));
            if (l > w[c])
                w[c] = l;
        }
    for (size_t r = 0; r < g.rows; r++) {
        /* Name left-aligned, numbers right-aligned; no trailing blanks. */
        fprintf(out, "%-*s", (int)w[0], cell(&g, r, 0));
        for (size_t c = 1; c < g.cols; c++)
            fprintf(out, "  %*s", (int)w[c], cell(&g, r, c));
        fputc('\n', out);
        if (r == 0) {
            size_t len = w[0];
            for (size_t c = 1; c < g.cols; c++)
                len += 2 + w[c];
            for (size_t k = 0; k < len; k++)
                fputc('-', out);
            fputc('\n', out);
        }
    }
    if (shown < n)
        fprintf(out, "(%zu more functions not shown; --top 0 shows all)\n", n - shown);
    for (size_t i = 0; i < g.rows * g.cols; i++)
        free(g.cells[i]);
    free(g.cells);
    free(w);
}

/* ---- tsv ------------------------------------------------------------------- */

static void tsv_header(FILE *out, const lwr_profile *p, int per_thread)
{
    if (per_thread)
        fputs(p->is_job ? "rank\tthread\t" : "thread\t", out);
    fputs("symbol\tname\tfile\tline\tvisits\tinclusive_ns\texclusive_ns\tmean_ns\tmin_ns\tmax_ns\tshare", out);
    for (size_t m = 0; m < p->nmetrics; m++)
        fprintf(out, "\t%s", p->metrics[m].name);
    /* A job's rows end with the per-rank statistics. */
    if (p->is_job && !per_thread)
        fputs("\tranks\tvisits_min\tvisits_min_rank\tvisits_mean\tvisits_max\tvisits_max_rank"
              "\texclusive_min_ns\texclusive_min_rank\texclusive_mean_ns\texclusive_max_ns\texclusive_max_rank",
              out);
    fputc('\n', out);
}

static void tsv_stat(FILE *out, const lwr_rank_stat *s)
{
    fprintf(out, "\t%llu\t%lld\t%.1f\t%llu\t%lld", (unsigned long long)s->min, (long long)s->min_rank, s->mean,
            (unsigned long long)s->max, (long long)s->max_rank);
}

/* Tabs and newlines inside a field would break the columns. */
static void tsv_field(FILE *out, const char *s)
{
    for (; *s; s++)
        fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, out);
}

static void print_tsv(FILE *out, const lwr_profile *p, const lwr_func *f, size_t n, size_t shown,
                      const lwr_thread *thread)
{
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += f[i].exclusive_ns;
    for (size_t i = 0; i < shown; i++) {
        if (thread && p->is_job)
            fprintf(out, "%lld\t", (long long)thread->rank);
        if (thread)
            fprintf(out, "%lld\t", (long long)thread->id);
        tsv_field(out, f[i].symbol);
        fputc('\t', out);
        tsv_field(out, f[i].name);
        fputc('\t', out);
        tsv_field(out, f[i].file);
        fprintf(out, "\t%lld\t%llu\t%llu\t%llu\t%.1f\t", (long long)f[i].line, (unsigned long long)f[i].visits,
                (unsigned long long)f[i].inclusive_ns, (unsigned long long)f[i].exclusive_ns, mean_of(&f[i]));
        if (f[i].has_minmax)
            fprintf(out, "%llu\t%llu", (unsigned long long)f[i].min_ns, (unsigned long long)f[i].max_ns);
        else
            fputs("\t", out);
        fprintf(out, "\t%.4f", total ? (double)f[i].exclusive_ns / (double)total : 0.0);
        for (size_t m = 0; m < p->nmetrics; m++) {
            char b[40];
            lwr_fmt_metric(b, f[i].metrics[m]);
            fprintf(out, "\t%s", b);
        }
        if (p->is_job && !thread) {
            fprintf(out, "\t%llu", (unsigned long long)f[i].ranks_called);
            tsv_stat(out, &f[i].rank_visits);
            tsv_stat(out, &f[i].rank_exclusive);
        }
        fputc('\n', out);
    }
}

/* ---- json ------------------------------------------------------------------ */

static void print_json_rows(FILE *out, const lwr_profile *p, const lwr_func *f, size_t n, size_t shown,
                            const char *indent)
{
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += f[i].exclusive_ns;
    fputs("[", out);
    for (size_t i = 0; i < shown; i++) {
        fprintf(out, "%s\n%s  {\"symbol\": ", i ? "," : "", indent);
        lwr_json_string(out, f[i].symbol);
        lwr_json_bytes(out, "symbol", f[i].symbol);
        fputs(", \"name\": ", out);
        lwr_json_string(out, f[i].name);
        lwr_json_bytes(out, "name", f[i].name);
        fputs(", \"file\": ", out);
        lwr_json_string(out, f[i].file);
        lwr_json_bytes(out, "file", f[i].file);
        fprintf(out, ", \"line\": %lld, \"visits\": %llu, \"inclusive_ns\": %llu, \"exclusive_ns\": %llu, "
                     "\"mean_ns\": %.1f",
                (long long)f[i].line, (unsigned long long)f[i].visits, (unsigned long long)f[i].inclusive_ns,
                (unsigned long long)f[i].exclusive_ns, mean_of(&f[i]));
        if (f[i].has_minmax)
            fprintf(out, ", \"min_ns\": %llu, \"max_ns\": %llu", (unsigned long long)f[i].min_ns,
                    (unsigned long long)f[i].max_ns);
        fprintf(out, ", \"share\": %.4f, \"metrics\": {",
                total ? (double)f[i].exclusive_ns / (double)total : 0.0);
        for (size_t m = 0; m < p->nmetrics; m++) {
            char b[40];
            lwr_fmt_metric(b, f[i].metrics[m]);
            fprintf(out, "%s", m ? ", " : "");
            lwr_json_string(out, p->metrics[m].name);
            fprintf(out, ": %s", b);
        }
        fputs("}", out);
        if (f[i].has_rank_stats) {
            const lwr_rank_stat *v = &f[i].rank_visits, *x = &f[i].rank_exclusive;
            fprintf(out, ", \"ranks\": {\"called\": %llu, \"visits\": {\"min\": %llu, \"min_rank\": %lld, "
                         "\"mean\": %.1f, \"max\": %llu, \"max_rank\": %lld}, \"exclusive_ns\": {\"min\": %llu, "
                         "\"min_rank\": %lld, \"mean\": %.1f, \"max\": %llu, \"max_rank\": %lld}}",
                    (unsigned long long)f[i].ranks_called, (unsigned long long)v->min, (long long)v->min_rank,
                    v->mean, (unsigned long long)v->max, (long long)v->max_rank, (unsigned long long)x->min,
                    (long long)x->min_rank, x->mean, (unsigned long long)x->max, (long long)x->max_rank);
        }
        fputs("}", out);
    }
    fprintf(out, "\n%s]", indent);
}

/* A job's processes, for the JSON table. */
static void print_json_job(FILE *out, const lwr_profile *p)
{
    fputs("\"job\": {\"id\": ", out);
    lwr_json_string(out, p->job ? p->job : "");
    lwr_json_bytes(out, "id", p->job);
    fputs(", \"launcher\": ", out);
    lwr_json_string(out, p->launcher ? p->launcher : "");
    fprintf(out, ", \"size\": %lld, \"ranks\": %zu, \"reduced\": %s, \"processes\": [", (long long)p->size,
            p->nranks, p->reduced ? "true" : "false");
    for (size_t i = 0; i < p->nparts; i++) {
        const lwr_part *q = &p->parts[i];
        fprintf(out, "%s\n  {\"rank\": %lld, \"image\": %lld, \"pid\": %lld, \"host\": ", i ? "," : "",
                (long long)q->rank, (long long)q->image, (long long)q->pid);
        lwr_json_string(out, q->host);
        lwr_json_bytes(out, "host", q->host);
        fprintf(out, ", \"threads\": %zu, \"visits\": %llu, \"exclusive_ns\": %llu}", q->nthreads,
                (unsigned long long)q->visits, (unsigned long long)q->exclusive_ns);
    }
    fputs("]},\n", out);
}

static size_t shown_rows(size_t n, size_t top)
{
    return top && top < n ? top : n;
}

int lwr_print_table(FILE *out, const lwr_profile *p, const lwr_table_opts *o)
{
    if (o->format == LWR_JSON) {
        fputs("{\"libwrap_report\": 1, \"program\": ", out);
        lwr_json_string(out, p->program);
        lwr_json_bytes(out, "program", p->program);
        fprintf(out, ", \"pid\": %lld, \"sort\": \"%s\",\n", (long long)p->pid,
                (const char *[]){"exclusive", "inclusive", "visits", "mean", "name"}[o->sort]);
        if (p->is_job)
            print_json_job(out, p);
    } else if (o->format == LWR_TSV) {
        tsv_header(out, p, o->per_thread);
    } else {
        /* What the profile is, then its counts (a job's reduced profile
         * has no threads of its own). */
        int threads = 1;
        char of[32] = "";
        if (p->size > (int64_t)p->nranks)
            snprintf(of, sizeof of, " of %lld", (long long)p->size);
        if (p->is_job && p->rank >= 0) {
            fprintf(out, "libwrap profile: %s (rank %lld of job %s, pid %lld, host %s, timer %s), ",
                    *p->program ? p->program : "?", (long long)p->rank, p->job, (long long)p->pid, p->host,
                    *p->timer ? p->timer : "?");
        } else if (p->reduced) {
            fprintf(out, "libwrap profile: %s (%s job %s: %zu%s ranks, reduced at %s, timer %s), ",
                    *p->program ? p->program : "?", *p->launcher ? p->launcher : "MPI", p->job, p->nranks, of,
                    p->reduced_at, *p->timer ? p->timer : "?");
            threads = 0;
        } else if (p->is_job) {
            /* Ranks that measured nothing in a job without MPI wrote no part. */
            fprintf(out, "libwrap profile: %s (%s job %s: %zu%s ranks, %zu processes, timer %s), ",
                    *p->program ? p->program : "?", *p->launcher ? p->launcher : "MPI", p->job, p->nranks, of,
                    p->nparts, *p->timer ? p->timer : "?");
        } else if (p->size > 1) {
            /* One part of a job, read on its own (DIR/rank-N). */
            fprintf(out, "libwrap profile: %s (rank %lld of %lld, pid %lld, timer %s), ",
                    *p->program ? p->program : "?", (long long)p->rank, (long long)p->size, (long long)p->pid,
                    *p->timer ? p->timer : "?");
        } else {
            fprintf(out, "libwrap profile: %s (pid %lld, timer %s), ", *p->program ? p->program : "?",
                    (long long)p->pid, *p->timer ? p->timer : "?");
        }
        fprintf(out, "%zu function%s", p->nfuncs, p->nfuncs == 1 ? "" : "s");
        if (threads)
            fprintf(out, ", %zu thread%s", p->nthreads, p->nthreads == 1 ? "" : "s");
        fputs("\n\n", out);
    }

    if (!o->per_thread) {
        lwr_func *f = malloc((p->nfuncs ? p->nfuncs : 1) * sizeof *f);
        if (!f) {
            perror(LWR_PROG);
            exit(1);
        }
        /* Shallow copy: the sort must not reorder the profile itself. */
        memcpy(f, p->funcs, p->nfuncs * sizeof *f);
        lwr_sort_funcs(f, p->nfuncs, o->sort);
        size_t shown = shown_rows(p->nfuncs, o->top);
        if (o->format == LWR_TEXT)
            print_text(out, p, f, p->nfuncs, shown);
        else if (o->format == LWR_TSV)
            print_tsv(out, p, f, p->nfuncs, shown, NULL);
        else {
            fputs("\"functions\": ", out);
            print_json_rows(out, p, f, p->nfuncs, shown, "");
            fputs("}\n", out);
        }
        free(f);
        return 0;
    }

    if (o->format == LWR_JSON)
        fputs("\"threads\": [", out);
    for (size_t t = 0; t < p->nthreads; t++) {
        lwr_func *f;
        size_t n;
        lwr_thread_functions(p, &p->threads[t], &f, &n);
        lwr_sort_funcs(f, n, o->sort);
        size_t shown = shown_rows(n, o->top);
        if (o->format == LWR_TEXT) {
            char label[64];
            fprintf(out, "%s%s\n", t ? "\n" : "", lwr_thread_label(&p->threads[t], label));
            print_text(out, p, f, n, shown);
        } else if (o->format == LWR_TSV) {
            print_tsv(out, p, f, n, shown, &p->threads[t]);
        } else {
            if (p->is_job)
                fprintf(out, "%s\n  {\"rank\": %lld, \"id\": %lld, \"functions\": ", t ? "," : "",
                        (long long)p->threads[t].rank, (long long)p->threads[t].id);
            else
                fprintf(out, "%s\n  {\"id\": %lld, \"functions\": ", t ? "," : "", (long long)p->threads[t].id);
            print_json_rows(out, p, f, n, shown, "  ");
            fputs("}", out);
        }
        lwr_funcs_free(f, n);
    }
    if (o->format == LWR_JSON)
        fputs("\n]}\n", out);
    return 0;
}
