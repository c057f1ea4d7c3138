/*
 * lifecycle.c - start, end and the ways a process can end or split.
 *
 * Start: a constructor, or the first region registration if a wrapped call
 * comes from another library's constructor first (pthread_once).
 * End: the ELF destructor of the runtime (after the program's atexit
 * handlers and C++ static destructors, so their calls are measured), an
 * explicit libwrap_finalize, exec (exec.c), or a fatal signal. Once ended,
 * every entry point is a no-op: calls from later destructors record nothing.
 *
 * Results go to an experiment directory that is claimed, not just created:
 * the process that creates <dir>/config.txt with O_EXCL owns <dir>;
 * otherwise <dir>.1, <dir>.2, ... are tried. So an exec'd program with the
 * same PID, or two runs given the same LIBWRAP_EXPERIMENT_DIRECTORY, never
 * overwrite each other. A fork()ed child claims <parent dir>/fork-<pid>;
 * so does a child of clone() without CLONE_VM, through the same steps
 * (clone.c).
 * A rank of a job claims <job dir>/rank-N the same way, in the job's
 * directory (job.c). Nothing is claimed before the process has measured a
 * call, with or without tracing: the trace is opened at the first one.
 */
#include "arguments.h"
#include "exec_interpose.h"
#include "lane.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int lw_state;

static pthread_once_t lw_once = PTHREAD_ONCE_INIT;
/* Lock 3 of the order in internal.h. */
static pthread_mutex_t lw_dir_mutex = PTHREAD_MUTEX_INITIALIZER;
static char *lw_dir;      /* claimed experiment directory */
static char *lw_dir_base; /* the name to claim (absolute), a lone process's */
static char *lw_explicit_dir; /* LIBWRAP_EXPERIMENT_DIRECTORY (absolute), or NULL */
static pid_t lw_pid;
static int lw_finishing;
static int lw_any_thread;  /* a thread has recorded a call */
static int lw_late_only;   /* none had when exit() began: later calls are not measured */
static int lw_claim_failed; /* said once: no results */
static int lw_membarrier_ok;
static __thread int lw_fork_locked __attribute__((tls_model("initial-exec")));

static const int lw_fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT};
#define LW_NFATAL (sizeof lw_fatal_signals / sizeof *lw_fatal_signals)
static struct sigaction lw_old_actions[LW_NFATAL];

pid_t lw_process_pid(void)
{
    return lw_pid;
}

const char *lw_experiment_dir_claimed(void)
{
    return lw_dir;
}

const char *lw_program_name(void)
{
    return program_invocation_name;
}

static char *lw_absolute(const char *path)
{
    char *out = NULL;
    if (path[0] == '/')
        return strdup(path);
    char *cwd = getcwd(NULL, 0);
    if (cwd && asprintf(&out, "%s/%s", cwd, path) < 0)
        out = NULL;
    free(cwd);
    return out;
}

static char *lw_default_dir(void)
{
    time_t now = time(NULL);
    struct tm tm;
    char name[64];
    localtime_r(&now, &tm);
    snprintf(name, sizeof name, "libwrap-%04d%02d%02d_%02d%02d%02d_%ld", tm.tm_year + 1900,
             tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (long)getpid());
    return lw_absolute(name);
}

/* The directory itself first, its parents only when missing: every rank of
 * a large job creates its part in directories that exist, one metadata
 * operation each. */
int lw_mkdir_p(char *path)
{
    if (mkdir(path, 0777) == 0 || errno == EEXIST)
        return 0;
    if (errno != ENOENT)
        return -1;
    char *slash = strrchr(path, '/');
    if (!slash || slash == path)
        return -1;
    *slash = 0;
    int r = lw_mkdir_p(path);
    *slash = '/';
    if (r < 0)
        return -1;
    return mkdir(path, 0777) < 0 && errno != EEXIST ? -1 : 0;
}

