/*
 * report.h - libwrap-report's internal model: the profile as read from
 * profile.json, the trace as a stream of completed calls, and the writers
 * that turn them into tables, trees and pictures.
 *
 * Every loader returns 0 or -1 after printing one message that names the
 * file and what is wrong; writers return 0 or -1 after naming the output.
 */
#ifndef LIBWRAP_REPORT_H
#define LIBWRAP_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define LWR_PROG "libwrap-report"

/* ---- profile.json ------------------------------------------------------ */

typedef struct lwr_node {
    char *symbol;
    char *name; /* readable name; the symbol when the profile has none */
    uint64_t visits, inclusive_ns, exclusive_ns, min_ns, max_ns;
    int has_minmax;
    double *metrics; /* [profile.nmetrics], 0 when absent */
    char *throttled; /* its function's lwr_func.throttled (lwr_mark_throttled), or NULL */
    struct lwr_node *children;
    size_t nchildren;
} lwr_node;

/* A value over the ranks of a job: smallest, mean, largest, and which
 * rank had the smallest and the largest (the lowest rank on a tie). */
typedef struct lwr_rank_stat {
    uint64_t min, max;
    double mean;
    int64_t min_rank, max_rank;
} lwr_rank_stat;

/* ---- recorded arguments (arguments.c) ---------------------------------- */

/* A number of profile.json as written: exact for integers. */
typedef enum { LWR_NUM_NONE, LWR_NUM_INT, LWR_NUM_UINT, LWR_NUM_DOUBLE } lwr_num_kind;
typedef struct lwr_num {
    lwr_num_kind kind;
    int64_t i;
    uint64_t u;
    double d;
} lwr_num;

/* A bucket of a log2 histogram: values in [lo, hi] (integers) or [lo, hi)
 * (floating point); a bound is LWR_NUM_NONE where it is infinite. */
typedef struct lwr_bucket {
    lwr_num lo, hi;
    uint64_t count;
} lwr_bucket;

/* One of the most frequent values of a string or enum argument. */
typedef struct lwr_argval {
    char *text;    /* the string, or the enum's value as digits */
    int is_string;
    uint64_t count;
    uint64_t overcount; /* at most this much of count may be others' (profile.json "overcount") */
} lwr_argval;

/* A recorded argument of a function (LIBWRAP_ARGUMENTS, docs/arguments.md). */
typedef struct lwr_arg {
    char *name, *type, *kind; /* kind: signed, unsigned, double, string, enum */
    uint64_t count;
    int numeric;            /* sum, min, max and hist are set */
    lwr_num sum, min, max;
    lwr_bucket *hist;
    size_t nhist;
    lwr_argval *values;     /* strings and enums, most frequent first */
    size_t nvalues;
    uint64_t other;         /* calls with a value not listed */
} lwr_arg;

typedef struct lwr_func {
    char *symbol;
    char *name;
    char *file;
    int64_t line;
    uint64_t visits, inclusive_ns, exclusive_ns, min_ns, max_ns;
    int has_minmax;
    /* "throttled" (LIBWRAP_THROTTLE): how its calls were timed ("1/64"), or
     * NULL: visits exact, times estimated from those calls. */
    char *throttled;
    double *metrics;
    /* A job: over its ranks (a rank that did not call it counts 0). */
    int has_rank_stats;
    uint64_t ranks_called;
    lwr_rank_stat rank_visits, rank_exclusive;
    lwr_arg *args; /* recorded arguments, in the profile's order */
    size_t nargs;
} lwr_func;

/* The rank of the one call tree of a reduced job profile. */
#define LWR_ALL_RANKS (-2)

typedef struct lwr_thread {
    int64_t id;
    int64_t rank;  /* the rank of a job's thread, -1 for a lone process, LWR_ALL_RANKS */
    int64_t image; /* 0, or K for the image of rank-N.K (the rank exec'd) */
    lwr_node root; /* synthetic: its children are the thread's call paths */
} lwr_thread;

/* "thread 3", or "rank 2 thread 3" in a job. */
const char *lwr_thread_label(const lwr_thread *t, char buf[64]);

/* One process of a job (a rank-N or rank-N.K part). */
typedef struct lwr_part {
    int64_t rank, image, pid;
    char *host;
    size_t nthreads;
    uint64_t visits, exclusive_ns;
} lwr_part;

