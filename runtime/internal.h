/*
 * internal.h - the runtime's private interfaces between its files.
 *
 *   config.c        LIBWRAP_* variables, config.txt, logging
 *   timer.c         tick source (rdtsc or clock_gettime) and its calibration
 *   thread.c        per-thread state, registry of threads, TSD destructor
 *   region.c        region registry and the runtime filter
 *   profile.c       the hot path (libwrap_enter/exit) and the call tree
 *   profile_write.c profile.json, profile.txt
 *   arguments*.c    argument recording (LIBWRAP_ARGUMENTS; arguments.h)
 *   compensate.c    the measurement's own cost, calibrated at start
 *   lifecycle.c     start, finalisation, fork, fatal signals, results dir
 *   exec.c          exec family: write results, keep our environment
 *   clone.c         clone() without CLONE_VM handled as a fork
 *   job.c           jobs of many processes: rank, job directory, end of job
 *   mpi.c           what the runtime does inside MPI_Init and MPI_Finalize
 *   resolve.c       libwrap_resolve_fallback and friends
 *   plugin.c        plugins: metric sources and event listeners (plugin.h)
 *   json.c          the streaming JSON writer of profile.json
 */
#ifndef LIBWRAP_RUNTIME_INTERNAL_H
#define LIBWRAP_RUNTIME_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "filter.h"
#include "libwrap/libwrap.h"
#include "libwrap/plugin.h"

/* Everything below is internal to the runtime's shared object: declared
 * hidden, so that -fPIC code reaches it directly instead of through the GOT. */
#pragma GCC visibility push(hidden)

#define LW_MAX_METRICS LIBWRAP_MAX_METRICS
#define LW_MAX_PLUGINS 16

#define lw_likely(x) __builtin_expect(!!(x), 1)
#define lw_unlikely(x) __builtin_expect(!!(x), 0)
/* Flags shared between threads: plain loads and stores on x86, visible to
 * ThreadSanitizer as atomics. */
#define LW_LOAD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define LW_STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
/* Leaving the runtime on the hot path. A release store (a plain store on
 * x86): the finaliser's acquire load of the guard that finds it clear then
 * sees everything the thread wrote to its stack and tree before, which is
 * what lets it close that thread's frames (lw_finish). */
#define LW_GUARD_CLEAR() __atomic_store_n(&lw_tls.guard, 0, __ATOMIC_RELEASE)
/* lw_tls.guard: bit 0 the runtime runs on this thread; bit 1 (with it) a
 * signal handler interrupted it, and the handler's wrapped calls go to the
 * thread's lane (lane.h, signal.c). The same value as abi.h's. */
#define LW_GUARD_SIGNAL 2
/* The guard of a thread whose signal handler left the runtime by longjmp
 * (signal.c): held for good, and not waited for by the finaliser. */
#define LW_GUARD_ABANDONED 5

/* ---- config.c ---------------------------------------------------------- */

enum lw_timer_kind { LW_TIMER_TSC, LW_TIMER_CLOCK };

/* Debug log domains of LIBWRAP_VERBOSE. */
enum lw_log_domain {
    LW_LOG_CONFIG = 1u << 0,
    LW_LOG_TIMER = 1u << 1,
    LW_LOG_THREAD = 1u << 2,
    LW_LOG_REGION = 1u << 3,
    LW_LOG_PROFILE = 1u << 4,
    LW_LOG_LIFECYCLE = 1u << 5,
    LW_LOG_RESOLVE = 1u << 6,
    LW_LOG_EXEC = 1u << 7,
    LW_LOG_JOB = 1u << 8,
    LW_LOG_PLUGIN = 1u << 9,
    LW_LOG_ALL = 0x3ffu,
};

struct lw_json;

struct lw_config {
    bool profiling;
    bool compensate;             /* LIBWRAP_COMPENSATE: take the measurement's own cost
                                  * out of the profile's times (compensate.c) */
    bool tracing;                /* LIBWRAP_ENABLE_TRACING: loads the otf2 listener; off
                                  * when it cannot be loaded */
    bool tracing_requested;      /* as set */
    bool mpi_collectives;        /* take part in MPI at MPI_Init/MPI_Finalize (docs/mpi.md) */
    bool measure_launcher;       /* LIBWRAP_MEASURE_LAUNCHER: measure mpirun, orted, srun, ... */
    bool job_parts;              /* LIBWRAP_JOB_PARTS: every rank writes its own profile */
    enum lw_timer_kind timer; /* requested; lw_timer_name() says what is used */
    size_t total_memory;
    unsigned verbose;            /* set of lw_log_domain */
    char *experiment_directory;  /* as set, NULL: default name */
    char *filtering_file;        /* NULL: none */
    char *metric_plugins;        /* LIBWRAP_METRIC_PLUGINS, NULL: none */
    char *listeners;             /* LIBWRAP_LISTENERS, NULL: none */
    char *plugin_path;           /* LIBWRAP_PLUGIN_PATH, NULL: none */
    char *arguments;             /* LIBWRAP_ARGUMENTS; NULL: none */
    uint64_t throttle_calls;     /* LIBWRAP_THROTTLE=CALLS:NS; 0: off (throttle.c) */
    double throttle_ns;
};

