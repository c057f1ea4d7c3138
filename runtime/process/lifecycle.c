/*
 * lifecycle.c - start, end and the ways a process can end or split.
 *
 * Start: a constructor, or the first region registration if a wrapped call
 * comes from another library's constructor first (pthread_once).
 * End: the ELF destructor of the runtime (after the program's atexit
 * handlers and C++ static destructors, so their calls are measured), an
 * explicit libwrap_finalize, exec (exec.c), or a fatal signal (fatal.c).
 * Once ended, every entry point is a no-op: calls from later destructors
 * record nothing.
 *
 * The experiment directory is claimed in jobs/directory.c; this file writes
 * its config.txt (the hook config_txt).
 */
#include "process/process.h"
#include "core/arguments/arguments.h"
#include "core/measure/hooks.h"
#include "core/measure/lane.h"
#include "core/output/output.h"
#include "interpose/exec_interpose.h"
#include "interpose/mpi_interpose.h"
#include "interpose/seccomp_interpose.h"
#include "xfsz.h"
#include "jobs/jobs.h"
#include "plugins/host/host.h"
#include "core/abi/abi.h"
#include "core/base/dl.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static pthread_once_t lw_once = PTHREAD_ONCE_INIT;
static int lw_finishing;
static int lw_membarrier_ok;
static __thread int lw_fork_locked __attribute__((tls_model("initial-exec")));

/* A full barrier on every thread of the process, so that a thread that has
 * set its guard and not yet seen lw_state == 2 is visible to the finaliser
 * (the hot path itself has only a compiler barrier). */
static void lw_barrier_all_threads(void)
{
    if (lw_membarrier_ok && syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0)
        return;
    lw_sleep_ns(1000000);
}

void lw_fork_prepare(void)
{
    if (LW_LOAD(lw_state) != 1 || LW_LOAD(lw_tls.guard))
        return;
    LW_STORE(lw_tls.guard, 1);
    /* The child nests its results in ours, so ours must exist first, where
     * this process has measured (a fork child that has not, inheriting its
     * parent's functions, left a fork-PID holding only config.txt). */
    if (lw_region_count() > 0 && lw_measured_here())
        lw_experiment_dir();
    /* Held across fork(), in the lock order of core/measure/measure.h: lw_finish takes the
     * same ones, so a fork racing with finalisation cannot deadlock. */
    lw_region_lock();
    lw_thread_registry_lock();
    lw_dir_lock();
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
    lw_dir_unlock();
    lw_thread_registry_unlock();
    lw_region_unlock();
    LW_STORE(lw_tls.guard, 0);
}

void lw_fork_child(void)
{
    if (!lw_fork_locked)
        return;
    lw_fork_locked = 0;
    lw_region_after_fork_child();
    lw_dir_after_fork_child();
    lw_process_set_pid(getpid());
    lw_fatal_fork_child();
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

/* Whether the program is Go's: its build ID note (owner "Go", type 4),
 * in a loaded note segment of the first object. A Go program starts at
 * the Go runtime's entry, not libc's, and ends with the exit_group
 * system call itself: neither the atexit handler nor the ELF destructor
 * that write the results runs. */
static int lw_go_note(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
        const unsigned char *end = p + ph->p_memsz;
        size_t align = ph->p_align > 4 ? 8 : 4;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *n = (const void *)p;
            const unsigned char *name = p + sizeof *n;
            size_t nsz = (n->n_namesz + align - 1) & ~(align - 1);
            size_t dsz = (n->n_descsz + align - 1) & ~(align - 1);
            if ((n->n_namesz == 3 || n->n_namesz == 4) && n->n_type == 4 && name + 3 <= end &&
                !memcmp(name, "Go", 3))
                *(int *)data = 1;
            if ((size_t)(end - name) < nsz + dsz)
                break;
            p = name + nsz + dsz;
        }
    }
    return 1; /* the first object only: the program */
}

static void lw_start(void)
{
    int saved = errno;
    LW_STORE(lw_tls.guard, 1);
    lw_messages_hold();
    lw_process_set_pid(getpid());
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
        lw_messages_held(lw_cfg.verbose != 0);
        LW_STORE(lw_tls.guard, 0);
        errno = saved;
        return;
    }
    lw_timer_init(lw_cfg.timer);
    lw_thread_init_process();
    /* The argument rules, then the filter (before any region registers). */
    lw_args_init();
    lw_region_init();
    lw_exec_init();
    lw_dir_init();
    /* Metric sources and listeners, the trace writer among them. */
    lw_plugins_load();
    lw_throttle_start();
    lw_membarrier_ok = syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
    pthread_atfork(lw_fork_prepare, lw_fork_parent, lw_fork_child);
    lw_fatal_start();
    if (lw_cfg.verbose & LW_LOG_EXEC)
        lw_exec_check();
    lw_log(LW_LOG_LIFECYCLE, "started in %s (pid %ld)", lw_program_name(), (long)getpid());
    int go = 0;
    dl_iterate_phdr(lw_go_note, &go);
    if (go)
        lw_warn("%s is a Go program, which ends without libc's exit: its results are written only where it "
                "calls libwrap_finalize() before it ends, or dies by a signal (docs/runtime.md, \"Go programs\")",
                lw_program_name());
    LW_STORE(lw_state, 1);
    /* With the plugins loaded: the paths the run takes are known. In a
     * dynamic program the wrapper libraries say when (abi_slow.c), or the
     * start of main where none registered: a process that does not use
     * their libraries never calibrates. */
    if (lw_dl_available())
        lw_abi_calibrate_later();
    else
        lw_abi_calibrate();
    /* Written with the process's first call of a wrapped function. */
    lw_messages_held(lw_cfg.verbose != 0);
    LW_STORE(lw_tls.guard, 0);
    errno = saved;
}