typedef struct lwr_metric {
    char *name;
    char *unit;
    /* Mode "absolute" (a level such as ru_maxrss): values combine by their
     * maximum; otherwise ("accumulated") by their sum. */
    int absolute;
} lwr_metric;

typedef struct lwr_profile {
    char *path; /* the file it came from, for messages */
    char *program;
    int64_t pid;
    int64_t rank, size; /* as the process said ("rank", "size"); 0 and 1 when absent */
    char *host, *launcher, *job; /* "" when absent */
    char *timer;
    lwr_metric *metrics;
    size_t nmetrics;
    lwr_func *funcs;
    size_t nfuncs;
    lwr_thread *threads;
    size_t nthreads;
    /* A job (job.c): the sum of its parts. */
    int is_job;
    lwr_part *parts;
    size_t nparts;
    size_t nranks; /* distinct ranks among the parts */
    /* The job's own profile, reduced over its ranks at MPI_Finalize
     * (profile.json with "reduced"): no parts, one call tree for all ranks
     * and threads, per-rank statistics from the runtime. */
    int reduced;
    char reduced_at[32]; /* "MPI_Finalize", or "exit" (through files) */
} lwr_profile;

int lwr_profile_load(lwr_profile *p, const char *path);
/* The value `setting` had in the run that wrote `path` (the config.txt in
 * its directory), allocated, or NULL where it says nothing. */
char *lwr_run_setting(const char *path, const char *setting);
/* Whether the directory of `path` was begun by a process that ended before
 * it wrote its results there: its config.txt says `setting` (the profile's
 * or the trace's) was true, and neither profile.json nor traces.otf2 is
 * there. For the message that says so instead of asking whether this is an
 * experiment directory. */
int lwr_dir_unfinished(const char *path, const char *setting);
#define LWR_UNFINISHED                                                                             \
    "not written: the process that began this directory (its config.txt) ended before writing its " \
    "results (SIGKILL, _exit, a signal handler of the program's that ended it) or is still running"
/* Allocation that exits with perror(LWR_PROG) on failure (profile_read.c). */
char *lwr_xstrdup(const char *s);
void *lwr_xcalloc(size_t n, size_t sz);
void *lwr_xrealloc(void *p, size_t n);
/* The same from text in memory (need not be NUL-terminated); `path` names it
 * in messages. lwr_profile_load reads the file and calls this. */
int lwr_profile_parse(lwr_profile *p, const char *text, size_t len, const char *path);
void lwr_profile_free(lwr_profile *p);

/* Flat per-thread rows computed from a thread's call paths as the runtime
 * computes the summed table: visits and exclusive time add over every call
 * path; inclusive time and metrics count only the outermost activation of a
 * recursive function (metrics combined by their mode); min and max are
 * those of the calls. */
int lwr_thread_functions(const lwr_profile *p, const lwr_thread *t, lwr_func **out, size_t *n);
void lwr_funcs_free(lwr_func *f, size_t n);
/* Adds the metric values `from` into `to` by each metric's mode (sum, or
 * maximum for an absolute metric). */
void lwr_metrics_add(const lwr_profile *p, double *to, const double *from);

/* Reads the "arguments" of a function entry (a json_object); 0, or -1 with
 * *why saying what is wrong (a static string). */
struct json_object;
int lwr_args_parse(struct json_object *entry, lwr_arg **args, size_t *nargs, const char **why);
void lwr_args_free(lwr_arg *a, size_t n);
/* Adds `from` (another process's) into *to, argument by argument (name and
 * type), values by value, histograms by bucket. */
void lwr_args_merge(lwr_arg **to, size_t *nto, const lwr_arg *from, size_t nfrom);
double lwr_num_double(const lwr_num *n);
/* The number as written ("-" when none). */
const char *lwr_num_fmt(char buf[48], const lwr_num *n);

/* ---- jobs (job.c) ------------------------------------------------------- */

/* Whether `dir` is read as a job's parts: rank-N parts with profiles (the
 * job's reduced profile.json beside them or not), or parts without one
 * and no profile.json. */
int lwr_is_job(const char *dir);
/* Whether `dir` holds rank-N parts (a job's, with or without its own
 * reduced profile.json): its trace is merged from them. */
int lwr_job_has_parts(const char *dir);
/* Loads every part's profile.json and sums them into `p` (functions by
 * symbol, threads side by side, per-rank statistics); `rank` >= 0 loads
 * only that rank's parts. */