extern struct lw_config lw_cfg;

/* Reads every LIBWRAP_* variable; an invalid value warns and takes the default. */
void lw_config_load(void);
/* Writes NAME=value for every effective setting. Returns 0 or -1 (errno). */
int lw_config_write(FILE *out, const char *experiment_dir);
/* The effective value of a LIBWRAP_* setting as config.txt writes it, in a
 * static buffer, or NULL (libwrap_host.setting). */
const char *lw_config_setting(const char *name);

/* ---- log.c: the one message path ------------------------------------- */

void lw_log(unsigned domain, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *lw_log_domain_name(unsigned i); /* of bit i; NULL past the last */
/* Who speaks, put after "libwrap: " in every message: "rank 3: " inside a
 * job, "" for a lone process. Set by job.c. */
void lw_message_who(const char *who);
void lw_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void lw_vwarn(const char *fmt, va_list ap);
void lw_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- timer.c ----------------------------------------------------------- */

extern int lw_timer_tsc; /* 1: ticks are TSC cycles (AArch64: the virtual
                          * counter cntvct_el0), 0: CLOCK_MONOTONIC ns */

/* The TSC, or AArch64's virtual counter; only called when lw_timer_tsc is
 * set. */
static inline uint64_t lw_rdtsc(void)
{
#if defined(__x86_64__) || defined(__i386__)
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
#elif defined(__aarch64__)
    /* A system register read in user space (Linux sets CNTKCTL_EL1.EL0VCTEN),
     * no barrier: the order against the measured code is the call's. */
    uint64_t v;
    __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
    return v;
#else
    return 0;
#endif
}

static inline uint64_t lw_ticks(void)
{
    if (lw_likely(lw_timer_tsc))
        return lw_rdtsc();
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void lw_timer_init(enum lw_timer_kind requested);
const char *lw_timer_name(void);
/* Fixes the tick rate from the whole run (start to now; waits a few ms for a
 * very short run). Idempotent after the first call. */
void lw_timer_calibrate(void);
double lw_timer_ns_per_tick(void);
uint64_t lw_timer_start_ticks(void);
uint64_t lw_timer_epoch_ns(void); /* CLOCK_REALTIME at start */
uint64_t lw_timer_start_mono(void); /* CLOCK_MONOTONIC at start, ns */
static inline uint64_t lw_ticks_to_ns(uint64_t ticks)
{
    return (uint64_t)((double)ticks * lw_timer_ns_per_tick() + 0.5);
}

/* ---- profile.c: the call tree ----------------------------------------- */

/* The layouts of lw_node, lw_frame, lw_thread and lw_tls_block are read by
 * the ABI trampoline's assembly too (abi.h lists the offsets it uses; abi.c
 * checks them at compile time). */
#define LW_LAST_HITS 4
typedef struct lw_node {
    int32_t region; /* 0 for the root */
    uint32_t args;  /* its recorded arguments: lw_thread.args.blocks[args - 1]; 0 none */
    struct lw_node *parent, *first_child, *next_sibling;
    /* The children found by the last LW_LAST_HITS lookups, the latest
     * first: a parent that calls a few children in turn (a lock, a free,
     * an unlock) finds them here. lw_node_none (region 0, never a match)
     * until there is one, so the hot path needs no NULL test. */
    struct lw_node *last_hit[LW_LAST_HITS];
    uint64_t visits, incl, min, max; /* ticks */
    /* Visits counted without timing: the region is throttled (throttle.c);
     * incl, min and max are those of the other, sampled, visits. */
    uint64_t unmeasured;
    /* Filled in when the profile is written (profile_write.c): exclusive
     * time, inclusive minus the callees' inclusive time (the hot path keeps
     * no per-frame callee sum: with one clock both are the same sums); and
     * both with the measurement's own cost taken out (compensate.c). */
    uint64_t excl, incl_c, excl_c;
    uint64_t metrics[];   /* lw_nmetrics inclusive sums */
} lw_node;

extern lw_node lw_node_none;

/* A frame of the call stack: 32 bytes. stack[-1], below every thread's
 * first frame, is a sentinel: the root of the tree as its node, the highest
 * frame address (nothing below it is ever abandoned) and region 0 (no exit
 * matches it), so the hot path needs no test for an empty stack. */
typedef struct lw_frame {
    lw_node *node;  /* never NULL: a call whose node cannot be had is not recorded */
    uint64_t start;
    void *frame;    /* the wrapper's frame address */
    int32_t region;
    int inherited;  /* entered before fork(): not counted in the child */
} lw_frame;

/* Memory for one thread's tree: mmap'ed chunks, never freed before exit,
 * so the finaliser can read a running thread's tree without a lock. */
typedef struct lw_arena {
    char *cur, *end;
    size_t total;
} lw_arena;

typedef struct lw_tree {
    lw_node *root;
    lw_arena arena;
    lw_node **hash; /* (parent, region) -> node; open addressing */
    size_t hash_mask, hash_used;
} lw_tree;


int lw_tree_init(lw_tree *tree);
lw_node *lw_tree_child(lw_tree *tree, lw_node *parent, int32_t region);

/* ---- thread.c ---------------------------------------------------------- */

/* A thread's recorded arguments (arguments.c): one block per call path
 * node that recorded any, found through lw_node.args, in memory of its own
 * that is never freed before the end (the finaliser reads it). */
typedef struct lw_args_thread {
    struct lw_argblock **blocks;
    uint32_t n, cap;
    lw_arena arena;
} lw_args_thread;

typedef struct lw_thread {
    lw_frame *stack;        /* stack[-1] is the sentinel frame */
    uint32_t depth, cap;
    uint32_t tid;           /* dense, 0 = first thread measured (main) */
    int alive;              /* cleared when the thread has ended */
    int *guard;             /* the thread's lw_tls.guard, read by the finaliser */
    struct lw_thread **fastp; /* the thread's lw_tls.fast, .hot and .hot_ev, */
    struct lw_thread **hotp;  /* cleared by the finaliser */
    struct lw_thread **hot_evp;
    int slow;               /* metrics, or frames inherited at fork: slow path */
    int listen;             /* listeners are loaded (lw_listen_*); those that take
                             * each call (lw_listeners_percall) need the slow path */
    /* The event buffer (listeners with `events`, no SYNC metrics): the fast
     * paths append a record per entry and exit; full, it is delivered
     * (lw_events_flush). NULL when events are not buffered. */
    libwrap_event *ev_pos, *ev_end, *ev_base;
    lw_tree tree;
    uint64_t *mstack;       /* lw_nmetrics values per frame */
    uintptr_t stack_lo, stack_hi; /* the thread's stack, for longjmp detection */
    uint64_t scratch[LW_MAX_METRICS];
    void *metric_handle[LW_MAX_PLUGINS];   /* per metric source (lw_msources) */
    void *listener_handle[LW_MAX_PLUGINS]; /* per listener (lw_listeners) */
    lw_args_thread args;
    struct lw_lane *lane;   /* calls of signal handlers waiting for a merge (lane.h) */
    int busy_at_end;        /* still inside the runtime when measurement ended */
    struct lw_thread *next;
} lw_thread;

/*
 * The hot path's thread-local data, in one initial-exec TLS block: one
 * offset load, then %fs-relative accesses. `guard` is the recursion guard,
 * set while the thread runs runtime code; it lives here, not in lw_thread,
 * because it is needed before the thread state exists.
 *
 * `fast` is the thread's state when its calls may take the fast paths
 * (lw_enter_fast, lw_exit_fast: the TSC timer, no metrics, no listener that
 * wants each call, no frames inherited at fork), else NULL; `hot` the same
 * when, besides, no event is buffered, and `hot_ev` when events are: the
 * ABI trampoline's own assembly fast paths, with and without events; else
 * &lw_thread_none, never NULL, so that the assembly needs no test for them.
 * They are read after the guard is set, which makes them the check that
 * measurement still runs: the finaliser clears them for every thread before
 * its membarrier (lw_finish), so a thread either sees them cleared or is
 * seen holding its guard.
 */
typedef struct lw_tls_block {
    lw_thread *self;
    lw_thread *fast;
    lw_thread *hot;
    int guard;
    int reserved;
    struct lw_ra *ra_top, *ra_base, *ra_end; /* the ABI trampolines' return slots (abi.c) */
    lw_thread *hot_ev;
    struct lw_lane *lane; /* self->lane, for signal handlers (lane.h) */
    uintptr_t busy_pc;    /* where a signal interrupted the runtime (signal.c) */
    /* The plugin callback the thread is in (lw_plugin_mark), for the
     * fatal-signal handler: LW_IN_SOURCE or LW_IN_LISTENER + its slot, 0
     * outside plugins. */
    int plugin_at;
    const char *plugin_cb;
} lw_tls_block;
extern __thread lw_tls_block lw_tls __attribute__((tls_model("initial-exec")));
/* "No thread" for lw_tls.hot: its depth (UINT32_MAX) and cap (0) fail the
 * trampoline's checks. */
extern lw_thread lw_thread_none;

void *lw_map(size_t bytes); /* zeroed anonymous memory, NULL on failure */
lw_thread *lw_thread_attach(void);
int lw_thread_grow_stack(lw_thread *t);
/* Sets the calling thread's lw_tls.fast and .hot from t's flags (its own
 * thread only, measurement running). */
void lw_thread_set_paths(lw_thread *t);
/* Closes the open frames of `t` at `now` (thread end, finalisation). */
void lw_thread_close_frames(lw_thread *t, uint64_t now);
/*
 * The runtime's locks, and the one order in which a thread may hold several
 * of them (outermost first); a path that needs two takes them in this order
 * or a fork() racing with finalisation deadlocks:
 *
 *   1. the region table       lw_region_lock            region.c
 *   2. the thread registry    lw_thread_registry_lock   thread.c
 *   3. the experiment dir     lw_dir_mutex              lifecycle.c
 *   4. the plugins' own locks (the otf2 listener's thread list, OTF2's)
 *
 * lw_finish takes 1, 2, then 3 and 4 through lw_experiment_dir and the
 * trace writer; the atfork prepare handler takes 1, 2, 3 and holds them
 * across fork(); thread start and end take 2 (then 4). The resolver's
 * warn-once list (resolve.c) is a leaf: nothing is taken under it. None of
 * them is taken on the hot path (libwrap_enter/exit). Every holder sets the
 * thread's guard (lw_tls.guard) before it allocates, so the allocator may be
 * wrapped: its wrappers, called under these locks, take none of them
 * (libwrap_region_register and libwrap_enter return "not measured").
 */
void lw_thread_registry_lock(void);
void lw_thread_registry_unlock(void);
lw_thread *lw_thread_first(void); /* under the registry lock */
void lw_thread_init_process(void);
/* In a fork child: only the calling thread remains, with an empty tree. */
void lw_thread_after_fork_child(void);

/* ---- region.c ---------------------------------------------------------- */

void lw_region_init(void); /* loads LIBWRAP_FILTERING_FILE */
/* libwrap_region_register for an ABI-level entry, with its parameter table
 * when it has one (LIBWRAP_ABI_PARAMS). */
int32_t lw_region_register_abi(libwrap_abi_entry *e);
size_t lw_region_count(void);
const libwrap_region *lw_region_get(int32_t id);
/* Stable snapshot of the region table for the trace writer. */
const libwrap_region *const *lw_region_table(size_t *n);
void lw_region_lock(void); /* lock 1 of the order given at lw_thread_registry_lock */
void lw_region_unlock(void);
void lw_region_after_fork_child(void);
/* How a region's calls are forwarded: the wrapper kind whose measurement
 * cost is compensated (compensate.c). Typed unless the ABI path said so. */
enum lw_wrapper_kind { LW_KIND_TYPED, LW_KIND_ABI, LW_NKINDS };
void lw_region_set_kind(int32_t id, enum lw_wrapper_kind kind);
enum lw_wrapper_kind lw_region_kind(int32_t id);

/* ---- static_target.c ------------------------------------------------- */

/* One warning when the executable defines functions of a wrapped library
 * itself (linked statically): their calls are not measured. */
void lw_static_target_check(const libwrap_abi_entry *entries, uint32_t n);

/* ---- throttle.c: LIBWRAP_THROTTLE ------------------------------------- */

/* Through the gate, from the trampoline's exit every 4,096th visit of a
 * call path: throttles its region when LIBWRAP_THROTTLE says so. */
uintptr_t lw_throttle_check(uintptr_t node, uintptr_t unused);
/* The visits after which region `id` was throttled, 0 if it is not. */
uint64_t lw_throttled_after(int32_t id);
/* A call path below region `parent` was made: it is timed again. */
void lw_throttle_callee(int32_t parent);
/* A node's inclusive time estimated from its timed visits (once, when the
 * profile is written). */
void lw_throttle_estimate(lw_node *n);
int lw_throttle_sample(void); /* one call in this many is timed */

/* ---- signal.c ---------------------------------------------------------- */

/* One warning at the end when a signal handler left the runtime by longjmp. */
void lw_signal_report(void);

/* ---- outfile.c ---------------------------------------------------------- */

/*
 * A result file (profile.json, profile.txt, config.txt) is composed in
 * memory and written with write(2), never through a stdio stream of the
 * file: a fork() from another thread while it is written (the end of
 * measurement does not hold fork back) would give the child a copy of the
 * stream's buffer, which the child's exit flushes into our file.
 */
typedef struct lw_out {
    FILE *f;
    char *buf;
    size_t len;
} lw_out;

FILE *lw_out_open(lw_out *o); /* a memory stream; NULL on failure */
/* Closes the stream and writes what it holds into `fd` (closed after) or a
 * new `path`: 0, or -1 with errno. */
int lw_out_write_fd(lw_out *o, int fd);
int lw_out_write(lw_out *o, const char *path);

/* ---- profile_write.c --------------------------------------------------- */

int lw_profile_write(const char *dir);
/* "metrics": the definitions of the first `n` metrics (profile.json and
 * the job's reduced profile). */
void lw_json_metric_defs(struct lw_json *j, size_t n);

/* ---- compensate.c: the measurement's own cost ------------------------- */

/*
 * Calibrated at start (lw_compensate_calibrate, from the constructor after
 * the plugins are loaded) for the timer and the path the run uses, per
 * wrapper kind, in ticks per call: `inside` lands in the measured call's
 * own interval (from its entry timestamp to the original's first
 * instruction, and from the original's return to the exit timestamp),
 * `total` is the whole cost a call adds to its caller's interval. Both 0
 * when compensation is off (LIBWRAP_COMPENSATE=false, or not calibrated).
 */
typedef struct lw_cost {
    double inside, total;
} lw_cost;
extern lw_cost lw_costs[LW_NKINDS];
void lw_compensate_calibrate(void);
int lw_compensating(void);
/* config.txt's lines, profile.json's "compensation", profile.txt's note. */
void lw_compensate_config_write(FILE *out);
void lw_compensate_json(struct lw_json *j);
void lw_compensate_txt(FILE *f);

/* ---- lifecycle.c ------------------------------------------------------- */

/* 0 before start, 1 measuring, 2 stopped (finalising or finished). */
extern int lw_state;
void lw_ensure_started(void);
/* Ends measurement and writes the results; `why` is for the verbose log.
 * The process is done measuring (exit, signal, libwrap_finalize). */
void lw_finish(const char *why);
/* The same before an exec: the new image measures on, so a job's rank is
 * not finished yet. */
void lw_finish_for_exec(void);
/*
 * The steps around a new process (the pthread_atfork handlers, and clone.c
 * for a clone() without CLONE_VM): prepare claims the parent's directory if
 * it measured and takes the runtime's locks (nothing when measurement is
 * not running or the calling thread is inside the runtime); parent gives
 * them back; child gives the child its own fork-PID directory and an empty
 * call tree. lw_fork_pending: prepare took the locks in this thread and
 * neither parent nor child has run since.
 */
void lw_fork_prepare(void);
void lw_fork_parent(void);
void lw_fork_child(void);
int lw_fork_pending(void);
/* The experiment directory of this process, created and claimed on first
 * use; NULL on error. In a job it is <job dir>/rank-N. */
const char *lw_experiment_dir(void);
const char *lw_experiment_dir_claimed(void); /* NULL until claimed */
/* What an exec'd image is given as LIBWRAP_EXPERIMENT_DIRECTORY: the job
 * directory in a job, else the directory just written; NULL if none. */
const char *lw_experiment_dir_for_exec(void);
/* The directory claimed, or else the name this process would claim. */
const char *lw_experiment_dir_base(void);
/* The first measured call of the process (thread.c). */
void lw_note_measured(void);
/* exit() began before any thread had recorded a call: the calls made from
 * then on (ELF destructors of libraries) are not measured (lifecycle.c). */
int lw_exit_unmeasured(void);
/* mkdir -p: every missing directory of path (modified in place, restored);
 * 0, or -1 with errno (lifecycle.c). */
int lw_mkdir_p(char *path);
/* 1 once any thread of this process has recorded a call. */
int lw_measured_something(void);
pid_t lw_process_pid(void);                  /* updated in a fork child */
const char *lw_program_name(void);

/* The job's directory, claimed or joined now (a rank writing the job's
 * reduced profile); NULL if it cannot be had (lifecycle.c). */
const char *lw_job_directory(void);

/* ---- profile_write.c / profile_reduce.c ---------------------------------- */

/* Derives the exclusive and compensated times of a call tree (idempotent). */
void lw_tree_finish(lw_node *n);
/* A call's min or max in ticks, less its own measurement's cost. */
uint64_t lw_minmax_c(int32_t region, uint64_t v);

/*
 * The job's profile, reduced over the ranks (profile_reduce.c; mpi.c moves
 * the bytes): a rank's call paths and functions keyed by symbol, with sums,
 * per-rank extremes and the lowest rank lacking each, for a contiguous
 * range of ranks. Merging the next range's serialised tree extends the
 * range; the first rank of the job writes the result.
 */
typedef struct lw_rtree lw_rtree;
/* This rank's own profile as a tree of the job (threads stopped or not);
 * *visits: the calls it holds. */
lw_rtree *lw_rtree_local(long rank, uint64_t *visits);
/* The tree as bytes (malloc'ed) for the next rank up the reduction. */
int lw_rtree_pack(const lw_rtree *t, char **buf, size_t *len);
/* Adds the next range's packed tree; 0, or -1 if it is not one. */
int lw_rtree_merge(lw_rtree *t, const char *buf, size_t len);
/* The ranks [first, end) sent nothing readable: they count as lacking
 * every path, and the job's profile says they are missing. */
void lw_rtree_lost(lw_rtree *t, int64_t first, int64_t end);
/* The total visits of this process's own trees now (registry lock held). */
uint64_t lw_rtree_visits_now(void);
/* profile.json and profile.txt of the job of `size` ranks into `dir`. */
int lw_rtree_write(lw_rtree *t, const char *dir, long size);
void lw_rtree_free(lw_rtree *t);

/* ---- job.c ------------------------------------------------------------- */

/*
 * The job a process belongs to: from the launcher's environment at start
 * (Open MPI, PMI/Hydra, PMIx, Slurm srun), or from MPI itself at MPI_Init
 * (mpi.c). A job of one process is not a job: results keep the layout of a
 * lone process.
 */
typedef struct lw_job {
    int active;        /* results go to <job dir>/rank-N */
    int global;        /* `key` names the job on every node */
    int forked;        /* a fork() child of a rank: it is not the rank */
    int must_write;    /* agreed at MPI_Finalize: write a part even without calls */
    int mpmd;          /* several programs in the job: no MPI collectives */
    int named_by_mpi;  /* `id` is rank 0's default directory name (mpi.c) */
    const char *launcher_program; /* this process is a launcher or daemon (mpirun, ...): its name */
    int reduced;       /* the profile went into the job's, reduced at MPI_Finalize (mpi.c) */
    uint64_t reduced_visits; /* this rank's visits then (calls after it are not in the job's) */
    long rank, size;   /* -1: unknown */
    const char *launcher; /* "Open MPI", "PMI", "PMIx", "Slurm", "MPI" */
    char *id;          /* in the default directory name */
    char *key;         /* JOB_KEY= in the job directory's config.txt */
    char *dir;         /* the job directory, once claimed or joined */
    char host[256];
    char boot_id[64];  /* processes with the same boot id share their clocks */
    /* The clock: ticks to ns on the job's clock (realtime of the host of
     * rank 0 when MPI measured the offsets), as (ticks, ns) points. */
    size_t npoints;
    uint64_t point_ticks[4];
    uint64_t point_ns[4];
} lw_job;

extern lw_job lw_job_info;
/* The name of a launcher or launcher daemon (mpirun, mpiexec, orterun,
 * prterun, prted, orted, mpiexec.hydra, hydra_pmi_proxy, srun, slurmstepd)
 * if this process is one, by its program name or its executable; NULL if
 * not. Such a process is not measured unless LIBWRAP_MEASURE_LAUNCHER. */
const char *lw_job_launcher_program(void);

/* Reads the launcher's environment (before the settings: messages carry
 * the rank from the start). Logs what it found once the settings are read
 * (lw_job_log). */
void lw_job_init(void);
void lw_job_log(void);
/* MPI_Init told the rank and size (mpi.c); `id0`, `key0` name the job as
 * rank 0 saw it (NULL when MPI could not tell). */
void lw_job_from_mpi(long rank, long size, const char *id0, const char *key0);
/* Claims or joins the job directory; lock 3 held. Returns it or NULL. */
const char *lw_job_claim_dir(const char *explicit_dir);
/* A rank is done and its part is written into `part_dir`: counts it in
 * <job dir>/finished.txt; the last rank merges the job's trace.
 * `in_signal`: ending by a fatal signal, merging is left to the report. */
void lw_job_finished(int in_signal);
/* In a fork child. */
void lw_job_after_fork_child(void);
/* Adds the clock's (ticks, ns) points of [tick0, tick_end] for the trace. */
void lw_job_clock_points(uint64_t tick0, uint64_t tick_end);
/* MPI measured this process's monotonic clock against rank 0's at `mono`
 * (ns): rank 0's monotonic clock read mono + offset; rank 0's realtime is
 * its monotonic clock + delta0. */
void lw_job_clock_sample(uint64_t mono, int64_t offset, int64_t delta0);

/* ---- plugin.c ---------------------------------------------------------- */

/*
 * The plugins of the run (plugin.h), loaded at start: the built-in ones
 * that the settings ask for (LIBWRAP_METRIC_PAPI, _PERF, _RUSAGE; tracing),
 * then LIBWRAP_METRIC_PLUGINS and LIBWRAP_LISTENERS. The metrics read on
 * the hot path are the SYNC ones, source after source; ASYNC ones only
 * collect samples.
 */
typedef struct lw_metric {
    libwrap_metric_info info;
    const char *source; /* the plugin's name */
} lw_metric;

typedef struct lw_msource {
    void (*read)(void *thread, uint64_t *values);
    uint32_t first; /* its values start at scratch[first] */
} lw_msource;

extern size_t lw_nmetrics;              /* SYNC metrics, at most LW_MAX_METRICS */
extern uint32_t lw_metric_absolute;     /* bit i: metric i is LIBWRAP_METRIC_ABSOLUTE */
extern lw_msource lw_msources[LW_MAX_PLUGINS];
extern uint32_t lw_nmsources;
extern const libwrap_listener *lw_listeners[LW_MAX_PLUGINS];
extern uint32_t lw_nlisteners;
/* Bit k: listener k gets enter and exit per call (it has no `events`, or
 * SYNC metrics are measured); the others get the buffered events. */
extern uint32_t lw_listeners_percall;
/* Events are buffered per thread: a listener has `events` and no SYNC
 * metric is measured. Records per thread buffer (from LIBWRAP_TOTAL_MEMORY). */
extern int lw_events_buffered;
extern size_t lw_events_per_buffer;

void lw_plugins_load(void);
/* Metric i (SYNC ones first, then ASYNC ones); NULL past the end. */
const lw_metric *lw_metric_get(size_t i);
size_t lw_metric_count_all(void);
static inline const libwrap_metric_info *lw_metric_info(size_t i)
{
    return &lw_metric_get(i)->info;
}
/* Per thread, at its first measured call and at its end (not on the hot path). */
void lw_plugins_thread_begin(lw_thread *t);
void lw_plugins_thread_end(lw_thread *t);
/* In a fork child, for its one thread. */
void lw_plugins_fork_child(lw_thread *t);
/* A region became measured (region lock held). */
void lw_plugins_region(int32_t id, const libwrap_region *r);
/* The end: ASYNC samples stop being taken (and are put in time order);
 * every thread's handles end (registry lock held); then, without the
 * runtime's locks, the listeners' and the sources' finalize. */
void lw_samples_freeze(void);
void lw_plugins_end_threads(void);
void lw_plugins_finish(uint64_t end_ticks);
/* Inside a job, in the process that completed it. */
void lw_plugins_job_complete(const char *dir);
/* The ASYNC samples as profile.json's "samples" section. */
void lw_samples_json(struct lw_json *j);
void lw_samples_txt(FILE *f);
/* One line of config.txt per metric setting that was given. */
void lw_plugins_config_write(FILE *out);
/* Delivers t's buffered events to the listeners that take them, and
 * empties the buffer. Not on the fast path: called when the buffer is full,
 * before the thread's other listener callbacks, at its end and at the end. */
void lw_events_flush(lw_thread *t);

/* Around every call into a plugin: which plugin callback the thread is in,
 * so that a fault there is named and the results are still written
 * (lw_plugin_fault). Two stores; only on the paths that call plugins. */
#define LW_IN_SOURCE 0x100
#define LW_IN_LISTENER 0x200
typedef struct lw_plugin_mark {
    int at;
    const char *cb;
} lw_plugin_mark;

static inline lw_plugin_mark lw_plugin_in(int at, const char *cb)
{
    lw_plugin_mark old = {lw_tls.plugin_at, lw_tls.plugin_cb};
    lw_tls.plugin_cb = cb;
    __atomic_store_n(&lw_tls.plugin_at, at, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    return old;
}

static inline void lw_plugin_out(lw_plugin_mark old)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    __atomic_store_n(&lw_tls.plugin_at, old.at, __ATOMIC_RELAXED);
    lw_tls.plugin_cb = old.cb;
}

/* On the faulting thread, from the fatal-signal handler: when the fault is
 * in a plugin's callback, names the plugin (one line), leaves it out of
 * everything that follows, gives back the runtime lock held around that
 * callback, and returns 1: the results can then be written as for a crash
 * in the program. 0 when the thread is in no plugin. */
int lw_plugin_fault(int sig);

static inline void lw_metrics_read(lw_thread *t, uint64_t *out)
{
    for (uint32_t k = 0; k < lw_nmsources; k++) {
        lw_plugin_mark m = lw_plugin_in(LW_IN_SOURCE + (int)k, "read");
        lw_msources[k].read(t->metric_handle[k], out + lw_msources[k].first);
        lw_plugin_out(m);
    }
}

/* Appends an event to t's buffer, delivering the buffer first when full. */
/* One record into the thread's event buffer, which has room (the fast
 * paths of hot.h check that first; they make no call). */
static inline __attribute__((always_inline)) void lw_event_store(lw_thread *t, int32_t region,
                                                                 uint64_t now)
{
    libwrap_event *e = t->ev_pos;
    e->ticks = now;
    e->region = region;
    e->reserved = 0;
    t->ev_pos = e + 1;
}

static inline void lw_event_put(lw_thread *t, int32_t region, uint64_t now)
{
    if (t->ev_pos == t->ev_end)
        lw_events_flush(t);
    lw_event_store(t, region, now);
}

static inline void lw_listen_enter(lw_thread *t, int32_t id, uint64_t now, const uint64_t *m)
{
    if (t->ev_pos)
        lw_event_put(t, id, now);
    for (uint32_t k = 0; k < lw_nlisteners; k++)
        if ((lw_listeners_percall & (1u << k)) && lw_listeners[k]->enter) {
            lw_plugin_mark mk = lw_plugin_in(LW_IN_LISTENER + (int)k, "enter");
            lw_listeners[k]->enter(t->listener_handle[k], id, now, m);
            lw_plugin_out(mk);
        }
}

static inline void lw_listen_exit(lw_thread *t, int32_t id, uint64_t now, const uint64_t *m)
{
    if (t->ev_pos)
        lw_event_put(t, -id, now);
    for (uint32_t k = 0; k < lw_nlisteners; k++)
        if ((lw_listeners_percall & (1u << k)) && lw_listeners[k]->exit) {
            lw_plugin_mark mk = lw_plugin_in(LW_IN_LISTENER + (int)k, "exit");
            lw_listeners[k]->exit(t->listener_handle[k], id, now, m);
            lw_plugin_out(mk);
        }
}

/* A per-call callback other than enter and exit: the buffered events of
 * the thread are delivered first, so that every listener sees its
 * thread's callbacks in the order of the calls. */
static inline void lw_listen_argument(lw_thread *t, int32_t id, uint64_t ticks,
                                      const libwrap_argument *a)
{
    if (t->ev_pos && t->ev_pos != t->ev_base)
        lw_events_flush(t);
    for (uint32_t k = 0; k < lw_nlisteners; k++)
        if (lw_listeners[k]->argument) {
            lw_plugin_mark mk = lw_plugin_in(LW_IN_LISTENER + (int)k, "argument");
            lw_listeners[k]->argument(t->listener_handle[k], id, ticks, a);
            lw_plugin_out(mk);
        }
}

/* ---- exec.c ------------------------------------------------------------ */

/* dl.c: the wrapper tables that answer the program's own dlsym lookups,
 * and the check of loads with RTLD_DEEPBIND or dlmopen since the last. */
void lw_dl_register(libwrap_abi_entry *entries, uint32_t n);
void lw_dl_check_pending(void);
void lw_exec_init(void); /* remembers LD_PRELOAD and LIBWRAP_* at start */
void lw_exec_check(void); /* logs whether the exec interposers are in effect */

#pragma GCC visibility pop

#endif /* LIBWRAP_RUNTIME_INTERNAL_H */