/* quick_exit() runs the at_quick_exit handlers and ends the process
 * without atexit handlers or destructors: this one, registered before
 * the program's, runs after them. */
static void lw_quick_exit(void)
{
    lw_finish("quick_exit");
}

/* From the interposer of __libc_start_main (interpose/exec_interpose.c). */
void libwrap_main_begins(void)
{
    static int once;
    if (!__atomic_exchange_n(&once, 1, __ATOMIC_SEQ_CST)) {
        atexit(lw_exit_began);
        at_quick_exit(lw_quick_exit);
        lw_abi_calibrate_at_main();
        lw_dl_shadow_check();
    }
}

static void lw_start_once(void)
{
    pthread_once(&lw_once, lw_start);
}

/* config.txt of a claimed directory (jobs/directory.c, and job.c for the
 * job's): the settings, the compensation's and the plugins' lines. */
static int lw_config_txt(FILE *out, const char *dir)
{
    lw_config_write(out, dir);
    lw_compensate_config_write(out);
    lw_plugins_config_write(out);
    return lw_config_write_rest(out);
}

/* A wrapper of the MPI library's own MPI_Init, MPI_Finalize or MPI_Abort
 * (core/abi/abi.h): the steps of the runtime's interposers. */
static void lw_mpi_call(uint32_t kind)
{
    if (kind == LW_ABI_MPI_INIT)
        libwrap_mpi_after_init();
    else if (kind == LW_ABI_MPI_FINALIZE)
        libwrap_mpi_before_finalize();
    else if (kind == LW_ABI_MPI_ABORT)
        libwrap_mpi_before_abort();
}

/* What the core and jobs/ tell the layers above (core/measure/hooks.h). */
LW_HOOKS(lw_process_hooks) = {
    .start = lw_start_once,
    .thread_begin = lw_plugins_thread_begin,
    .thread_end = lw_plugins_thread_end,
    .fork_child = lw_plugins_fork_child,
    .region = lw_plugins_region,
    .samples_json = lw_samples_json,
    .samples_txt = lw_samples_txt,
    .config_txt = lw_config_txt,
    .abi_tables = lw_dl_register,
    .past_wrappers = lw_dl_past_wrappers,
    .abi_resolved = lw_dl_registered,
    .job_complete = lw_plugins_job_complete,
    .group_complete = lw_plugins_group_complete,
    .throttled_callee = lw_throttle_callee,
    .functions_unloaded = lw_dl_functions_unloaded,
    .mpi_call = lw_mpi_call,
};

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
            lw_sleep_ns(50000);
        }
    }
    return 0;
}

static void lw_finish_work(const char *why, enum lw_end end);

struct lw_finish_args {
    const char *why;
    enum lw_end end;
};

static void lw_finish_on_stack(void *p)
{
    const struct lw_finish_args *a = p;
    lw_finish_work(a->why, a->end);
}

/* The results written on a stack of the runtime's own: the process may end
 * on a thread with a small one (work_stack.c). */
static void lw_finish_as(const char *why, enum lw_end end)
{
    if (LW_LOAD(lw_state) != 1 || __atomic_exchange_n(&lw_finishing, 1, __ATOMIC_SEQ_CST))
        return;
    struct lw_finish_args a = {why, end};
    lw_on_work_stack(lw_finish_on_stack, &a);
}