int lwr_job_load(lwr_profile *p, const char *dir, int64_t rank);
/* Names, in one line on `out`, the fork()ed children under `dir`
 * (fork-PID, nested at any depth, and a job's rank-N/fork-PID), which no
 * report of `dir` includes, with their calls and how to see one; `alone`:
 * as the results of a process that measured nothing itself (a pre-fork
 * server's master). Returns how many. */
size_t lwr_note_forks(FILE *out, const char *dir, int alone);
/* The job's trace, `dir`/traces.otf2, merged from the ranks' parts now if
 * the job did not merge it. 0: there, 1: no trace at all, -1: error. */
int lwr_job_trace(const char *dir, int verbose);

/* ---- tables ------------------------------------------------------------ */

typedef enum { LWR_TEXT, LWR_TSV, LWR_JSON } lwr_format;
typedef enum { LWR_SORT_EXCLUSIVE, LWR_SORT_INCLUSIVE, LWR_SORT_VISITS, LWR_SORT_MEAN, LWR_SORT_NAME } lwr_sort;

typedef struct lwr_table_opts {
    lwr_format format;
    lwr_sort sort;
    size_t top; /* 0: all rows */
    int per_thread;
} lwr_table_opts;

/* Sorts `f` in place: by key descending (name ascending), ties by name then symbol. */
void lwr_sort_funcs(lwr_func *f, size_t n, lwr_sort key);
int lwr_print_table(FILE *out, const lwr_profile *p, const lwr_table_opts *o);
int lwr_print_tree(FILE *out, const lwr_profile *p, int max_depth);
int lwr_print_diff(FILE *out, const lwr_profile *a, const lwr_profile *b, const lwr_table_opts *o);
/* The recorded arguments (--arguments): a row per function and argument,
 * the histogram or the most frequent values below (text); TSV and JSON. */
int lwr_print_arguments(FILE *out, const lwr_profile *p, const lwr_table_opts *o);
/* The arguments of two runs side by side (--diff); 0 when neither has any
 * and nothing was printed... in JSON, the value of "arguments". */
int lwr_print_arguments_diff(FILE *out, const lwr_profile *a, const lwr_profile *b, const lwr_table_opts *o);
int lwr_profile_has_arguments(const lwr_profile *p);
/* The HTML report's section (html.c), nothing when none was recorded. */
void lwr_html_arguments(FILE *out, const lwr_profile *p);

/* ---- output files (output.c) -------------------------------------------- */

/* A file the report writes: to a temporary file beside `path`, renamed over
 * it by lwr_out_commit once complete; lwr_out_abort removes it. A failure
 * never truncates or removes the file that was at `path`. A device or pipe
 * (/dev/stdout) is written directly. Open and commit print the message
 * naming `path` ("cannot create", "write failed") and return -1. */
typedef struct lwr_out {
    FILE *f;
    char *path;   /* as given, for messages */
    char *target; /* what is replaced: path, or the file a link names */
    char *tmp;    /* NULL when written directly */
} lwr_out;
int lwr_out_open(lwr_out *o, const char *path);
int lwr_out_commit(lwr_out *o);
void lwr_out_abort(lwr_out *o);

/* ---- pictures ---------------------------------------------------------- */

/* The flame graph as one <svg> element (embeddable in HTML) or a file. */
int lwr_flame_svg(FILE *out, const lwr_profile *p, int standalone);

/* ---- trace --------------------------------------------------------------- */

typedef struct lwr_region {
    char *name;
    char *symbol;
    char *file;
    uint32_t line;
} lwr_region;

/* What a trace reader hands to its consumer, one location at a time. */
typedef struct lwr_trace_sink {
    void *ud;
    /* The definitions are complete; `regions` stay valid until the end. */
    int (*defs)(void *ud, const lwr_region *regions, size_t nregions, uint64_t duration_ns);
    /* `group`: the location group (a process: "rank 2" in a job's trace,
     * "process PID" in a lone process's); `ngroups` of them in the trace. */
    int (*location_begin)(void *ud, uint64_t id, const char *name, uint32_t group, const char *group_name,
                          size_t ngroups);
    /* A finished call: depth 0 is outermost. Called in order of leaving. */
    int (*call)(void *ud, uint32_t region, uint64_t begin_ns, uint64_t end_ns, unsigned depth);
    int (*metric)(void *ud, const char *name, uint64_t ns, double value); /* may be NULL */
    int (*location_end)(void *ud);                                       /* may be NULL */
} lwr_trace_sink;

