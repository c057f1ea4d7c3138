/*
 * profile_write.c - profile.json and profile.txt from the per-thread trees.
 *
 * Called by the finaliser with every thread stopped or idle. The flat
 * "functions" list sums all call paths of all threads; a function's
 * inclusive time and metrics count only its outermost activation on a path,
 * so recursion does not count the same time twice.
 */
#include "arguments.h"
#include "json.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct lw_flat {
    int32_t region;
    int active; /* activations on the current path */
    uint64_t visits, incl, excl, min, max;
    uint64_t metrics[LW_MAX_METRICS];
} lw_flat;

static void lw_flat_add(lw_flat *flat, const lw_node *n)
{
    for (const lw_node *c = n->first_child; c; c = c->next_sibling) {
        lw_flat *f = &flat[c->region];
        f->visits += c->visits;
        f->excl += c->excl;
        if (c->visits) {
            if (c->min < f->min)
                f->min = c->min;
            if (c->max > f->max)
                f->max = c->max;
        }
        if (!f->active) {
            f->incl += c->incl;
            for (size_t i = 0; i < lw_nmetrics; i++)
                f->metrics[i] += c->metrics[i];
        }
        f->active++;
        lw_flat_add(flat, c);
        f->active--;
    }
}

static int lw_flat_cmp(const void *a, const void *b)
{
    const lw_flat *x = a, *y = b;
    if (x->excl != y->excl)
        return x->excl < y->excl ? 1 : -1;
    return x->region - y->region;
}

