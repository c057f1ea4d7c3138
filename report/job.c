/*
 * job.c - a job of many processes as one profile, and its trace.
 *
 * A job directory holds a part per process (rank-N, rank-N.K for the
 * images of a rank that exec'd; in a job of more ranks than a group,
 * ranks/G/rank-N; docs/mpi.md), each with the profile.json
 * of a lone process. The job's profile is their sum: functions matched by
 * symbol with visits and times added, metrics by their mode (summed, or the
 * maximum of an absolute one), min and max over all calls,
 * threads side by side and labelled with their rank, and for every
 * function its visits and exclusive time per rank (smallest, mean,
 * largest, and where). Fork children (rank-N/fork-PID) are not parts.
 *
 * Parts are read one at a time and folded in: memory is the sum of the
 * call trees (the trees and flame graph need them), not a copy per part.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hash.h"
#include "job_layout.h"
#include "otf2merge/otf2_merge.h"
#include "profile_format.h"
#include "report.h"

typedef struct {
    char *name;
    int64_t rank, image;
} part_name;

static int cmp_part(const void *a, const void *b)
{
    const part_name *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return (x->image > y->image) - (x->image < y->image);
}

/* A part, or a group of parts, that could not be looked into (another
 * user's, chmod 000): an error, not a rank that is missing. */
typedef struct {
    char path[LW_JOB_PATH_MAX]; /* "" when none */
    int err;
    int64_t rank; /* -1 for a group of parts */
} part_denied;

typedef struct {
    const char *dir;
    int any, first; /* first: stop at the first part found */
    part_name *v;
    size_t n;
    part_denied *denied; /* the first part that could not be looked into, or NULL */
} part_list;

/* A part that has a profile.json (or, with `any`, a config.txt) joins the
 * list, named by its path relative to the job's directory. One whose
 * files cannot be looked for (EACCES) is noted in l->denied, and with
 * `first` it counts as found: the job is a job, and its reading says why
 * it fails. */
static int add_part(void *ctx, const char *rel, long long rank, long long image)
{
    part_list *l = ctx;
    char path[LW_JOB_PATH_MAX];
    snprintf(path, sizeof path, "%s/%s/%s", l->dir, rel, l->any ? "config.txt" : LWP_FILE);
    if (access(path, F_OK) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return 0;
        if (l->denied && !l->denied->path[0]) {
            snprintf(l->denied->path, sizeof l->denied->path, "%s/%s", l->dir, rel);
            l->denied->err = errno;
            l->denied->rank = rank;
        }
        return l->first ? -1 : 0;
    }
    l->v = lwr_xrealloc(l->v, (l->n + 1) * sizeof *l->v);
    l->v[l->n++] = (part_name){lwr_xstrdup(rel), rank, image};
    return l->first ? -1 : 0;
}

/* The parts of the job in `dir` (job_layout.h), by rank and image; with
 * `first`, the first found only. `denied`, when not NULL, gets the first
 * part or group of parts that could not be looked into. */
static part_name *list_parts(const char *dir, size_t *n, int any, int first, part_denied *denied)
{
    part_denied none;
    part_list l = {dir, any, first, NULL, 0, denied ? denied : &none};
    l.denied->path[0] = 0;
    lw_job_walk w = {.fn = add_part, .ctx = &l};
    lw_job_parts(&w, dir);
    /* A group (ranks/G) that cannot be read; the job's own directory is
     * not a group: lwr_profile_load says what is wrong with it. */
    if (w.unreadable && w.err != ENOENT && !l.denied->path[0] && strcmp(w.first + strlen(dir), "/") != 0) {
        snprintf(l.denied->path, sizeof l.denied->path, "%s", w.first);
        size_t len = strlen(l.denied->path);
        if (len > 1 && l.denied->path[len - 1] == '/')
            l.denied->path[len - 1] = 0;
        l.denied->err = w.err;
        l.denied->rank = -1;
    }
    if (l.n)
        qsort(l.v, l.n, sizeof *l.v, cmp_part);
    *n = l.n;
    return l.v;
}

static void free_parts(part_name *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i].name);
    free(v);
}