/* Creates `base` (or base.N) and claims it by creating config.txt in it. */
static char *lw_claim(const char *base)
{
    for (unsigned n = 0; n < 10000; n++) {
        char *dir = NULL, *cfg = NULL;
        if ((n ? asprintf(&dir, "%s.%u", base, n) : asprintf(&dir, "%s", base)) < 0)
            return NULL;
        if (lw_mkdir_p(dir) < 0) {
            lw_warn("cannot create the experiment directory %s: %s; no results are written "
                    "(set LIBWRAP_EXPERIMENT_DIRECTORY to a writable place)",
                    dir, strerror(errno));
            free(dir);
            return NULL;
        }
        if (asprintf(&cfg, "%s/config.txt", dir) < 0) {
            free(dir);
            return NULL;
        }
        int fd = open(cfg, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            lw_out o;
            FILE *f = lw_out_open(&o);
            if (!f) {
                close(fd);
                lw_warn("cannot write %s: %s", cfg, strerror(errno));
            } else if (lw_config_write(f, dir) < 0 || lw_out_write_fd(&o, fd) != 0) {
                lw_warn("cannot write %s: %s", cfg, strerror(errno));
            }
            free(cfg);
            lw_log(LW_LOG_LIFECYCLE, "results go to %s", dir);
            return dir;
        }
        int err = errno;
        free(cfg);
        free(dir);
        if (err != EEXIST) {
            lw_warn("cannot create %s/config.txt: %s; no results are written", base, strerror(err));
            return NULL;
        }
    }
    lw_warn("%s.1 to %s.9999 all hold results; no results are written (remove old experiments)",
            base, base);
    return NULL;
}

/* With lw_dir_mutex held. */
static const char *lw_claim_locked(void)
{
    if (lw_dir || lw_claim_failed)
        return lw_dir;
    /* A rank claims its part of the job directory, <job dir>/rank-N; its
     * fork child, when the rank had no directory yet at the fork,
     * <job dir>/rank-N/fork-PID. */
    if (lw_job_info.active && (!lw_job_info.forked || !lw_dir_base)) {
        const char *job = lw_job_claim_dir(lw_explicit_dir);
        char *part = job ? lw_job_part_base(job) : NULL, *base = NULL;
        int n = !part ? -1
                : lw_job_info.forked ? asprintf(&base, "%s/fork-%ld", part, (long)getpid())
                                     : asprintf(&base, "%s", part);
        free(part);
        if (n >= 0) {
            lw_dir = lw_claim(base);
            free(base);
        }
    } else if (lw_dir_base) {
        lw_dir = lw_claim(lw_dir_base);
    }
    lw_claim_failed = !lw_dir;
    return lw_dir;
}

const char *lw_experiment_dir(void)
{
    pthread_mutex_lock(&lw_dir_mutex);
    const char *dir = lw_claim_locked();
    pthread_mutex_unlock(&lw_dir_mutex);
    return dir;
}

const char *lw_job_directory(void)
{
    pthread_mutex_lock(&lw_dir_mutex);
    const char *dir = lw_job_info.active ? lw_job_claim_dir(lw_explicit_dir) : NULL;
    pthread_mutex_unlock(&lw_dir_mutex);
    return dir;
}

const char *lw_experiment_dir_for_exec(void)
{
    /* A fork child of a rank that execs becomes a process of that rank
     * again (rank-N.K), as anything the rank starts with posix_spawn. */
    if (lw_job_info.active && lw_job_info.forked)
        return NULL;
    if (lw_job_info.active && lw_job_info.dir)
        return lw_job_info.dir;
    return lw_dir;
}

const char *lw_experiment_dir_base(void)
{
    return lw_dir ? lw_dir : lw_dir_base;
}

int lw_measured_something(void)
{
    return LW_LOAD(lw_any_thread);
}

void lw_note_measured(void)
{
    LW_STORE(lw_any_thread, 1);
}

/*
 * Registered with atexit when main begins (libwrap_main_begins): exit()
 * runs it after the program's own atexit handlers and static destructors
 * and before the ELF destructors of the loaded libraries (_dl_fini,
 * registered by __libc_start_main before main, runs after it). A library's destructor may call its own exported function through
 * a wrapper (libuv's fini array calls uv_library_shutdown): such a call
 * alone must not make a process that never used the library leave results.
 */
static void lw_exit_began(void)
{
    if (!lw_measured_something())
        LW_STORE(lw_late_only, 1);
}

void libwrap_main_begins(void)
{
    static int once;
    if (!__atomic_exchange_n(&once, 1, __ATOMIC_SEQ_CST))
        atexit(lw_exit_began);
}

int lw_exit_unmeasured(void)
{
    return LW_LOAD(lw_late_only);
}

/* A full barrier on every thread of the process, so that a thread that has
 * set its guard and not yet seen lw_state == 2 is visible to the finaliser
 * (the hot path itself has only a compiler barrier). */
static void lw_barrier_all_threads(void)
{
    if (lw_membarrier_ok && syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0)
        return;
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
}