static int lw_thread_cmp(const void *a, const void *b)
{
    const lw_thread *x = *(lw_thread *const *)a, *y = *(lw_thread *const *)b;
    return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static const char *lw_region_name(const libwrap_region *r)
{
    return r->name ? r->name : r->symbol;
}

static json_object *lw_json_metrics(const uint64_t *values)
{
    json_object *m = json_object_new_object();
    for (size_t i = 0; i < lw_nmetrics; i++)
        json_object_object_add(m, lw_metrics_def(i)->name, json_object_new_uint64(values[i]));
    return m;
}

static void lw_json_times(json_object *o, uint64_t visits, uint64_t incl, uint64_t excl,
                          uint64_t min, uint64_t max)
{
    json_object_object_add(o, "visits", json_object_new_uint64(visits));
    json_object_object_add(o, "inclusive_ns", json_object_new_uint64(lw_ticks_to_ns(incl)));
    json_object_object_add(o, "exclusive_ns", json_object_new_uint64(lw_ticks_to_ns(excl)));
    json_object_object_add(o, "min_ns", json_object_new_uint64(visits ? lw_ticks_to_ns(min) : 0));
    json_object_object_add(o, "max_ns", json_object_new_uint64(lw_ticks_to_ns(max)));
}

/* Children in the order of their first call (the tree keeps them newest first). */
static size_t lw_children(const lw_node *n, const lw_node ***out)
{
    size_t k = 0;
    for (const lw_node *c = n->first_child; c; c = c->next_sibling)
        k++;
    *out = NULL;
    if (!k || !(*out = malloc(k * sizeof **out)))
        return 0;
    size_t i = k;
    for (const lw_node *c = n->first_child; c; c = c->next_sibling)
        (*out)[--i] = c;
    return k;
}

/* The recorded arguments (arguments_write.c) are written with the
 * runtime's streaming writer (json.h); until the rest of profile.json is,
 * their text is parsed into json-c here. `t`, `n`: a call path node;
 * otherwise the function `region`. */
static void lw_json_add_arguments(json_object *o, int32_t region, const lw_thread *t, const lw_node *n)
{
    if (n ? !n->args : !lw_arguments_has(region))
        return;
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return;
    lw_json j;
    lw_json_init(&j, m);
    lw_json_object(&j, NULL);
    if (n)
        lw_arguments_json_node(&j, t, n);
    else
        lw_arguments_json(&j, region);
    int rc = lw_json_finish(&j);
    if (fclose(m) == 0 && rc == 0) {
        json_object *doc = json_tokener_parse(text), *args;
        if (doc && json_object_object_get_ex(doc, "arguments", &args))
            json_object_object_add(o, "arguments", json_object_get(args));
        json_object_put(doc);
    }
    free(text);
}

static json_object *lw_json_callpath(const lw_thread *t, const lw_node *n)
{
    json_object *arr = json_object_new_array();
    const lw_node **kids;
    size_t k = lw_children(n, &kids);
    for (size_t i = 0; i < k; i++) {
        const lw_node *c = kids[i];
        const libwrap_region *r = lw_region_get(c->region);
        if (!r)
            continue;
        json_object *o = json_object_new_object();
        json_object_object_add(o, "symbol", json_object_new_string(r->symbol));
        json_object_object_add(o, "name", json_object_new_string(lw_region_name(r)));
        lw_json_times(o, c->visits, c->incl, c->excl, c->min, c->max);
        json_object_object_add(o, "metrics", lw_json_metrics(c->metrics));
        lw_json_add_arguments(o, c->region, t, c);
        json_object_object_add(o, "children", lw_json_callpath(t, c));
        json_object_array_add(arr, o);
    }
    free(kids);
    return arr;
}

static void lw_txt_tree(FILE *f, const lw_node *n, int depth)
{
    const lw_node **kids;
    size_t k = lw_children(n, &kids);
    for (size_t i = 0; i < k; i++) {
        const libwrap_region *r = lw_region_get(kids[i]->region);
        if (!r)
            continue;
        fprintf(f, "%12llu %14.3f %14.3f  %*s%s\n", (unsigned long long)kids[i]->visits,
                lw_ticks_to_ns(kids[i]->incl) / 1e3, lw_ticks_to_ns(kids[i]->excl) / 1e3,
                2 * depth, "", lw_region_name(r));
        lw_txt_tree(f, kids[i], depth + 1);
    }
    free(kids);
}

static char *lw_path(const char *dir, const char *name)
{
    char *p;
    return asprintf(&p, "%s/%s", dir, name) < 0 ? NULL : p;
}

static int lw_write_txt(const char *path, const lw_flat *flat, size_t nflat)
{
    FILE *f = fopen(path, "we");
    if (!f)
        return -1;
    if (lw_job_info.active)
        fprintf(f, "libwrap profile of %s (rank %ld of %ld, pid %ld, host %s), timer %s\n\n",
                lw_program_name(), lw_job_info.rank, lw_job_info.size, (long)getpid(), lw_job_info.host,
                lw_timer_name());
    else
        fprintf(f, "libwrap profile of %s (pid %ld), timer %s\n\n", lw_program_name(), (long)getpid(),
                lw_timer_name());
    /* The metrics (inclusive, summed over call paths as in profile.json),
     * a column each, before the function's name. */
    fprintf(f, "%12s %14s %14s %12s", "visits", "incl_us", "excl_us", "mean_us");
    for (size_t k = 0; lw_metrics_def && k < lw_nmetrics; k++)
        fprintf(f, " %16s", lw_metrics_def(k)->name);
    fprintf(f, "  %s\n", "function");
    for (size_t i = 0; i < nflat; i++) {
        const libwrap_region *r = lw_region_get(flat[i].region);
        double incl = lw_ticks_to_ns(flat[i].incl) / 1e3;
        fprintf(f, "%12llu %14.3f %14.3f %12.3f", (unsigned long long)flat[i].visits, incl,
                lw_ticks_to_ns(flat[i].excl) / 1e3, incl / (double)flat[i].visits);
        for (size_t k = 0; k < lw_nmetrics; k++)
            fprintf(f, " %16llu", (unsigned long long)flat[i].metrics[k]);
        fprintf(f, "  %s\n", lw_region_name(r));
    }
    lw_arguments_txt(f);
    for (lw_thread *t = lw_thread_first(); t; t = t->next) {
        fprintf(f, "\nthread %u call paths\n%12s %14s %14s  %s\n", t->tid, "visits", "incl_us",
                "excl_us", "call path");
        lw_txt_tree(f, t->tree.root, 0);
    }
    return fclose(f);
}

int lw_profile_write(const char *dir)
{
    size_t nregions = lw_region_count();
    lw_flat *flat = calloc(nregions + 1, sizeof *flat);
    int rc = -1;
    if (!flat)
        goto out;
    for (size_t i = 0; i <= nregions; i++) {
        flat[i].region = (int32_t)i;
        flat[i].min = UINT64_MAX;
    }
    /* Threads in the order of their ids. */
    size_t nthreads = 0;
    for (lw_thread *t = lw_thread_first(); t; t = t->next)
        nthreads++;
    lw_thread **threads = calloc(nthreads ? nthreads : 1, sizeof *threads);
    if (!threads)
        goto out;
    size_t k = 0;
    for (lw_thread *t = lw_thread_first(); t; t = t->next) {
        threads[k++] = t;
        lw_flat_add(flat, t->tree.root);
    }
    qsort(threads, nthreads, sizeof *threads, lw_thread_cmp);

    /* Compact to the measured functions, most exclusive time first. */
    size_t nflat = 0;
    for (size_t i = 1; i <= nregions; i++)
        if (flat[i].visits)
            flat[nflat++] = flat[i];
    qsort(flat, nflat, sizeof *flat, lw_flat_cmp);

    json_object *root = json_object_new_object();
    json_object_object_add(root, "libwrap_profile", json_object_new_int(1));
    json_object_object_add(root, "program", json_object_new_string(lw_program_name()));
    json_object_object_add(root, "pid", json_object_new_int64(getpid()));
    /* Every process names its place in its job; a lone process is rank 0 of 1. */
    const lw_job *job = &lw_job_info;
    json_object_object_add(root, "rank", json_object_new_int64(job->active || job->rank >= 0 ? job->rank : 0));
    json_object_object_add(root, "size", json_object_new_int64(job->active ? job->size : 1));
    json_object_object_add(root, "host", json_object_new_string(job->host));
    if (job->active) {
        json_object_object_add(root, "launcher", json_object_new_string(job->launcher));
        json_object_object_add(root, "job", json_object_new_string(job->id));
    }
    json_object_object_add(root, "timer", json_object_new_string(lw_timer_name()));
    json_object *metrics = json_object_new_array();
    for (size_t i = 0; i < lw_nmetrics; i++) {
        const lw_metric_def *d = lw_metrics_def(i);
        json_object *m = json_object_new_object();
        json_object_object_add(m, "name", json_object_new_string(d->name));
        json_object_object_add(m, "unit", json_object_new_string(d->unit));
        json_object_object_add(m, "source", json_object_new_string(d->source));
        json_object_array_add(metrics, m);
    }
    json_object_object_add(root, "metrics", metrics);
    json_object *functions = json_object_new_array();
    for (size_t i = 0; i < nflat; i++) {
        const libwrap_region *r = lw_region_get(flat[i].region);
        json_object *o = json_object_new_object();
        json_object_object_add(o, "symbol", json_object_new_string(r->symbol));
        json_object_object_add(o, "name", json_object_new_string(lw_region_name(r)));
        json_object_object_add(o, "file", json_object_new_string(r->file ? r->file : ""));
        json_object_object_add(o, "line", json_object_new_int64(r->line));
        lw_json_times(o, flat[i].visits, flat[i].incl, flat[i].excl, flat[i].min, flat[i].max);
        json_object_object_add(o, "metrics", lw_json_metrics(flat[i].metrics));
        lw_json_add_arguments(o, flat[i].region, NULL, NULL);
        json_object_array_add(functions, o);
    }
    json_object_object_add(root, "functions", functions);
    json_object *tarr = json_object_new_array();
    for (size_t i = 0; i < nthreads; i++) {
        json_object *o = json_object_new_object();
        json_object_object_add(o, "id", json_object_new_int64(threads[i]->tid));
        json_object_object_add(o, "callpath", lw_json_callpath(threads[i], threads[i]->tree.root));
        json_object_array_add(tarr, o);
    }
    json_object_object_add(root, "threads", tarr);
    free(threads);

    char *json_path = lw_path(dir, "profile.json");
    char *txt_path = lw_path(dir, "profile.txt");
    if (json_path && txt_path) {
        rc = json_object_to_file_ext(json_path, root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);
        if (rc < 0)
            lw_warn("cannot write %s: %s", json_path, json_util_get_last_err());
        else if ((rc = lw_write_txt(txt_path, flat, nflat)) < 0)
            lw_warn("cannot write %s: %s", txt_path, strerror(errno));
        else
            lw_log(LW_LOG_PROFILE, "wrote %s", json_path);
    }
    free(json_path);
    free(txt_path);
    json_object_put(root);
out:
    if (rc < 0 && !flat)
        lw_warn("out of memory while writing the profile into %s", dir);
    free(flat);
    return rc;
}