/* Whether `dir` holds a part (with `any`, one without a profile). */
static int has_part(const char *dir, int any)
{
    size_t n;
    part_denied denied;
    part_name *v = list_parts(dir, &n, any, 1, &denied);
    free_parts(v, n);
    return n > 0 || denied.path[0];
}

int lwr_job_has_parts(const char *dir)
{
    return has_part(dir, 1);
}

/* A job's directory with parts is read from its parts, whether or not
 * the job's reduced profile.json is beside them (docs/mpi.md); a reduced
 * profile without parts, or beside parts that hold traces only, is read
 * as it is. */
int lwr_is_job(const char *dir)
{
    if (has_part(dir, 0))
        return 1;
    char path[4096];
    snprintf(path, sizeof path, "%s/" LWP_FILE, dir);
    if (access(path, F_OK) == 0)
        return 0;
    return has_part(dir, 1);
}

/* ---- folding parts into the job's profile -------------------------------- */

typedef struct {
    lwr_profile *p;
    /* symbol -> function index, open addressing */
    size_t *slots, mask;
    /* the current rank's visits and exclusive time per function */
    uint64_t *cur_visits, *cur_excl;
    int64_t *last_rank_seen; /* per function: the last rank that called it */
    int64_t *first_missing;  /* per function: the first rank that did not, -1 */
    double *sum_visits, *sum_excl;
    size_t cap;
    int64_t cur_rank;
    size_t nranks;
} fold;

static void rehash(fold *f)
{
    size_t n = f->mask ? 2 * (f->mask + 1) : 256;
    free(f->slots);
    f->slots = calloc(n, sizeof *f->slots);
    if (!f->slots) {
        perror(LWR_PROG);
        exit(1);
    }
    f->mask = n - 1;
    for (size_t i = 0; i < f->p->nfuncs; i++) {
        size_t k = lw_fnv1a(f->p->funcs[i].symbol) & f->mask;
        while (f->slots[k])
            k = (k + 1) & f->mask;
        f->slots[k] = i + 1;
    }
}

/* The job's function for `src`, added (zero) if new. */
static size_t func_index(fold *f, const lwr_func *src)
{
    size_t k = lw_fnv1a(src->symbol) & f->mask;
    for (; f->slots[k]; k = (k + 1) & f->mask)
        if (strcmp(f->p->funcs[f->slots[k] - 1].symbol, src->symbol) == 0)
            return f->slots[k] - 1;
    lwr_profile *p = f->p;
    size_t i = p->nfuncs++;
    if (i >= f->cap) {
        f->cap = f->cap ? 2 * f->cap : 64;
        p->funcs = lwr_xrealloc(p->funcs, f->cap * sizeof *p->funcs);
        f->cur_visits = lwr_xrealloc(f->cur_visits, f->cap * sizeof *f->cur_visits);
        f->cur_excl = lwr_xrealloc(f->cur_excl, f->cap * sizeof *f->cur_excl);
        f->last_rank_seen = lwr_xrealloc(f->last_rank_seen, f->cap * sizeof *f->last_rank_seen);
        f->first_missing = lwr_xrealloc(f->first_missing, f->cap * sizeof *f->first_missing);
        f->sum_visits = lwr_xrealloc(f->sum_visits, f->cap * sizeof *f->sum_visits);
        f->sum_excl = lwr_xrealloc(f->sum_excl, f->cap * sizeof *f->sum_excl);
    }
    lwr_func *d = &p->funcs[i];
    memset(d, 0, sizeof *d);
    d->symbol = lwr_xstrdup(src->symbol);
    d->name = lwr_xstrdup(src->name);
    d->file = lwr_xstrdup(src->file);
    d->throttled = src->throttled ? lwr_xstrdup(src->throttled) : NULL;
    d->line = src->line;
    d->has_minmax = src->has_minmax;
    d->min_ns = UINT64_MAX;
    d->metrics = calloc(p->nmetrics ? p->nmetrics : 1, sizeof(double));
    if (!d->metrics) {
        perror(LWR_PROG);
        exit(1);
    }
    d->has_rank_stats = 1;
    d->rank_visits.min = d->rank_exclusive.min = UINT64_MAX;
    d->rank_visits.min_rank = d->rank_exclusive.min_rank = -1;
    d->rank_visits.max_rank = d->rank_exclusive.max_rank = -1;
    f->cur_visits[i] = f->cur_excl[i] = 0;
    f->last_rank_seen[i] = -1;
    /* Ranks folded before this one did not call it. */
    f->first_missing[i] = f->nranks ? -2 : -1;
    f->sum_visits[i] = f->sum_excl[i] = 0;
    k = lw_fnv1a(src->symbol) & f->mask;
    while (f->slots[k])
        k = (k + 1) & f->mask;
    f->slots[k] = i + 1;
    if (4 * p->nfuncs > 3 * (f->mask + 1))
        rehash(f);
    return i;
}

