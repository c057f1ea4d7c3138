/*
 * main.c - libwrap-report: command line (docs/report.md).
 *
 * Exit status: 0 done, 1 bad input (the message names the file), 2 usage.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile_format.h"
#include "report.h"

static void usage(FILE *out)
{
    fputs("usage: " LWR_PROG " [--format=text|tsv|json] [--top N] [--sort=exclusive|inclusive|visits|mean|name]\n"
          "                      [--threads] [--rank N] DIR\n"
          "       " LWR_PROG " --tree [--depth N] DIR\n"
          "       " LWR_PROG " --flamegraph[=FILE.svg] DIR     (default DIR/flamegraph.svg)\n"
          "       " LWR_PROG " --timeline[=FILE.json] DIR      (default DIR/timeline.json; needs the trace)\n"
          "       " LWR_PROG " --html[=FILE.html] DIR          (default DIR/report.html)\n"
          "       " LWR_PROG " --arguments [--format=...] [--top N] DIR   (recorded arguments, LIBWRAP_ARGUMENTS)\n"
          "       " LWR_PROG " --diff [--arguments] DIR_A DIR_B [--format=...] [--top N]\n"
          "       " LWR_PROG " --merge DIR                     (a job: its ranks' traces into DIR/traces.otf2)\n"
          "DIR is a libwrap experiment directory (LIBWRAP_EXPERIMENT_DIRECTORY), or its profile.json\n"
          "or traces.otf2. The directory of a job (mpirun, srun) shows all its ranks, --rank N one of\n"
          "them. The table is printed when nothing else is asked for, or with --top.\n",
          out);
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: ", LWR_PROG);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry '%s --help'.\n", LWR_PROG);
    return 2;
}

/* Experiment paths from a directory, a profile.json or a traces.otf2. */
typedef struct {
    char *dir, *profile, *trace;
    int job; /* the directory of a job: its rank-N parts are the profile */
} experiment;

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static char *join(const char *dir, const char *name)
{
    char *r;
    if (asprintf(&r, "%s/%s", dir, name) < 0) {
        perror(LWR_PROG);
        exit(1);
    }
    return r;
}

static void experiment_init(experiment *e, const char *arg)
{
    struct stat st;
    if (stat(arg, &st) == 0 && S_ISREG(st.st_mode) && (ends_with(arg, ".json") || ends_with(arg, ".otf2"))) {
        const char *slash = strrchr(arg, '/');
        e->dir = slash ? strndup(arg, (size_t)(slash - arg)) : strdup(".");
        if (!e->dir) {
            perror(LWR_PROG);
            exit(1);
        }
        int is_json = ends_with(arg, ".json");
        e->profile = is_json ? strdup(arg) : join(e->dir, LWP_FILE);
        e->trace = is_json ? join(e->dir, "traces.otf2") : strdup(arg);
        return;
    }
    e->dir = strdup(arg);
    e->profile = join(arg, LWP_FILE);
    e->trace = join(arg, "traces.otf2");
    e->job = lwr_is_job(arg);
}

/* The profile of an experiment: its profile.json, or its job's parts. */
static int experiment_profile(const experiment *e, lwr_profile *p, int64_t rank)
{
    if (e->job)
        return lwr_job_load(p, e->dir, rank);
    /* A pre-fork server's master, which calls nothing measured: its
     * workers' results are named, not a missing file. */
    if (access(e->profile, F_OK) != 0 && lwr_note_forks(stderr, e->dir, 1))
        return -1;
    if (lwr_profile_load(p, e->profile))
        return -1;
    if (rank >= 0 && p->reduced) {
        if (lwr_is_job(e->dir))
            fprintf(stderr, "%s: %s: --rank %lld: this is the job's profile, reduced over its ranks; "
                    "the ranks' parts are read with libwrap-report %s --rank %lld\n",
                    LWR_PROG, e->profile, (long long)rank, e->dir, (long long)rank);
        else
            fprintf(stderr,
                    "%s: %s: --rank %lld: this is the job's profile, reduced over its ranks at %s; "
                    "run the job with LIBWRAP_JOB_PARTS=true for a profile per rank\n",
                    LWR_PROG, e->profile, (long long)rank, p->reduced_at);
        return -1;
    }
    if (rank >= 0 && rank != p->rank) {
        fprintf(stderr, "%s: %s: --rank %lld: this is the profile of %s %lld, not a job's directory\n", LWR_PROG,
                e->profile, (long long)rank, p->size > 1 ? "rank" : "a lone process, rank", (long long)p->rank);
        return -1;
    }
    return 0;
}

