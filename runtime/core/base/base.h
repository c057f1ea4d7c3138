/*
 * base.h - the bottom of the runtime (core/base/README.md): settings
 * (config.c), the message path (log.c), the tick source (timer.c), result
 * files (outfile.c) and what this process is (process.c). The JSON writer
 * is json.h, the loader's functions dl.h.
 */
#ifndef LIBWRAP_RUNTIME_CORE_BASE_H
#define LIBWRAP_RUNTIME_CORE_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "libwrap/libwrap.h"
#include "libwrap/plugin.h"

/* Internal to the runtime's shared object: hidden, so that -fPIC code
 * reaches it directly instead of through the GOT. */
#pragma GCC visibility push(hidden)

#define LW_MAX_METRICS LIBWRAP_MAX_METRICS
#define LW_MAX_PLUGINS 16

#define lw_likely(x) __builtin_expect(!!(x), 1)
#define lw_unlikely(x) __builtin_expect(!!(x), 0)
/* Flags shared between threads: plain loads and stores on x86, visible to
 * ThreadSanitizer as atomics. */
#define LW_LOAD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define LW_STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)

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
    int job_parts;               /* LIBWRAP_JOB_PARTS as set: 1 every rank writes its own
                                  * profile, 0 the job's one reduced profile,
                                  * LW_JOB_PARTS_AUTO; lw_job_parts_on() decides */
    bool trace_merge;            /* LIBWRAP_TRACE_MERGE: the job's last rank merges the trace */
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
    const char *throttle_unapplied; /* why throttling as set is not applied
                                     * (throttle.c), NULL */
};

extern struct lw_config lw_cfg;

/* LIBWRAP_JOB_PARTS=auto (the default): parts in a job of at most a group
 * of ranks, the job's one profile in a larger one. */
#define LW_JOB_PARTS_AUTO (-1)
/* LIBWRAP_JOB_GROUP_SIZE (default 1000): a job of more ranks keeps its
 * parts in groups of this many (jobs/job.c). Read once. */
long lw_job_group_size(void);
/* The environment variable `name` as a non-negative decimal number, or -1
 * (unset, empty, or anything else). */
long lw_env_long(const char *name);
/* Whether the ranks of this job write a part each (LIBWRAP_JOB_PARTS
 * resolved): a pure function of the settings and the job's size
 * (lw_job_info.size), so that every rank decides alike. */
int lw_job_parts_on(void);

/* Reads every LIBWRAP_* variable; an invalid value warns and takes the default. */
void lw_config_load(void);
/* config.txt's lines of these settings, in two parts: those before the
 * compensation's and the plugins' lines, and those after (the top layer
 * writes config.txt, process/lifecycle.c). 0, or -1 (errno). */
int lw_config_write(FILE *out, const char *experiment_dir);
int lw_config_write_rest(FILE *out);

/* The runtime's own I/O on a program's thread (messages, results, the
 * trace) is no cancellation point of it, as open, write and writev are: a
 * deferred pthread_cancel acts at the program's next one, not inside the
 * runtime with its locks held. lw_cancel_off returns the state that
 * lw_cancel_restore puts back. */
static inline int lw_cancel_off(void)
{
    int old = PTHREAD_CANCEL_ENABLE;
    (void)pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
    return old;
}

static inline void lw_cancel_restore(int old)
{
    (void)pthread_setcancelstate(old, &old);
}

/* ---- log.c: the one message path ------------------------------------- */

void lw_log(unsigned domain, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *lw_log_domain_name(unsigned i); /* of bit i; NULL past the last */
/* Who speaks, put after "libwrap: " in every message: "rank 3: " inside a
 * job, "" for a lone process. Set by jobs/job.c. */
void lw_message_who(const char *who);
void lw_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void lw_vwarn(const char *fmt, va_list ap);
void lw_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The start-up's messages (from lw_messages_hold in the thread that runs
 * it to lw_messages_held) are held: written at once if `show` (verbose
 * runs), else by the first lw_messages_release (the process's first call
 * of a wrapped function, or a later message), else never. */
void lw_messages_hold(void);
void lw_messages_held(int show);
void lw_messages_release(void);

/* What the ABI trampolines (core/abi/ARCH/) do on this machine, for the C
 * code that must agree with them. LW_ABI_THROTTLES: they throttle
 * (LIBWRAP_THROTTLE, throttle.c), on x86-64 and AArch64. LW_CLOCK_KEPT: the
 * thread's measurement clock (measure.h) is kept, everywhere but on
 * AArch64, whose trampoline's fast path has none (its instruction budget):
 * a clock that its calls did not move would be wrong, so it stays at 0
 * there and callees are compensated at the mean when the profile is
 * written (profile_write.c). */
#if defined(__x86_64__) || defined(__aarch64__)
#define LW_ABI_THROTTLES 1
#else
#define LW_ABI_THROTTLES 0
#endif
#if defined(__aarch64__)
#define LW_CLOCK_KEPT 0
#else
#define LW_CLOCK_KEPT 1
#endif

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