void lw_fork_prepare(void)
{
    if (LW_LOAD(lw_state) != 1 || LW_LOAD(lw_tls.guard))
        return;
    LW_STORE(lw_tls.guard, 1);
    /* The child nests its results in ours, so ours must exist first. */
    if (lw_region_count() > 0)
        lw_experiment_dir();
    /* Held across fork(), in the order of internal.h: lw_finish takes the
     * same ones, so a fork racing with finalisation cannot deadlock. */
    lw_region_lock();
    lw_thread_registry_lock();
    pthread_mutex_lock(&lw_dir_mutex);
    lw_fork_locked = 1;
}

int lw_fork_pending(void)
{
    return lw_fork_locked;
}

void lw_fork_parent(void)
{
    if (!lw_fork_locked)
        return;
    lw_fork_locked = 0;
    pthread_mutex_unlock(&lw_dir_mutex);
    lw_thread_registry_unlock();
    lw_region_unlock();
    LW_STORE(lw_tls.guard, 0);
}

void lw_fork_child(void)
{
    if (!lw_fork_locked)
        return;
    lw_fork_locked = 0;
    pthread_mutex_init(&lw_dir_mutex, NULL);
    lw_region_after_fork_child();
    char *base = NULL;
    /* A rank without a directory yet: the child's is found from the job
     * when it needs one (lw_claim_locked). */
    const char *parent = lw_dir ? lw_dir : lw_job_info.active ? NULL : lw_dir_base;
    if (parent && asprintf(&base, "%s/fork-%ld", parent, (long)getpid()) < 0)
        base = NULL;
    lw_dir_base = base;
    lw_dir = NULL;
    lw_claim_failed = 0;
    lw_pid = getpid();
    lw_job_after_fork_child();
    /* Last: the plugins' fork callbacks and the child's thread_begin may
     * ask for the child's own directory. */
    lw_thread_after_fork_child();
    LW_STORE(lw_tls.guard, 0);
}

/* How measurement ends: the process goes on in a new image (exec), it is
 * done (exit, libwrap_finalize), or it is dying by a signal. */
enum lw_end { LW_END_EXEC, LW_END_DONE, LW_END_SIGNAL };
static void lw_finish_as(const char *why, enum lw_end end);

static void lw_fatal_handler(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    int saved = errno;
    size_t i = 0;
    while (i < LW_NFATAL && lw_fatal_signals[i] != sig)
        i++;
    /* A fault in a plugin's callback (the runtime's guard is set around
     * most of them) is named, and the plugin left out; the runtime's own
     * state is whole at a callback's boundary, so the results are written
     * as for a crash in the program. */
    int in_plugin = lw_plugin_fault(sig);
    /* Writing results is not async-signal-safe (allocation, stdio). If the
     * signal hit the runtime itself, skip it; if it hit the allocator with
     * its lock held, the alarm ends the wait: the process dies by SIGALRM
     * instead of hanging. */
    if ((in_plugin || !LW_LOAD(lw_tls.guard)) && LW_LOAD(lw_state) == 1) {
        struct sigaction dfl = {.sa_handler = SIG_DFL};
        sigaction(SIGALRM, &dfl, NULL);
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, SIGALRM);
        pthread_sigmask(SIG_UNBLOCK, &set, NULL);
        alarm(10);
        lw_log(LW_LOG_LIFECYCLE, "signal %d: writing results", sig);
        lw_finish_as("fatal signal", LW_END_SIGNAL);
        alarm(0);
    }
    if (i < LW_NFATAL)
        sigaction(sig, &lw_old_actions[i], NULL);
    /* A fault re-executes the faulting instruction on return and dies by the
     * default action; a sent signal is sent again. */
    if (si->si_code <= 0 || sig == SIGABRT || sig == SIGTERM || sig == SIGINT)
        raise(sig);
    errno = saved;
}

static void lw_install_signal_handlers(void)
{
    for (size_t i = 0; i < LW_NFATAL; i++) {
        struct sigaction old;
        if (sigaction(lw_fatal_signals[i], NULL, &old) < 0)
            continue;
        /* Only where the program keeps the default: its own handlers and
         * ignored signals are left alone. */
        if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
            continue;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = lw_fatal_handler;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        if (sigaction(lw_fatal_signals[i], &sa, NULL) == 0)
            lw_old_actions[i] = old;
    }
}

