/*
 * profile_write.c - profile.json and profile.txt from the per-thread trees.
 *
 * Called by the finaliser with every thread stopped or idle. The flat
 * "functions" list sums all call paths of all threads; a function's
 * inclusive time and metrics count only its outermost activation on a path,
 * so recursion does not count the same time twice.
 *
 * Before anything is written, each tree is finished (lw_tree_finish):
 * exclusive times derived, and the measurement's own cost taken out of the
 * times (compensate.c, docs/runtime.md). The times written are the
 * compensated ones; with compensation on, the measured ones follow as
 * "inclusive_raw_ns" and "exclusive_raw_ns".
 */
#include "core/output/output.h"
#include "core/abi/abi.h"
#include "core/measure/listen.h"
#include "core/measure/hooks.h"
#include "core/arguments/arguments.h"
#include "core/base/json.h"
#include "profile_format.h"
#include "owner.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct lw_flat {
    int32_t region;
    int active; /* activations on the current path */
    uint64_t visits, incl, excl, min, max;
    uint64_t incl_c, excl_c;
    uint64_t metrics[LW_MAX_METRICS];
} lw_flat;

/* Ticks of the measurement's own cost in a node's interval (compensate.c). */
static double lw_inside(const lw_node *n)
{
    return lw_costs[lw_region_kind(n->region)].inside;
}

/*
 * The times of n and its subtree. Each call's interval was read on its
 * thread's measurement clock (measure.h, lw_thread.overhead), which leaves
 * out the measurement cost of every call below it (lw_cost_ticks each);
 * what remains of the measurement in it is its own `inside`, and what the
 * clock did not take of the calls below (`total` less lw_cost_ticks: the
 * fraction of a tick, or all of it where there is no clock, AArch64):
 *
 *   incl_c   = incl - visits * inside - sum over calls below (total - clock)
 *   excl_c   = incl_c - sum over callees incl_c
 *   incl_raw = incl + sum over calls below clock       (as measured)
 *   excl     = incl_raw - sum over callees incl_raw
 *
 * each clamped at 0, and an inclusive time at least its callees' (a frame
 * a fork child inherited has callees and no visit of its own); so no time
 * is negative, callees stay within their caller and exclusive within
 * inclusive. With compensation off both costs are 0 and the compensated
 * times are the raw ones. Returns what the clock left of the cost of n's
 * calls and of those below them.
 */
static double lw_tree_finish_rest(lw_node *n)
{
    lw_throttle_estimate(n);
    uint64_t raw_callees = 0, incl_c_callees = 0, clock_below = 0;
    double rest_below = 0;
    for (lw_node *c = n->first_child; c; c = c->next_sibling) {
        rest_below += lw_tree_finish_rest(c);
        raw_callees += c->incl_raw;
        incl_c_callees += c->incl_c;
        clock_below += c->visits * lw_cost_ticks[lw_region_kind(c->region)] + (c->incl_raw - c->incl);
    }
    n->incl_raw = n->incl + clock_below > raw_callees ? n->incl + clock_below : raw_callees;
    n->excl = n->incl_raw - raw_callees;
    double i = (double)n->incl - (double)n->visits * lw_inside(n) - rest_below;
    n->incl_c = i > 0 ? (uint64_t)(i + 0.5) : 0;
    n->incl_c = n->incl_c > incl_c_callees ? n->incl_c : incl_c_callees;
    n->excl_c = n->incl_c - incl_c_callees;
    enum lw_wrapper_kind k = lw_region_kind(n->region);
    return rest_below + (double)n->visits * (lw_costs[k].total - (double)lw_cost_ticks[k]);
}

void lw_tree_finish(lw_node *n)
{
    lw_tree_finish_rest(n);
}

/* A call's time `v`, its shortest (`fastest`) or its longest, less its own
 * measurement's cost: the calls below it cost nothing in it already (the
 * measurement clock). The longest loses the mean cost; the shortest the
 * least cost a call had at calibration: it was short partly because its
 * measurement was, and the mean cost would make a call of a function as
 * short as that cost 0 (some ns), less than any call takes. */