/* A job's trace is merged from its ranks' parts when first needed. */
static int experiment_trace(const experiment *e)
{
    return (e->job || lwr_job_has_parts(e->dir)) && lwr_job_trace(e->dir, 1) < 0 ? -1 : 0;
}

static void experiment_free(experiment *e)
{
    free(e->dir);
    free(e->profile);
    free(e->trace);
}

static int parse_count(const char *s, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < 0)
        return -1;
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    enum { OPT_FORMAT = 256, OPT_TOP, OPT_SORT, OPT_THREADS, OPT_TREE, OPT_DEPTH, OPT_FLAME, OPT_TIMELINE,
           OPT_HTML, OPT_DIFF, OPT_HELP, OPT_VERSION, OPT_RANK, OPT_MERGE, OPT_ARGUMENTS };
    static const struct option opts[] = {
        {"format", required_argument, 0, OPT_FORMAT},   {"top", required_argument, 0, OPT_TOP},
        {"sort", required_argument, 0, OPT_SORT},       {"threads", no_argument, 0, OPT_THREADS},
        {"tree", no_argument, 0, OPT_TREE},             {"depth", required_argument, 0, OPT_DEPTH},
        {"flamegraph", optional_argument, 0, OPT_FLAME}, {"timeline", optional_argument, 0, OPT_TIMELINE},
        {"html", optional_argument, 0, OPT_HTML},       {"diff", no_argument, 0, OPT_DIFF},
        {"help", no_argument, 0, OPT_HELP},             {"version", no_argument, 0, OPT_VERSION},
        {"rank", required_argument, 0, OPT_RANK},       {"merge", no_argument, 0, OPT_MERGE},
        {"arguments", no_argument, 0, OPT_ARGUMENTS},  {0, 0, 0, 0}};
    lwr_table_opts to = {LWR_TEXT, LWR_SORT_EXCLUSIVE, 0, 0};
    int tree = 0, diff = 0, top_given = 0, merge = 0, arguments = 0;
    long depth = 0;
    int64_t rank = -1;
    int want_flame = 0, want_timeline = 0, want_html = 0;
    const char *flame_out = NULL, *timeline_out = NULL, *html_out = NULL;

    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        long n;
        switch (c) {
        case OPT_FORMAT:
            if (strcmp(optarg, "text") == 0)
                to.format = LWR_TEXT;
            else if (strcmp(optarg, "tsv") == 0)
                to.format = LWR_TSV;
            else if (strcmp(optarg, "json") == 0)
                to.format = LWR_JSON;
            else
                return usage_error("--format=%s: expected text, tsv or json", optarg);
            break;
        case OPT_TOP:
            if (parse_count(optarg, &n))
                return usage_error("--top %s: expected a number of rows (0 for all)", optarg);
            to.top = (size_t)n;
            top_given = 1;
            break;
        case OPT_SORT: {
            static const char *keys[] = {"exclusive", "inclusive", "visits", "mean", "name"};
            size_t k = 0;
            while (k < 5 && strcmp(optarg, keys[k]) != 0)
                k++;
            if (k == 5)
                return usage_error("--sort=%s: expected exclusive, inclusive, visits, mean or name", optarg);
            to.sort = (lwr_sort)k;
            break;
        }
        case OPT_THREADS: to.per_thread = 1; break;
        case OPT_TREE: tree = 1; break;
        case OPT_DEPTH:
            if (parse_count(optarg, &n) || n > 100000)
                return usage_error("--depth %s: expected a number of levels (0 for all)", optarg);
            depth = n;
            break;
        case OPT_FLAME: want_flame = 1; flame_out = optarg; break;
        case OPT_TIMELINE: want_timeline = 1; timeline_out = optarg; break;
        case OPT_HTML: want_html = 1; html_out = optarg; break;
        case OPT_DIFF: diff = 1; break;
        case OPT_MERGE: merge = 1; break;
        case OPT_ARGUMENTS: arguments = 1; break;
        case OPT_RANK:
            if (parse_count(optarg, &n))
                return usage_error("--rank %s: expected a rank of the job (0, 1, ...)", optarg);
            rank = n;
            break;
        case 'h':
        case OPT_HELP: usage(stdout); return 0;
        case OPT_VERSION: printf("%s 0.1.0\n", LWR_PROG); return 0;
        default:
            return usage_error("unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    int nargs = argc - optind;
    if (diff) {
        if (nargs != 2)
            return usage_error("--diff needs two experiment directories%s", "");
        if (tree || want_flame || want_timeline || want_html)
            return usage_error("--diff cannot be combined with pictures or --tree%s", "");
        experiment a = {0}, b = {0};
        lwr_profile pa, pb;
        memset(&pb, 0, sizeof pb);
        experiment_init(&a, argv[optind]);
        experiment_init(&b, argv[optind + 1]);
        int rc = 1;
        if (experiment_profile(&a, &pa, rank) == 0) {
            if (experiment_profile(&b, &pb, rank) != 0) {
                rc = 1;
            } else if (arguments) {
                rc = lwr_print_arguments_diff(stdout, &pa, &pb, &to) ? 1 : 0;
                if (to.format == LWR_JSON)
                    putchar('\n');
            } else {
                rc = lwr_print_diff(stdout, &pa, &pb, &to) ? 1 : 0;
            }
            lwr_profile_free(&pb);
        }
        lwr_profile_free(&pa);
        experiment_free(&a);
        experiment_free(&b);
        return rc;
    }
    if (nargs != 1) {
        char n[24];
        snprintf(n, sizeof n, "%d", nargs);
        return usage_error(nargs ? "expected one experiment directory, got %s arguments" : "missing DIR%s",
                           nargs ? n : "");
    }

    experiment e = {0};
    experiment_init(&e, argv[optind]);
    if (merge) {
        if (tree || want_flame || want_timeline || want_html || top_given)
            return usage_error("--merge cannot be combined with tables or pictures%s", "");
        int rc = 1;
        /* A job's reduced profile beside traced parts is a job too. */
        if (!e.job && !lwr_job_has_parts(e.dir))
            fprintf(stderr, "%s: %s: not the directory of a job (no rank-N subdirectories); nothing to merge\n",
                    LWR_PROG, e.dir);
        else if ((rc = lwr_job_trace(e.dir, 1)) == 1)
            printf("no trace in %s: the job ran without LIBWRAP_ENABLE_TRACING=true\n", e.dir);
        else if (rc == 0 && access(e.trace, F_OK) == 0)
            printf("job trace: %s\n", e.trace);
        experiment_free(&e);
        return rc < 0 ? 1 : 0;
    }
    if (arguments && (tree || want_flame || want_timeline || want_html || merge))
        return usage_error("--arguments cannot be combined with pictures or --tree%s", "");
    int table = !arguments && (top_given || !(tree || want_flame || want_timeline || want_html));
    int need_profile = table || arguments || tree || want_flame || want_html;
    lwr_profile p;
    memset(&p, 0, sizeof p);
    int rc = 0;
    if (need_profile && experiment_profile(&e, &p, rank)) {
        rc = 1;
        goto out;
    }
    if ((want_timeline || want_html) && experiment_trace(&e)) {
        rc = 1;
        goto out;
    }
    /* A note on stderr: the formats on stdout stay as they are. */
    if (need_profile)
        lwr_note_forks(stderr, e.dir, 0);
    if (table && lwr_print_table(stdout, &p, &to))
        rc = 1;
    if (arguments && lwr_print_arguments(stdout, &p, &to))
        rc = 1;
    if (rc == 0 && tree && lwr_print_tree(stdout, &p, (int)depth))
        rc = 1;
    if (rc == 0 && want_flame) {
        char *path = flame_out ? strdup(flame_out) : join(e.dir, "flamegraph.svg");
        lwr_out f;
        if (lwr_out_open(&f, path)) {
            rc = 1;
        } else if (lwr_flame_svg(f.f, &p, 1)) {
            lwr_out_abort(&f);
            rc = 1;
        } else if (lwr_out_commit(&f)) {
            rc = 1;
        } else {
            printf("flame graph: %s\n", path);
        }
        free(path);
    }
    if (rc == 0 && want_timeline) {
        char *path = timeline_out ? strdup(timeline_out) : join(e.dir, "timeline.json");
        if (lwr_chrome_json(e.trace, path, e.job ? rank : -1))
            rc = 1;
        else
            printf("timeline: %s (open in https://ui.perfetto.dev or chrome://tracing)\n", path);
        free(path);
    }
    if (rc == 0 && want_html) {
        char *path = html_out ? strdup(html_out) : join(e.dir, "report.html");
        if (lwr_html(path, &p, e.trace, e.job ? rank : -1))
            rc = 1;
        else
            printf("HTML report: %s\n", path);
        free(path);
    }
out:
    lwr_profile_free(&p);
    experiment_free(&e);
    if (fflush(stdout) != 0)
        rc = 1;
    return rc;
}