static void lw_start(void)
{
    int saved = errno;
    LW_STORE(lw_tls.guard, 1);
    lw_pid = getpid();
    /* The job first: the settings' own warnings then name the rank. */
    lw_job_init();
    lw_config_load();
    lw_job_log();
    /* A launcher or daemon (job.c) forwards every call unmeasured, as after
     * the end: no directory, nothing written, its children (the ranks)
     * start their own measurement from the environment it passes on. */
    if (lw_job_info.launcher_program && !lw_cfg.measure_launcher) {
        lw_log(LW_LOG_JOB, "%s is a launcher (%s): not measured (LIBWRAP_MEASURE_LAUNCHER=true measures it)",
               lw_program_name(), lw_job_info.launcher_program);
        LW_STORE(lw_state, 2);
        LW_STORE(lw_tls.guard, 0);
        errno = saved;
        return;
    }
    lw_timer_init(lw_cfg.timer);
    lw_thread_init_process();
    lw_region_init();
    lw_exec_init();
    lw_explicit_dir = lw_cfg.experiment_directory ? lw_absolute(lw_cfg.experiment_directory) : NULL;
    lw_dir_base = lw_explicit_dir ? strdup(lw_explicit_dir) : lw_default_dir();
    /* A launcher measured on request: its own part in the directory the
     * user named, which stays the job's (launcher-NAME-PID beside the
     * ranks' parts); without a name, a lone process's directory. */
    if (lw_job_info.launcher_program && lw_explicit_dir) {
        free(lw_dir_base);
        if (asprintf(&lw_dir_base, "%s/launcher-%s-%ld", lw_explicit_dir,
                     lw_job_info.launcher_program, (long)getpid()) < 0)
            lw_dir_base = NULL;
    }
    /* Metric sources and listeners, the trace writer among them. */
    lw_plugins_load();
    lw_membarrier_ok = syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
    pthread_atfork(lw_fork_prepare, lw_fork_parent, lw_fork_child);
    lw_install_signal_handlers();
    if (lw_cfg.verbose & LW_LOG_EXEC)
        lw_exec_check();
    lw_log(LW_LOG_LIFECYCLE, "started in %s (pid %ld)", lw_program_name(), (long)getpid());
    LW_STORE(lw_state, 1);
    /* With the plugins loaded: the paths the run takes are known. */
    lw_compensate_calibrate();
    LW_STORE(lw_tls.guard, 0);
    errno = saved;
}

void lw_ensure_started(void)
{
    if (LW_LOAD(lw_state) == 0)
        pthread_once(&lw_once, lw_start);
}

static int lw_tree_has_visits(const lw_node *n)
{
    for (const lw_node *c = n->first_child; c; c = c->next_sibling)
        if (c->visits || lw_tree_has_visits(c))
            return 1;
    return 0;
}

/* Waits (bounded) until thread `t` is outside the runtime. */
static int lw_wait_not_busy(const lw_thread *t)
{
    for (int i = 0; i < 2000; i++) {
        int guard = __atomic_load_n(t->guard, __ATOMIC_ACQUIRE);
        if (!guard || guard == LW_GUARD_ABANDONED)
            return 1;
        if (i < 100) {
            sched_yield();
        } else {
            struct timespec ts = {0, 50000};
            nanosleep(&ts, NULL);
        }
    }
    return 0;
}