static uint64_t lw_call_c(int32_t region, uint64_t v, int fastest)
{
    const lw_cost *k = &lw_costs[lw_region_kind(region)];
    double c = (double)v - (fastest ? k->fastest : k->inside);
    return c > 0 ? (uint64_t)(c + 0.5) : 0;
}

/*
 * A node's compensated min and max: each call's own time, so that min <=
 * mean <= max holds as it does for the calls themselves; the bound by the
 * mean absorbs rounding (the mean is an integer division) and, for the
 * min, a path whose calls all took about as long (the mean loses the mean
 * cost, the min the least). The job's reduced profile takes them here
 * too (profile_reduce.c). A
 * function's min and max are those of its nodes: its own mean is no bound,
 * for the inclusive time of a recursive function counts its outermost
 * calls only (visits all of them).
 */
void lw_node_minmax(const lw_node *n, uint64_t *min_c, uint64_t *max_c)
{
    *min_c = lw_call_c(n->region, n->min, 1);
    *max_c = lw_call_c(n->region, n->max, 0);
    if (n->visits) {
        /* The mean rounded down bounds the min, rounded up the max. */
        uint64_t mean = n->incl_c / n->visits, mean_up = mean + (n->incl_c % n->visits != 0);
        *min_c = *min_c < mean ? *min_c : mean;
        *max_c = *max_c > mean_up ? *max_c : mean_up;
        if (n->visits == 1) /* the one call is its mean */
            *min_c = *max_c = n->incl_c;
    }
}

void lw_minmax_ns(uint64_t visits, uint64_t incl_ns, uint64_t min_c, uint64_t max_c, uint64_t *min_ns,
                  uint64_t *max_ns)
{
    /* Each rounded to the nearest, two paths' mins of 402.5 ns made a
     * function's min 403 beside its inclusive 805 for 2 visits. */
    *min_ns = visits == 1 ? incl_ns : lw_ticks_to_ns_down(min_c);
    *max_ns = visits == 1 ? incl_ns : lw_ticks_to_ns_up(max_c);
    /* No call takes longer than all of them (the max rounded up, the sum
     * to the nearest, made it 1 ns more). */
    if (*max_ns > incl_ns)
        *max_ns = incl_ns;
}