static void stat_add(lwr_rank_stat *s, uint64_t v, int64_t rank)
{
    if (v < s->min || s->min_rank < 0) {
        s->min = v;
        s->min_rank = rank;
    }
    if (v > s->max || s->max_rank < 0) {
        s->max = v;
        s->max_rank = rank;
    }
}

/* The current rank is complete: its values enter the statistics. */
static void end_rank(fold *f)
{
    if (f->cur_rank < 0)
        return;
    for (size_t i = 0; i < f->p->nfuncs; i++) {
        lwr_func *d = &f->p->funcs[i];
        if (f->last_rank_seen[i] != f->cur_rank) {
            if (f->first_missing[i] == -1)
                f->first_missing[i] = f->cur_rank;
            continue;
        }
        d->ranks_called++;
        stat_add(&d->rank_visits, f->cur_visits[i], f->cur_rank);
        stat_add(&d->rank_exclusive, f->cur_excl[i], f->cur_rank);
        f->sum_visits[i] += (double)f->cur_visits[i];
        f->sum_excl[i] += (double)f->cur_excl[i];
        f->cur_visits[i] = f->cur_excl[i] = 0;
    }
    f->nranks++;
}

/* Each node's metrics one longer, the new one 0 (lwr_tree_walk: call
 * paths may be too deep to recurse along). */
static void widen_node(lwr_node *n, size_t depth, void *ud)
{
    size_t to = *(const size_t *)ud;
    (void)depth;
    n->metrics = lwr_xrealloc(n->metrics, to * sizeof(double));
    n->metrics[to - 1] = 0;
}

/* The job's index of metric `m`; a metric no part had before is added, and
 * every array sized by the metric count grows with it. */
static int metric_slot(lwr_profile *p, const lwr_metric *m)
{
    for (size_t i = 0; i < p->nmetrics; i++)
        if (strcmp(p->metrics[i].name, m->name) == 0)
            return (int)i;
    p->metrics = lwr_xrealloc(p->metrics, (p->nmetrics + 1) * sizeof *p->metrics);
    p->metrics[p->nmetrics].name = lwr_xstrdup(m->name);
    p->metrics[p->nmetrics].unit = lwr_xstrdup(m->unit);
    p->metrics[p->nmetrics].absolute = m->absolute;
    for (size_t i = 0; i < p->nfuncs; i++) {
        p->funcs[i].metrics = lwr_xrealloc(p->funcs[i].metrics, (p->nmetrics + 1) * sizeof(double));
        p->funcs[i].metrics[p->nmetrics] = 0;
    }
    size_t to = p->nmetrics + 1;
    for (size_t t = 0; t < p->nthreads; t++)
        lwr_tree_walk(&p->threads[t].root, widen_node, NULL, &to);
    return (int)p->nmetrics++;
}

typedef struct {
    const int *map;
    size_t from, to;
} remap;

/* A part's node metrics, re-indexed to the job's metric list. */
static void remap_node(lwr_node *n, size_t depth, void *ud)
{
    const remap *r = ud;
    (void)depth;
    double *m = calloc(r->to ? r->to : 1, sizeof *m);
    if (!m) {
        perror(LWR_PROG);
        exit(1);
    }
    for (size_t i = 0; i < r->from; i++)
        m[r->map[i]] = n->metrics[i];
    free(n->metrics);
    n->metrics = m;
}