static void lw_finish_as(const char *why, enum lw_end end)
{
    if (LW_LOAD(lw_state) != 1 || __atomic_exchange_n(&lw_finishing, 1, __ATOMIC_SEQ_CST))
        return;
    int saved = errno;
    /* Loads not checked yet are named before the results (dl.c). */
    if (end != LW_END_SIGNAL)
        lw_dl_check_pending();
    int guard = LW_LOAD(lw_tls.guard);
    LW_STORE(lw_tls.guard, 1);
    LW_STORE(lw_state, 2);
    lw_log(LW_LOG_LIFECYCLE, "finishing (%s)", why);

    /* The order of internal.h, as lw_fork_prepare. */
    lw_region_lock();
    lw_thread_registry_lock();
    int others = 0;
    for (lw_thread *t = lw_thread_first(); t; t = t->next) {
        others |= t != lw_tls.self && t->alive;
        /* The fast paths' check that measurement runs (internal.h). A
         * thread that has ended has no TLS left to write to. */
        if (t->alive) {
            LW_STORE(*t->fastp, NULL);
            LW_STORE(*t->hotp, &lw_thread_none);
            LW_STORE(*t->hot_evp, &lw_thread_none);
        }
    }
    if (others)
        lw_barrier_all_threads();
    /* Every other thread has stopped recording (or stays busy): the end
     * tick is taken after their last event, so that every thread's record
     * ends at this one tick, with the calls still open closed there, and
     * no event of any thread comes after it. */
    for (lw_thread *t = lw_thread_first(); t; t = t->next)
        t->busy_at_end = t->alive && t != lw_tls.self && !lw_wait_not_busy(t);
    uint64_t end_ticks = lw_ticks();
    int measured = 0;
    for (lw_thread *t = lw_thread_first(); t; t = t->next) {
        if (t->busy_at_end) {
            lw_log(LW_LOG_LIFECYCLE, "thread %u stays busy: its open calls are not closed", t->tid);
            continue;
        }
        if (t->alive)
            lw_thread_close_frames(t, end_ticks);
        measured |= lw_tree_has_visits(t->tree.root);
    }
    lw_timer_calibrate();

    /* A rank of an MPI job where any rank measured writes its part even
     * without calls of its own (mpi.c): the job's end can then be counted. */
    int write = measured || (lw_job_info.must_write && end != LW_END_EXEC);
    /* The profile went into the job's at MPI_Finalize (mpi.c): a rank
     * writes a part only for its trace. Calls after MPI_Finalize are not
     * in the job's profile (docs/mpi.md); the log counts them. */
    int reduced = lw_job_info.reduced && !lw_job_info.forked;
    if (reduced) {
        uint64_t now = lw_rtree_visits_now();
        if (now > lw_job_info.reduced_visits)
            lw_log(LW_LOG_JOB, "%llu calls after MPI_Finalize are not in the job's profile "
                   "(LIBWRAP_JOB_PARTS=true keeps them in the rank's part)",
                   (unsigned long long)(now - lw_job_info.reduced_visits));
        if (!lw_cfg.tracing)
            write = 0;
    }
    /* LIBWRAP_JOB_PARTS=false in a job that did not reduce over MPI (no
     * MPI, or no MPI_Finalize): the profile goes into the job's records
     * file below, and a part is written only for the trace. */
    int records = measured && lw_job_info.active && !lw_job_info.forked && !reduced &&
                  lw_cfg.profiling && !lw_cfg.job_parts && !lw_cfg.arguments && end != LW_END_EXEC;
    if (records && !lw_cfg.tracing)
        write = 0;
    const char *dir = NULL;
    if (write)
        dir = lw_experiment_dir();
    struct timespec t0, t1, t2;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    /* Samples taken from now on are dropped: the profile and the
     * listeners see the same ones. */
    lw_samples_freeze();
    if (measured)
        lw_args_warn_unmatched();
    lw_lane_report();
    lw_signal_report();
    if (dir && write && lw_cfg.profiling && !reduced && !records)
        lw_profile_write(dir);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    /* The threads' plugin handles end under the registry lock; the
     * listeners (the trace) and the metric sources finish after it is
     * given back: a plugin that joins a thread of its own there must not
     * wait for a thread that waits for our locks. */
    lw_plugins_end_threads();
    lw_thread_registry_unlock();
    lw_region_unlock();
    lw_plugins_finish(end_ticks);
    if (records && lw_job_add_records() < 0) {
        /* The part, then, as without the setting. */
        records = 0;
        dir = lw_experiment_dir();
        lw_region_lock();
        lw_thread_registry_lock();
        if (dir)
            lw_profile_write(dir);
        lw_thread_registry_unlock();
        lw_region_unlock();
    }
    if (!dir)
        dir = lw_experiment_dir_claimed();
    clock_gettime(CLOCK_MONOTONIC, &t2);
    if (dir)
        lw_log(LW_LOG_LIFECYCLE, "results written to %s (profile %.1f ms, plugins %.1f ms)", dir,
               (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6,
               (double)(t2.tv_sec - t1.tv_sec) * 1e3 + (double)(t2.tv_nsec - t1.tv_nsec) / 1e6);
    else if (reduced || records)
        lw_log(LW_LOG_LIFECYCLE, "the profile is in the job's: nothing else written");
    else if (!write)
        lw_log(LW_LOG_LIFECYCLE, "no call was measured: nothing written");
    /* Counted once the part is complete; the last rank merges the traces. */
    if ((dir || records) && end != LW_END_EXEC)
        lw_job_finished(end == LW_END_SIGNAL);
    LW_STORE(lw_tls.guard, guard);
    errno = saved;
}

void lw_finish(const char *why)
{
    lw_finish_as(why, LW_END_DONE);
}

void lw_finish_for_exec(void)
{
    lw_finish_as("exec", LW_END_EXEC);
}

#ifndef LIBWRAP_NOP
__attribute__((constructor)) static void lw_constructor(void)
{
    lw_ensure_started();
}

__attribute__((destructor)) static void lw_destructor(void)
{
    lw_finish("process exit");
}

void libwrap_finalize(void)
{
    lw_finish("libwrap_finalize");
}
#else
void libwrap_finalize(void)
{
}
#endif