/* Streams the OTF2 archive `anchor` (…/traces.otf2) into `sink`; `rank`
 * >= 0 keeps only the locations of that rank of a job. */
int lwr_trace_read(const char *anchor, const lwr_trace_sink *sink, int64_t rank);

/* Chrome trace-event JSON, written while the trace streams. */
int lwr_chrome_json(const char *anchor, const char *out_path, int64_t rank);

/* A downsampled per-thread timeline for the HTML report. */
typedef struct lwr_timeline lwr_timeline;
int lwr_timeline_build(const char *anchor, size_t max_spans, int64_t rank, lwr_timeline **out);
/* Writes the timeline as a JavaScript object literal. */
void lwr_timeline_write_js(FILE *out, const lwr_timeline *t);
/* Calls left out of the timeline (span cap, depth cap). */
uint64_t lwr_timeline_dropped(const lwr_timeline *t);
void lwr_timeline_free(lwr_timeline *t);

int lwr_html(const char *out_path, const lwr_profile *p, const char *trace_anchor, int64_t rank);

/* ---- formatting helpers (format.c) ---------------------------------------- */

/* A function's display name: its readable name, or its symbol where the
 * name is absent (NULL) or empty (common/profile_format.h). */
const char *lwr_display_name(const char *name, const char *symbol);
/* Adaptive units: "812 ns", "12.35 us", "4.20 ms", "1.234 s". */
const char *lwr_fmt_time(char buf[32], double ns);
void lwr_xml_escape(FILE *out, const char *s);
void lwr_json_string(FILE *out, const char *s);
/* A recorded string in a text table: quoted, with C's escapes for '"',
 * '\\', newline, tab and CR, \xNN for other control bytes and bytes that
 * are not UTF-8; '<' and the rest as they are (lwr_json_string's
 * \u003c is for JSON inside HTML). */
void lwr_text_string(FILE *out, const char *s);
/* After the member "KEY": lwr_json_string(s), writes ", \"KEY_bytes\": HEX"
 * when s is not valid UTF-8 (it was written with U+FFFD), so the original
 * bytes survive (common/utf8.h); nothing otherwise. */
void lwr_json_bytes(FILE *out, const char *key, const char *s);
/* A displayable value of a metric total: integer when it is one. */
void lwr_fmt_metric(char buf[40], double v);

/* The deepest call path the report reads, in levels: twice the 32,768 a
 * thread of the runtime measures nested (its return slots, docs/abi.md).
 * A deeper profile.json is refused with a message that says so. The
 * reader and every walk of the call trees below are iterative (explicit
 * stacks on the heap), so no depth up to this one strains the C stack. */
#define LWR_MAX_CALL_DEPTH 65536

/* Levels of the call tree below and including n (1 for a leaf). */
size_t lwr_tree_depth(const lwr_node *n);
/* Visits n and every node below it without recursion: pre() before a
 * node's children, post() after them (either may be NULL), with the
 * node's depth (0 for n) and `ud`; children in their order. post() may
 * free the node's children. */
void lwr_tree_walk(lwr_node *n, void (*pre)(lwr_node *, size_t, void *), void (*post)(lwr_node *, size_t, void *),
                   void *ud);
/* The call paths below `root`, depth first without recursion, each
 * node's children in the order `cmp` gives (qsort's, on lwr_node *
 * elements): visit(k, depth, x, ud) for each (depth 1 for root's
 * children), which returns whether to go on into k's children. `x` is a
 * place of the level's own, for a position the visits of one level
 * carry from a child to the next (a flame graph's): it starts, for k's
 * children, at the value visit left in *child_x (`x0` for root's). */
void lwr_walk_sorted(const lwr_node *root, int (*cmp)(const void *, const void *), double x0,
                     int (*visit)(const lwr_node *k, size_t depth, double *x, double *child_x, void *ud),
                     void *ud);
/* Each call path of a throttled function marked so (lwr_node.throttled),
 * for the views built from the call trees. */
void lwr_mark_throttled(lwr_profile *p);

/* Pointers to the n elements (of `size` bytes) at `base`, sorted with `cmp`
 * (which compares two such pointers): a sorted view that leaves the data in
 * place. Free the result; exits on out-of-memory. */
const void **lwr_sorted_view(const void *base, size_t n, size_t size,
                             int (*cmp)(const void *, const void *));

#endif /* LIBWRAP_REPORT_H */