static void fold_part(fold *f, lwr_profile *part, const part_name *pn)
{
    lwr_profile *p = f->p;
    if (pn->rank != f->cur_rank) {
        end_rank(f);
        f->cur_rank = pn->rank;
    }
    int *map = calloc(part->nmetrics ? part->nmetrics : 1, sizeof *map);
    if (!map) {
        perror(LWR_PROG);
        exit(1);
    }
    for (size_t m = 0; m < part->nmetrics; m++)
        map[m] = metric_slot(p, &part->metrics[m]);
    lwr_part info = {pn->rank, pn->image, part->pid, lwr_xstrdup(part->host), part->nthreads, 0, 0};
    for (size_t i = 0; i < part->nfuncs; i++) {
        const lwr_func *s = &part->funcs[i];
        size_t k = func_index(f, s);
        lwr_func *d = &p->funcs[k];
        d->visits += s->visits;
        d->inclusive_ns += s->inclusive_ns;
        d->exclusive_ns += s->exclusive_ns;
        if (s->has_minmax && s->visits) {
            if (s->min_ns < d->min_ns)
                d->min_ns = s->min_ns;
            if (s->max_ns > d->max_ns)
                d->max_ns = s->max_ns;
        }
        if (!s->has_minmax)
            d->has_minmax = 0;
        for (size_t m = 0; m < part->nmetrics; m++)
            if (p->metrics[map[m]].absolute)
                d->metrics[map[m]] = s->metrics[m] > d->metrics[map[m]] ? s->metrics[m] : d->metrics[map[m]];
            else
                d->metrics[map[m]] += s->metrics[m];
        lwr_args_merge(&d->args, &d->nargs, s->args, s->nargs);
        if (f->last_rank_seen[k] != pn->rank) {
            f->cur_visits[k] = f->cur_excl[k] = 0;
            f->last_rank_seen[k] = pn->rank;
        }
        f->cur_visits[k] += s->visits;
        f->cur_excl[k] += s->exclusive_ns;
        info.visits += s->visits;
        info.exclusive_ns += s->exclusive_ns;
    }
    /* The part's threads move into the job, labelled with their rank. */
    p->threads = lwr_xrealloc(p->threads, (p->nthreads + part->nthreads) * sizeof *p->threads);
    for (size_t t = 0; t < part->nthreads; t++) {
        lwr_thread th = part->threads[t];
        th.rank = pn->rank;
        th.image = pn->image;
        int identity = part->nmetrics == p->nmetrics;
        for (size_t m = 0; identity && m < part->nmetrics; m++)
            identity = map[m] == (int)m;
        if (!identity) {
            remap r = {map, part->nmetrics, p->nmetrics};
            lwr_tree_walk(&th.root, remap_node, NULL, &r);
        }
        p->threads[p->nthreads++] = th;
    }
    free(part->threads);
    part->threads = NULL;
    part->nthreads = 0;
    p->parts = lwr_xrealloc(p->parts, (p->nparts + 1) * sizeof *p->parts);
    p->parts[p->nparts++] = info;
    free(map);
}