static void lw_finish_work(const char *why, enum lw_end end)
{
    int saved = errno, cancel = lw_cancel_off();
    /* The program's file-size limit makes the writes fail, not end it. */
    lw_xfsz xfsz;
    lw_xfsz_hold(&xfsz);
    /* Loads not checked yet are named before the results (dl.c). */
    if (end != LW_END_SIGNAL)
        lw_dl_check_pending();
    int guard = LW_LOAD(lw_tls.guard);
    LW_STORE(lw_tls.guard, 1);
    LW_STORE(lw_state, 2);
    lw_log(LW_LOG_LIFECYCLE, "finishing (%s)", why);

    /* The lock order (core/measure/measure.h), as lw_fork_prepare. */
    lw_region_lock();
    lw_thread_registry_lock();
    int others = 0;
    for (lw_thread *t = lw_thread_first(); t; t = t->next) {
        others |= t != lw_tls.self && t->alive;
        /* The fast paths' check that measurement runs (core/measure/measure.h). A
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
    /* The job's profile still to be reduced through its records file
     * (jobs/job.c): a rank's profile that did not go into the job's over
     * MPI. */
    int to_records = lw_job_info.active && !lw_job_info.forked && !reduced && lw_cfg.profiling &&
                     end != LW_END_EXEC;
    /* No parts (LIBWRAP_JOB_PARTS=false, or auto in a job of more ranks
     * than a group) in a job that did not reduce over MPI (no MPI, or no
     * MPI_Finalize): the profile goes into the job's records file below,
     * and a part is written only for the trace. */
    int records = measured && to_records && !lw_job_parts_on();
    if (records && !lw_cfg.tracing)
        write = 0;
    /* With parts (LIBWRAP_JOB_PARTS=true, or auto in a job of at most a
     * group), the job's profile is reduced from the trees the parts hold:
     * a process that writes its part adds its record too, and the job's
     * last process reduces them, so that the job's profile and its parts
     * always agree. */
    int part_record = to_records && lw_job_parts_on();
    /* The tick rate, for what is written (a process without results, such
     * as a shell's command that calls nothing measured, does not wait for
     * it: timer.c). */
    if (write || records || lw_nlisteners)
        lw_timer_calibrate();
    const char *dir = NULL;
    if (write)
        dir = lw_experiment_dir();
    struct timespec t0, t1, t2;
    lw_clock_gettime(CLOCK_MONOTONIC, &t0);
    /* Samples taken from now on are dropped: the profile and the
     * listeners see the same ones. */
    lw_samples_freeze();
    if (measured)
        lw_args_warn_unmatched();
    lw_lane_report();
    lw_signal_report();
    lw_context_report();
    int part = dir && write && lw_cfg.profiling && !reduced && !records;
    int failed = part && lw_profile_write(dir) < 0;
    lw_clock_gettime(CLOCK_MONOTONIC, &t1);
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
        failed = dir && lw_profile_write(dir) < 0;
        lw_thread_registry_unlock();
        lw_region_unlock();
    } else if (part && part_record) {
        /* A record that cannot be written is warned of: the job's profile
         * then lacks the rank, its part has it. */
        lw_job_add_records();
    }
    if (!dir)
        dir = lw_experiment_dir_claimed();
    lw_clock_gettime(CLOCK_MONOTONIC, &t2);
    if (dir && failed)
        lw_log(LW_LOG_LIFECYCLE, "the profile could not be written to %s (the warning above says why)", dir);
    else if (dir && !write)
        lw_log(LW_LOG_LIFECYCLE, "no call was measured to its end: %s holds only what the first call made", dir);
    else if (dir)
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
    lw_xfsz_release(&xfsz);
    /* A signal sent while the program was not at a safe point (fatal.c)
     * ends it now, as it would have then. */
    if (end != LW_END_SIGNAL)
        lw_fatal_deferred_raise();
    LW_STORE(lw_tls.guard, guard);
    lw_cancel_restore(cancel);
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

void lw_finish_for_signal(void)
{
    lw_finish_as("fatal signal", LW_END_SIGNAL);
}

/* MPI_Abort (interpose/mpi_interpose.c): the rank's part now, by itself:
 * the launcher ends the other ranks (a signal, whose handler writes
 * theirs: fatal.c) and this one may never come back to an exit. No
 * collective: the others do not come. */
void libwrap_mpi_before_abort(void)
{
    if (getpid() != lw_process_pid())
        return;
    lw_log(LW_LOG_JOB, "MPI_Abort: this rank's results written before the job ends");
    lw_finish("MPI_Abort");
}

void libwrap_seccomp_prepare(void)
{
    int saved = errno;
    int state = LW_LOAD(lw_state);
    if (state == 2 || getpid() != lw_process_pid() || LW_LOAD(lw_tls.guard)) {
        errno = saved;
        return;
    }
    if (state == 0) {
        /* Not started: it never will (its start makes system calls). */
        int zero = 0;
        if (__atomic_compare_exchange_n(&lw_state, &zero, 2, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
            lw_warn("%s (pid %ld) sandboxes itself (seccomp) before measuring: it is not measured",
                    lw_program_name(), (long)getpid());
        errno = saved;
        return;
    }
    int measured = lw_measured_something();
    lw_finish("seccomp filter");
    lw_fatal_stop();
    const char *dir = lw_experiment_dir_claimed();
    if (measured && !dir)
        /* Not written: a line above said why. */
        lw_warn("%s (pid %ld) sandboxes itself (seccomp): measurement ends here; its calls after it "
                "are not measured", lw_program_name(), (long)getpid());
    else if (dir)
        lw_warn("%s (pid %ld) sandboxes itself (seccomp): measurement ends here; the results up to it "
                "are in %s, its calls after it are not measured",
                lw_program_name(), (long)getpid(), dir);
    else
        lw_warn("%s (pid %ld) sandboxes itself (seccomp) before any measured call: its calls after it "
                "are not measured", lw_program_name(), (long)getpid());
    errno = saved;
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