/* timer.c: libc's clock_gettime (else the system call) and a sleep by
 * system call, whatever an interposer preloaded before them does
 * (libfaketime): the runtime's own clocks and waits. */
int lw_clock_gettime(clockid_t id, struct timespec *ts);
void lw_sleep_ns(long ns);

static inline uint64_t lw_ticks(void)
{
    if (lw_likely(lw_timer_tsc))
        return lw_rdtsc();
    struct timespec ts;
    lw_clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void lw_timer_init(enum lw_timer_kind requested);
const char *lw_timer_name(void);
/* Fixes the tick rate from the whole run, start to now (a run shorter than
 * some 0.5 ms waits for the rest). Idempotent after the first call. */
void lw_timer_calibrate(void);
/* The rate fixed by lw_timer_calibrate, or before it the rate from the start
 * to now (to within some 0.5 ms: the clocks are read that often at most). */
double lw_timer_ns_per_tick(void);
uint64_t lw_timer_start_ticks(void);
uint64_t lw_timer_epoch_ns(void); /* CLOCK_REALTIME at start */
uint64_t lw_timer_start_mono(void); /* CLOCK_MONOTONIC at start, ns */
static inline uint64_t lw_ticks_to_ns(uint64_t ticks)
{
    return (uint64_t)((double)ticks * lw_timer_ns_per_tick() + 0.5);
}
/* Rounded down and up: a min and a max in ns that keep min <= mean <= max
 * with the mean's inclusive time rounded to the nearest ns. */
static inline uint64_t lw_ticks_to_ns_down(uint64_t ticks)
{
    return (uint64_t)((double)ticks * lw_timer_ns_per_tick());
}
static inline uint64_t lw_ticks_to_ns_up(uint64_t ticks)
{
    double ns = (double)ticks * lw_timer_ns_per_tick();
    uint64_t down = (uint64_t)ns;
    return down + ((double)down < ns);
}

/* `v` in decimal, written backwards ending just before `end` (21 bytes
 * hold any); returns where it begins. The result files' integers
 * (json.c, profile.txt), without a printf each. */
static inline char *lw_decimal(char *end, uint64_t v)
{
    do {
        *--end = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return end;
}

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
    size_t len, cap;
    int failed; /* memory ran out: what it holds is not the whole file */
    pid_t pid;  /* the process composing it */
} lw_out;

FILE *lw_out_open(lw_out *o); /* a memory stream; NULL on failure */
/* Closes the stream and writes what it holds into `fd` (closed after) or a
 * new `path`: 0, or -1 with errno. A file whose composition ran out of
 * memory is not written (ENOMEM): a result is whole or absent. */
int lw_out_write_fd(lw_out *o, int fd);
int lw_out_write(lw_out *o, const char *path);
/* mkdir -p: every missing directory of path (modified in place, restored);
 * 0, or -1 with errno. */
int lw_mkdir_p(char *path);


/* ---- process.c: what this process is -------------------------------- */

/* 0 before start, 1 measuring, 2 stopped (finalising or finished). */
extern int lw_state;
pid_t lw_process_pid(void);                  /* updated in a fork child */
void lw_process_set_pid(pid_t pid);
const char *lw_program_name(void);
/* The first measured call of the process (thread.c). */
void lw_note_measured(void);
/* 1 once any thread of this process has recorded a call. */
int lw_measured_something(void);
/* Registered with atexit when main begins (libwrap_main_begins,
 * process/lifecycle.c). */
void lw_exit_began(void);
/* exit() began before any thread had recorded a call: the calls made from
 * then on (ELF destructors of libraries) are not measured. */
int lw_exit_unmeasured(void);
/*
 * The calling thread's asynchronous signals held back (*old gets its mask)
 * around one-time work that calls what is not async-signal-safe (stdio,
 * malloc, dlsym, the runtime's locks): a thread's first call, a function's
 * first call. A program's handler that leaves by longjmp would leave that
 * work half done, with a lock held or malloc's state broken; held back,
 * the signals arrive when it is over, as the kernel queued them. SIGSEGV,
 * SIGBUS, SIGFPE, SIGILL, SIGTRAP and SIGSYS stay open (a fault there is
 * not deferrable).
 */
void lw_signals_hold(sigset_t *old);
void lw_signals_release(const sigset_t *old);

/*
 * The job a process belongs to, filled by jobs/job.c: from the launcher's
 * environment at start (Open MPI, PMI/Hydra, PMIx, Slurm srun), or from
 * MPI itself at MPI_Init (jobs/mpi.c). A job of one process is not a job: results keep the layout of a
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
    int records;       /* ... or into the job's records file (job_reduce.c) */
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

/* fn(arg) on a stack of the runtime's own (work_stack.c): the one-time
 * work a small thread stack would not hold (the results' directory made,
 * the results written). */
void lw_on_work_stack(void (*fn)(void *), void *arg);

#pragma GCC visibility pop

#endif /* LIBWRAP_RUNTIME_CORE_BASE_H */