int lwr_job_load(lwr_profile *p, const char *dir, int64_t rank)
{
    memset(p, 0, sizeof *p);
    p->path = lwr_xstrdup(dir);
    size_t n;
    part_denied denied;
    part_name *names = list_parts(dir, &n, 0, 0, &denied);
    /* A part that cannot be read is an error, not a rank that is missing
     * ("3 of 4 ranks"): the one asked for, or any with all ranks. */
    if (denied.path[0] && (rank < 0 || denied.rank < 0 || denied.rank == rank)) {
        if (denied.rank >= 0)
            fprintf(stderr, "%s: %s: %s: cannot look for rank %lld's profile.json\n", LWR_PROG, denied.path,
                    denied.err == EACCES ? "permission denied" : strerror(denied.err), (long long)denied.rank);
        else
            fprintf(stderr, "%s: %s: %s: cannot look for the parts of the job in it\n", LWR_PROG, denied.path,
                    denied.err == EACCES ? "permission denied" : strerror(denied.err));
        free_parts(names, n);
        return -1;
    }
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (rank < 0 || names[i].rank == rank)
            names[kept++] = names[i];
        else
            free(names[i].name);
    n = kept;
    if (n == 0) {
        free_parts(names, 0);
        if (rank >= 0)
            fprintf(stderr,
                    "%s: %s: no profile of rank %lld in this job (rank-%lld/profile.json)\n",
                    LWR_PROG, dir, (long long)rank, (long long)rank);
        else {
            char anchor[4096];
            snprintf(anchor, sizeof anchor, "%s/%s", dir, LWP_FILE);
            if (lwr_dir_unfinished(anchor, "LIBWRAP_ENABLE_PROFILING"))
                fprintf(stderr,
                        "%s: %s: no rank wrote its profile.json: the job's processes (its config.txt) "
                        "ended before writing their results (SIGKILL, _exit, a launcher that killed "
                        "them) or are still running\n",
                        LWR_PROG, dir);
            else
                fprintf(stderr,
                        "%s: %s: no profile.json in this job's rank-N directories; was profiling on "
                        "(LIBWRAP_ENABLE_PROFILING)?\n",
                        LWR_PROG, dir);
        }
        return -1;
    }
    fold f = {.p = p, .cur_rank = -1};
    rehash(&f);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        char path[4096];
        lwr_profile part;
        snprintf(path, sizeof path, "%s/%s/profile.json", dir, names[i].name);
        if (lwr_profile_load(&part, path)) {
            lwr_profile_free(&part);
            rc = -1;
            break;
        }
        if (i == 0) {
            p->program = lwr_xstrdup(part.program);
            p->timer = lwr_xstrdup(part.timer);
            p->pid = part.pid;
            p->launcher = lwr_xstrdup(part.launcher);
            p->job = lwr_xstrdup(part.job);
            p->host = lwr_xstrdup(part.host);
            p->size = part.size;
            p->rank = rank >= 0 ? rank : -1;
        }
        fold_part(&f, &part, &names[i]);
        lwr_profile_free(&part);
    }
    end_rank(&f);
    for (size_t i = 0; i < p->nfuncs; i++) {
        lwr_func *d = &p->funcs[i];
        if (d->min_ns == UINT64_MAX)
            d->min_ns = 0;
        /* Ranks that never called it count 0: the smallest value then. */
        if (d->ranks_called < f.nranks) {
            int64_t missing = f.first_missing[i] >= 0 ? f.first_missing[i] : -1;
            if (missing < 0) /* appeared after ranks that lacked it: the first rank */
                missing = p->nparts ? p->parts[0].rank : 0;
            d->rank_visits.min = d->rank_exclusive.min = 0;
            d->rank_visits.min_rank = d->rank_exclusive.min_rank = missing;
        }
        d->rank_visits.mean = f.nranks ? f.sum_visits[i] / (double)f.nranks : 0;
        d->rank_exclusive.mean = f.nranks ? f.sum_excl[i] / (double)f.nranks : 0;
    }
    p->nranks = f.nranks;
    p->is_job = 1;
    if (!p->program)
        p->program = lwr_xstrdup("");
    if (!p->timer)
        p->timer = lwr_xstrdup("");
    free(f.slots);
    free(f.cur_visits);
    free(f.cur_excl);
    free(f.last_rank_seen);
    free(f.first_missing);
    free(f.sum_visits);
    free(f.sum_excl);
    free_parts(names, n);
    return rc;
}

/* ---- the job's trace ------------------------------------------------------ */

int lwr_job_trace(const char *dir, int verbose)
{
    char err[1024];
    size_t nparts = 0;
    /* Merged by the job's last rank, or now; again if a process finished
     * after that merge (the merge knows which parts it holds). */
    int rc = lw_trace_merge_job(dir, &nparts, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "%s: %s: cannot merge the trace parts of this job: %s\n", LWR_PROG, dir,
                err);
        return -1;
    }
    if (rc == 0 && verbose)
        printf("merged the traces of %zu processes into %s/traces.otf2\n", nparts, dir);
    return rc == 1 ? 1 : 0;
}

/* ---- fork children ---------------------------------------------------------- */

/* A fork()ed child writes into <parent dir>/fork-PID (nested again for a
 * grandchild; a rank's child into rank-N/fork-PID). Neither a lone
 * process's report nor a job's sum holds them: they are named. */