static void lw_flat_add(lw_flat *flat, const lw_node *n)
{
    for (const lw_node *c = n->first_child; c; c = c->next_sibling) {
        lw_flat *f = &flat[c->region];
        f->visits += c->visits;
        f->excl += c->excl;
        f->excl_c += c->excl_c;
        if (c->visits) {
            uint64_t mn, mx;
            lw_node_minmax(c, &mn, &mx);
            if (mn < f->min)
                f->min = mn;
            if (mx > f->max)
                f->max = mx;
        }
        if (!f->active) {
            f->incl += c->incl_raw;
            f->incl_c += c->incl_c;
            for (size_t i = 0; i < lw_nmetrics; i++)
                if (lw_metric_absolute & (1u << i))
                    f->metrics[i] = c->metrics[i] > f->metrics[i] ? c->metrics[i] : f->metrics[i];
                else
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
    if (x->excl_c != y->excl_c)
        return x->excl_c < y->excl_c ? 1 : -1;
    return x->region - y->region;
}

static int lw_thread_cmp(const void *a, const void *b)
{
    const lw_thread *x = *(lw_thread *const *)a, *y = *(lw_thread *const *)b;
    return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/*
 * The throttling note of profile.txt: the functions throttled, or, with
 * LIBWRAP_THROTTLE off, those it would throttle at its suggested setting
 * (called LW_THROTTLE_SUGGEST_CALLS times or more, under
 * LW_THROTTLE_SUGGEST_NS a call).
 */
#define LW_THROTTLE_SUGGEST_CALLS 100000
#define LW_THROTTLE_SUGGEST_NS 200
static void lw_throttle_txt(FILE *f, const lw_flat *flat, size_t nflat)
{
    size_t n = 0;
    for (size_t i = 0; i < nflat; i++) {
        uint64_t after = lw_throttled_after(flat[i].region);
        int throttled = after != 0;
        if (throttled)
            lw_throttle_log(flat[i].region, flat[i].visits, after);
        int would = !lw_cfg.throttle_calls && flat[i].visits >= LW_THROTTLE_SUGGEST_CALLS &&
                    lw_ticks_to_ns(flat[i].excl_c) < LW_THROTTLE_SUGGEST_NS * flat[i].visits;
        if (!throttled && !would)
            continue;
        if (!n++)
            fprintf(f, lw_cfg.throttle_calls
                           ? "\nthrottled (LIBWRAP_THROTTLE): visits exact, times estimated from one call in %d:"
                           : "\nwith LIBWRAP_THROTTLE=%d:%d these functions would be timed on one call in 64 "
                             "only, their visits kept exact:",
                    lw_cfg.throttle_calls ? lw_throttle_sample() : LW_THROTTLE_SUGGEST_CALLS,
                    LW_THROTTLE_SUGGEST_NS);
        fprintf(f, " %s", lw_region_name(flat[i].region));
    }
    if (n)
        fprintf(f, "\n");
}

static void lw_json_metrics(lw_json *j, const uint64_t *values)
{
    lw_json_object(j, LWP_KEY(metrics));
    for (size_t i = 0; i < lw_nmetrics; i++)
        lw_json_uint(j, lw_metric_info(i)->name, values[i]);
    lw_json_end(j);
}

/* A node's or a function's times (min and max from lw_node_minmax, in ns
 * by lw_minmax_ns): `raw` its measured inclusive and exclusive times,
 * written besides when compensation is on. */
static void lw_json_times(lw_json *j, uint64_t visits, uint64_t incl_c, uint64_t excl_c,
                          uint64_t min_c, uint64_t max_c, uint64_t incl, uint64_t excl)
{
    uint64_t incl_ns = lw_ticks_to_ns(incl_c), min_ns, max_ns;
    lw_minmax_ns(visits, incl_ns, min_c, max_c, &min_ns, &max_ns);
    lw_json_uint(j, LWP_KEY(visits), visits);
    lw_json_uint(j, LWP_KEY(inclusive_ns), incl_ns);
    lw_json_uint(j, LWP_KEY(exclusive_ns), lw_ticks_to_ns(excl_c));
    lw_json_uint(j, LWP_KEY(min_ns), visits ? min_ns : 0);
    lw_json_uint(j, LWP_KEY(max_ns), max_ns);
    if (lw_compensating()) {
        lw_json_uint(j, LWP_KEY(inclusive_raw_ns), lw_ticks_to_ns(incl));
        lw_json_uint(j, LWP_KEY(exclusive_raw_ns), lw_ticks_to_ns(excl));
    }
}

/* "throttled": {"after": N, "sampled": "1/K"} of a throttled region
 * (throttle.c): its visits are exact, its times estimated. */
static void lw_json_throttled(lw_json *j, int32_t region)
{
    uint64_t after = lw_throttled_after(region);
    if (!after)
        return;
    char sampled[32];
    snprintf(sampled, sizeof sampled, "1/%d", lw_throttle_sample());
    lw_json_object(j, LWP_KEY(throttled));
    lw_json_uint(j, LWP_KEY(after), after);
    lw_json_string(j, LWP_KEY(sampled), sampled);
    lw_json_end(j);
}

void lw_json_metric_defs(lw_json *j, size_t n)
{
    lw_json_array(j, LWP_KEY(metrics));
    for (size_t i = 0; i < n; i++) {
        const lw_metric *m = lw_metric_get(i);
        lw_json_object(j, NULL);
        lw_json_string(j, LWP_KEY(name), m->info.name);
        lw_json_string(j, LWP_KEY(unit), m->info.unit);
        lw_json_string(j, LWP_KEY(source), m->source);
        lw_json_string(j, LWP_KEY(mode), m->info.mode == LIBWRAP_METRIC_ABSOLUTE ? LWP_MODE_ABSOLUTE : LWP_MODE_ACCUMULATED);
        lw_json_end(j);
    }
    lw_json_end(j);
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

static void lw_json_callpath(lw_json *j, const lw_thread *t, const lw_node *n)
{
    const lw_node **kids;
    size_t k = lw_children(n, &kids);
    for (size_t i = 0; i < k; i++) {
        const lw_node *c = kids[i];
        const libwrap_region *r = lw_region_get(c->region);
        if (!r)
            continue;
        lw_json_object(j, NULL);
        lw_json_string(j, LWP_KEY(symbol), r->symbol);
        lw_json_string(j, LWP_KEY(name), lw_region_name(c->region));
        uint64_t mn, mx;
        lw_node_minmax(c, &mn, &mx);
        lw_json_times(j, c->visits, c->incl_c, c->excl_c, mn, mx, c->incl_raw, c->excl);
        lw_json_throttled(j, c->region);
        lw_json_metrics(j, c->metrics);
        if (c->args)
            lw_arguments_json_node(j, t, c);
        lw_json_array(j, LWP_KEY(children));
        lw_json_callpath(j, t, c);
        lw_json_end(j);
        lw_json_end(j);
    }
    free(kids);
}

/* A count right-aligned in `width` columns, as "%*llu" writes it; with
 * `us`, ns as "%*.3f" writes ns / 1e3 (exactly so below 2^52 ns, 52 days,
 * where the double's error is far under the last digit; printf beyond).
 * A call path's line is some 20 pieces of printf's formatting otherwise. */
static void lw_txt_num(FILE *f, int width, uint64_t v, int us)
{
    if (us && v >= (1ull << 52)) {
        fprintf(f, "%*.3f", width, (double)v / 1e3);
        return;
    }
    char b[40];
    char *p = b + sizeof b;
    if (us) {
        uint64_t frac = v % 1000;
        *--p = (char)('0' + frac % 10);
        *--p = (char)('0' + frac / 10 % 10);
        *--p = (char)('0' + frac / 100);
        *--p = '.';
        v /= 1000;
    }
    p = lw_decimal(p, v);
    while (b + sizeof b - p < width && p > b)
        *--p = ' ';
    fwrite(p, 1, (size_t)(b + sizeof b - p), f);
}

#define LW_TXT_INDENT_MAX 64

static void lw_txt_tree(FILE *f, const lw_node *n, int depth)
{
    static const char spaces[] = "                                                                ";
    const lw_node **kids;
    size_t k = lw_children(n, &kids);
    for (size_t i = 0; i < k; i++) {
        const libwrap_region *r = lw_region_get(kids[i]->region);
        if (!r)
            continue;
        /* "%12llu %14.3f %14.3f  %*s%s\n": visits, inclusive and exclusive
         * us, the name indented by the depth. */
        lw_txt_num(f, 12, kids[i]->visits, 0);
        fputc(' ', f);
        lw_txt_num(f, 14, lw_ticks_to_ns(kids[i]->incl_c), 1);
        fputc(' ', f);
        lw_txt_num(f, 14, lw_ticks_to_ns(kids[i]->excl_c), 1);
        fputs("  ", f);
        /* Past LW_TXT_INDENT_MAX levels the depth is written, not indented:
         * a deep tree's text grows with its size, not its size times its
         * depth. */
        for (size_t left = 2 * (size_t)(depth < LW_TXT_INDENT_MAX ? depth : LW_TXT_INDENT_MAX); left;) {
            size_t w = left < sizeof spaces - 1 ? left : sizeof spaces - 1;
            fwrite(spaces, 1, w, f);
            left -= w;
        }
        if (depth > LW_TXT_INDENT_MAX)
            fprintf(f, "[depth %d] ", depth);
        fputs(lw_region_name(kids[i]->region), f);
        fputc('\n', f);
        lw_txt_tree(f, kids[i], depth + 1);
    }
    free(kids);
}

static char *lw_path(const char *dir, const char *name)
{
    char *p;
    return asprintf(&p, "%s/%s", dir, name) < 0 ? NULL : p;
}

static int lw_write_txt(const char *path, const lw_flat *flat, size_t nflat, lw_thread *const *threads, size_t nthreads)
{
    lw_out o;
    FILE *f = lw_out_open(&o);
    if (!f)
        return -1;
    if (lw_job_info.active)
        fprintf(f, "libwrap profile of %s (rank %ld of %ld, pid %ld, host %s), timer %s\n\n",
                lw_program_name(), lw_job_info.rank, lw_job_info.size, (long)getpid(), lw_job_info.host,
                lw_timer_name());
    else
        fprintf(f, "libwrap profile of %s (pid %ld), timer %s\n\n", lw_program_name(), (long)getpid(),
                lw_timer_name());
    lw_compensate_txt(f);
    /* The metrics (inclusive, summed over call paths as in profile.json),
     * a column each, before the function's name. */
    fprintf(f, "%12s %14s %14s %12s", "visits", "incl_us", "excl_us", "mean_us");
    for (size_t k = 0; k < lw_nmetrics; k++)
        fprintf(f, " %16s", lw_metric_info(k)->name);
    fprintf(f, "  %s\n", "function");
    for (size_t i = 0; i < nflat; i++) {
        /* "%12llu %14.3f %14.3f %12.3f": visits, inclusive, exclusive and
         * mean us. */
        uint64_t incl = lw_ticks_to_ns(flat[i].incl_c);
        lw_txt_num(f, 12, flat[i].visits, 0);
        fputc(' ', f);
        lw_txt_num(f, 14, incl, 1);
        fputc(' ', f);
        lw_txt_num(f, 14, lw_ticks_to_ns(flat[i].excl_c), 1);
        fprintf(f, " %12.3f", incl / 1e3 / (double)flat[i].visits);
        for (size_t k = 0; k < lw_nmetrics; k++)
            fprintf(f, " %16llu", (unsigned long long)flat[i].metrics[k]);
        fprintf(f, "  %s%s\n", lw_region_name(flat[i].region), lw_throttled_after(flat[i].region) ? "  [throttled]" : "");
    }
    lw_throttle_txt(f, flat, nflat);
    lw_arguments_txt(f);
    /* Threads in the order of their ids, as in profile.json. */
    for (size_t i = 0; i < nthreads; i++) {
        fprintf(f, "\nthread %u call paths\n%12s %14s %14s  %s\n", threads[i]->tid, "visits", "incl_us",
                "excl_us", "call path");
        lw_txt_tree(f, threads[i]->tree.root, 0);
    }
    lw_hook->samples_txt(f);
    return lw_out_write(&o, path);
}

static int lw_profile_write_c(const char *dir)
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
        lw_tree_finish(t->tree.root);
        lw_flat_add(flat, t->tree.root);
    }
    qsort(threads, nthreads, sizeof *threads, lw_thread_cmp);

    /* Compact to the measured functions, most exclusive time first. */
    size_t nflat = 0;
    for (size_t i = 1; i <= nregions; i++)
        if (flat[i].visits)
            flat[nflat++] = flat[i];
    qsort(flat, nflat, sizeof *flat, lw_flat_cmp);

    char *json_path = lw_path(dir, LWP_FILE);
    char *txt_path = lw_path(dir, "profile.txt");
    lw_json *j = malloc(sizeof *j);
    lw_out o;
    FILE *f = json_path && txt_path && j ? lw_out_open(&o) : NULL;
    char why[400];
    if (!f) {
        if (json_path && txt_path && j)
            lw_warn("cannot write %s: %s", json_path, strerror(errno));
        free(threads);
        goto done;
    }
    lw_json_init(j, f);
    lw_json_object(j, NULL);
    lw_json_int(j, LWP_KEY(libwrap_profile), LWP_FORMAT_VERSION);
    lw_json_string(j, LWP_KEY(program), lw_program_name());
    lw_json_int(j, LWP_KEY(pid), getpid());
    /* Every process names its place in its job; a lone process is rank 0 of 1. */
    const lw_job *job = &lw_job_info;
    lw_json_int(j, LWP_KEY(rank), job->active || job->rank >= 0 ? job->rank : 0);
    lw_json_int(j, LWP_KEY(size), job->active ? job->size : 1);
    lw_json_string(j, LWP_KEY(host), job->host);
    if (job->active) {
        lw_json_string(j, LWP_KEY(launcher), job->launcher);
        lw_json_string(j, LWP_KEY(job), job->id);
    }
    lw_json_string(j, LWP_KEY(timer), lw_timer_name());
    lw_compensate_json(j);
    lw_json_metric_defs(j, lw_nmetrics);
    lw_hook->samples_json(j);
    lw_json_array(j, LWP_KEY(functions));
    for (size_t i = 0; i < nflat; i++) {
        const libwrap_region *r = lw_region_get(flat[i].region);
        lw_json_object(j, NULL);
        lw_json_string(j, LWP_KEY(symbol), r->symbol);
        lw_json_string(j, LWP_KEY(name), lw_region_name(flat[i].region));
        lw_json_string(j, LWP_KEY(file), r->file ? r->file : "");
        lw_json_int(j, LWP_KEY(line), r->line);
        lw_json_times(j, flat[i].visits, flat[i].incl_c, flat[i].excl_c, flat[i].min, flat[i].max,
                      flat[i].incl, flat[i].excl);
        lw_json_throttled(j, flat[i].region);
        lw_json_metrics(j, flat[i].metrics);
        if (lw_arguments_has(flat[i].region))
            lw_arguments_json(j, flat[i].region);
        lw_json_end(j);
    }
    lw_json_end(j);
    lw_json_array(j, LWP_KEY(threads));
    for (size_t i = 0; i < nthreads; i++) {
        lw_json_object(j, NULL);
        lw_json_int(j, LWP_KEY(id), threads[i]->tid);
        lw_json_array(j, LWP_KEY(callpath));
        lw_json_callpath(j, threads[i], threads[i]->tree.root);
        lw_json_end(j);
        lw_json_end(j);
    }
    lw_json_end(j);
    rc = lw_json_finish(j);
    if (lw_out_write(&o, json_path) != 0)
        rc = -1;
    /* The table is tried when profile.json failed too (a file too large
     * for the space left may be followed by one that fits); one line says
     * which of the two could not be written. */
    int json_err = rc < 0 ? errno : 0;
    int txt_rc = lw_write_txt(txt_path, flat, nflat, threads, nthreads);
    int err = txt_rc < 0 ? errno : json_err;
    if (rc < 0 && txt_rc < 0)
        lw_warn("cannot write %s nor profile.txt beside it: %s%s", json_path, strerror(json_err),
                lw_owner_denied(dir, json_err, why, sizeof why));
    else if (rc < 0 || txt_rc < 0)
        lw_warn("cannot write %s: %s%s", rc < 0 ? json_path : txt_path, strerror(err),
                lw_owner_denied(dir, err, why, sizeof why));
    if (txt_rc < 0)
        rc = -1;
    if (rc == 0)
        lw_log(LW_LOG_PROFILE, "wrote %s", json_path);
    free(threads);
done:
    free(j);
    free(json_path);
    free(txt_path);
out:
    if (rc < 0 && !flat)
        lw_warn("out of memory while writing the profile into %s", dir);
    free(flat);
    return rc;
}

int lw_profile_write(const char *dir)
{
    /* Numbers as JSON and the table want them, whatever LC_NUMERIC the
     * measured program chose. */
    locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    locale_t old = c ? uselocale(c) : (locale_t)0;
    int rc = lw_profile_write_c(dir);
    if (c) {
        uselocale(old);
        freelocale(c);
    }
    return rc;
}