typedef struct {
    char **paths;
    uint64_t *visits;
    size_t n;
} fork_list;

static void find_forks(fork_list *fl, const char *dir, int depth)
{
    DIR *d = depth < 64 ? opendir(dir) : NULL; /* depth -1: DIR/ranks */
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        long long rank, image;
        int is_fork = strncmp(e->d_name, "fork-", 5) == 0 && e->d_name[5] >= '0' && e->d_name[5] <= '9';
        /* A job's groups of parts: ranks/G/ holds parts as the job's
         * directory does. */
        int groups = depth == 0 && strcmp(e->d_name, LW_JOB_GROUPS) == 0;
        int group = depth == -1 && lw_job_group_name(e->d_name);
        if (!is_fork && !groups && !group && !(depth == 0 && lw_job_part_name(e->d_name, &rank, &image)))
            continue;
        char *sub = NULL;
        if (asprintf(&sub, "%s/%s", dir, e->d_name) < 0) {
            perror(LWR_PROG);
            exit(1);
        }
        struct stat st;
        if (stat(sub, &st) != 0 || !S_ISDIR(st.st_mode)) {
            free(sub);
            continue;
        }
        char *prof = NULL;
        if (is_fork && asprintf(&prof, "%s/profile.json", sub) >= 0 && access(prof, F_OK) == 0) {
            lwr_profile p;
            uint64_t v = 0;
            if (lwr_profile_load(&p, prof) == 0)
                for (size_t i = 0; i < p.nfuncs; i++)
                    v += p.funcs[i].visits;
            lwr_profile_free(&p);
            fl->paths = lwr_xrealloc(fl->paths, (fl->n + 1) * sizeof *fl->paths);
            fl->visits = lwr_xrealloc(fl->visits, (fl->n + 1) * sizeof *fl->visits);
            fl->paths[fl->n] = lwr_xstrdup(sub);
            fl->visits[fl->n++] = v;
        }
        free(prof);
        find_forks(fl, sub, groups ? -1 : group ? 0 : depth + 1);
        free(sub);
    }
    closedir(d);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t lwr_note_forks(FILE *out, const char *dir, int alone)
{
    fork_list fl = {0};
    find_forks(&fl, dir, 0);
    if (!fl.n)
        return 0;
    /* Sorted by path, visits kept with their path. */
    char **sorted = lwr_xcalloc(fl.n, sizeof *sorted);
    memcpy(sorted, fl.paths, fl.n * sizeof *sorted);
    qsort(sorted, fl.n, sizeof *sorted, cmp_str);
    /* A config.txt: the process claimed the directory, which it does once it
     * has measured, and ended without writing (_exit, SIGKILL), or runs on. */
    char config[4096];
    snprintf(config, sizeof config, "%s/config.txt", dir);
    int claimed = access(config, F_OK) == 0;
    if (alone && claimed)
        fprintf(out,
                "%s: %s: the process wrote no results (no profile.json: it ended by _exit or SIGKILL, or "
                "runs on), %zu child process%s did:",
                LWR_PROG, dir, fl.n, fl.n == 1 ? "" : "es");
    else if (alone)
        fprintf(out, "%s: %s: the process measured no call (no profile.json), %zu child process%s did:",
                LWR_PROG, dir, fl.n, fl.n == 1 ? "" : "es");
    else
        fprintf(out, "%s: %s: %zu child process%s not in this report:", LWR_PROG, dir, fl.n,
                fl.n == 1 ? " is" : "es are");
    for (size_t i = 0; i < fl.n; i++) {
        size_t k = 0;
        while (fl.paths[k] != sorted[i])
            k++;
        if (i == 10) {
            fprintf(out, " and %zu more", fl.n - 10);
            break;
        }
        fprintf(out, "%s %s (%llu calls)", i ? "," : "", sorted[i], (unsigned long long)fl.visits[k]);
    }
    fprintf(out, "; see one with %s %s\n", LWR_PROG, sorted[0]);
    for (size_t i = 0; i < fl.n; i++)
        free(fl.paths[i]);
    free(fl.paths);
    free(fl.visits);
    free(sorted);
    return fl.n;
}
