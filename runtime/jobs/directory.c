/*
 * directory.c - the experiment directory, claimed in one place.
 *
 * Results go to an experiment directory that is claimed, not just created:
 * the process that creates <dir>/config.txt with O_EXCL owns <dir>;
 * otherwise <dir>.1, <dir>.2, ... are tried. So an exec'd program with the
 * same PID, or two runs given the same LIBWRAP_EXPERIMENT_DIRECTORY, never
 * overwrite each other. A fork()ed child claims <parent dir>/fork-<pid>;
 * so does a child of clone() without CLONE_VM, through the same steps
 * (process/clone.c).
 * A rank of a job claims <job dir>/rank-N the same way, in the job's
 * directory (job.c). Nothing is claimed before the process has measured a
 * call, with or without tracing: the trace is opened at the first one.
 *
 * config.txt is written by the top layer (the hook config_txt,
 * process/lifecycle.c).
 */
#include "jobs/jobs.h"
#include "core/measure/hooks.h"
#include "xfsz.h"
#include "owner.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Lock 3 of the order at lw_thread_registry_lock (core/measure/measure.h). */
static pthread_mutex_t lw_dir_mutex = PTHREAD_MUTEX_INITIALIZER;
static char *lw_dir;      /* claimed experiment directory */
static char *lw_dir_base; /* the name to claim (absolute), a lone process's */
static char *lw_explicit_dir; /* LIBWRAP_EXPERIMENT_DIRECTORY (absolute), or NULL */
static int lw_claim_failed; /* said once: no results */
/* In a fork child: the directory the parent claimed, which an exec before
 * the child claims its own passes on. */
static const char *lw_parent_dir;

const char *lw_experiment_dir_claimed(void)
{
    return lw_dir;
}

/* The working directory at the start, which relative names are taken
 * from; NULL where getcwd failed (removed, or denied), with its error. */
static char *lw_start_cwd;
static int lw_start_cwd_err;

static char *lw_absolute(const char *path)
{
    char *out = NULL;
    if (path[0] == '/')
        return strdup(path);
    if (lw_start_cwd && asprintf(&out, "%s/%s", lw_start_cwd, path) < 0)
        out = NULL;
    return out;
}

void lw_default_name(char *name, size_t size)
{
    /* libc's clock, as the runtime's times: an interposer that moves the
     * program's (libfaketime) leaves the name of the run's real date. */
    struct timespec ts;
    lw_clock_gettime(CLOCK_REALTIME, &ts);
    time_t now = ts.tv_sec;
    struct tm tm;
    localtime_r(&now, &tm);
    snprintf(name, size, "libwrap-%04d%02d%02d_%02d%02d%02d_%ld", tm.tm_year + 1900, tm.tm_mon + 1,
             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (long)getpid());
}

static char *lw_default_dir(void)
{
    char name[64];
    lw_default_name(name, sizeof name);
    return lw_absolute(name);
}

/* The effective user at the start: a process that runs as another one
 * when it writes its results (a server's worker that dropped root's
 * rights) is told so when it cannot create its directory. */
static uid_t lw_start_euid;

/* The root directory at the start: a process that changes it (chroot)
 * writes its results under the new one, which its message says. */
static struct stat lw_start_root;
static int lw_start_root_ok;
/* The root directory when the directory was claimed. */
static struct stat lw_claim_root;
static int lw_claim_root_ok;

/* Whether the root directory is no longer `was` (where `ok`: it was read). */
static int lw_root_moved(int ok, const struct stat *was)
{
    struct stat st;
    return ok && stat("/", &st) == 0 && (st.st_dev != was->st_dev || st.st_ino != was->st_ino);
}

void lw_dir_init(void)
{
    lw_start_euid = geteuid();
    lw_start_root_ok = stat("/", &lw_start_root) == 0;
    free(lw_start_cwd);
    lw_start_cwd = getcwd(NULL, 0);
    lw_start_cwd_err = lw_start_cwd ? 0 : errno;
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
}

static char *lw_dir_claim_held(const char *base);

/* Creates `base` (or base.N) and claims it by creating config.txt in it
 * (the program's file-size limit fails the write, without SIGXFSZ). */
char *lw_dir_claim(const char *base)
{
    lw_xfsz x;
    lw_xfsz_hold(&x);
    char *dir = lw_dir_claim_held(base);
    lw_xfsz_release(&x);
    return dir;
}

/* Whether `dir` holds files the results would overwrite without a
 * config.txt of libwrap's beside them (the user's own profile.json, the
 * remains of a run whose config.txt was removed): such a directory is
 * not claimed, as one with a config.txt is not. */
static int lw_dir_holds_results(const char *dir)
{
    static const char *const names[] = {"profile.json", "profile.txt", "traces.otf2", "traces.def", "traces"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char *path = NULL;
        struct stat st;
        int there = asprintf(&path, "%s/%s", dir, names[i]) >= 0 && lstat(path, &st) == 0;
        free(path);
        if (there)
            return 1;
    }
    return 0;
}

static char *lw_dir_claim_held(const char *base)
{
    for (unsigned n = 0; n < 10000; n++) {
        char *dir = NULL, *cfg = NULL;
        if ((n ? asprintf(&dir, "%s.%u", base, n) : asprintf(&dir, "%s", base)) < 0)
            return NULL;
        struct stat st;
        int existed = stat(dir, &st) == 0;
        if (existed && lw_dir_holds_results(dir)) {
            free(dir);
            continue;
        }
        if (lw_mkdir_p(dir) < 0) {
            int err = errno;
            uid_t euid = geteuid();
            /* (uid_t)-1: geteuid itself refused (a seccomp filter). */
            if ((err == EACCES || err == EPERM) && euid != lw_start_euid && euid != (uid_t)-1 &&
                lw_start_euid != (uid_t)-1)
                lw_warn("cannot create the experiment directory %s: %s: the process runs as user %ld, "
                        "it started as user %ld (it changed user: a server's worker); no results are "
                        "written (create LIBWRAP_EXPERIMENT_DIRECTORY beforehand with mode 1777, "
                        "docs/runtime.md, \"A process that changes user\")",
                        dir, strerror(err), (long)euid, (long)lw_start_euid);
            else
                lw_warn("cannot create the experiment directory %s: %s; no results are written "
                        "(set LIBWRAP_EXPERIMENT_DIRECTORY to a writable place)",
                        dir, strerror(err));
            free(dir);
            return NULL;
        }
        if (asprintf(&cfg, "%s/config.txt", dir) < 0) {
            free(dir);
            return NULL;
        }
        int fd = lw_owner_open(cfg, O_WRONLY | O_EXCL | O_CLOEXEC);
        if (fd >= 0) {
            lw_out o;
            FILE *f = lw_out_open(&o);
            if (!f) {
                close(fd);
                lw_warn("cannot write %s: %s", cfg, strerror(errno));
            } else if (lw_hook->config_txt(f, dir) < 0 || lw_out_write_fd(&o, fd) != 0) {
                lw_warn("cannot write %s: %s", cfg, strerror(errno));
            }
            free(cfg);
            lw_log(LW_LOG_LIFECYCLE, "results go to %s", dir);
            lw_claim_root_ok = stat("/", &lw_claim_root) == 0;
            if (lw_root_moved(lw_start_root_ok, &lw_start_root))
                lw_warn("%s (pid %ld) changed its root directory (chroot): its results are in %s "
                        "under that root, not under the one it started with",
                        lw_program_name(), (long)getpid(), dir);
            return dir;
        }
        int err = errno;
        free(cfg);
        /* Not claimed: a directory made for it is not left behind. */
        if (err != EEXIST && !existed)
            (void)rmdir(dir);
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
            lw_dir = lw_dir_claim(base);
            free(base);
        }
    } else if (lw_dir_base) {
        /* A name under the start directory: created there only while it
         * is there (not again after the program removed it, nor inside
         * the root directory it changed to: chroot). */
        struct stat st;
        if (!lw_explicit_dir && lw_start_cwd && stat(lw_start_cwd, &st) != 0)
            lw_warn("cannot create the experiment directory %s: the directory the process started in "
                    "is gone (removed, or the process changed its root directory); no results are "
                    "written (set LIBWRAP_EXPERIMENT_DIRECTORY to an absolute path)", lw_dir_base);
        else
            lw_dir = lw_dir_claim(lw_dir_base);
    } else if (!lw_job_info.active && !lw_start_cwd) {
        lw_warn("cannot name the experiment directory: the directory the process started in is unknown "
                "(getcwd: %s); no results are written (set LIBWRAP_EXPERIMENT_DIRECTORY to an absolute path)",
                strerror(lw_start_cwd_err));
    }
    lw_claim_failed = !lw_dir;
    return lw_dir;
}

static void lw_claim_on_stack(void *dir)
{
    *(const char **)dir = lw_claim_locked();
}

const char *lw_experiment_dir(void)
{
    pthread_mutex_lock(&lw_dir_mutex);
    const char *dir = lw_dir;
    /* Made on a stack of the runtime's own: the first call may come from a
     * thread with a small one (work_stack.c). */
    if (!dir && !lw_claim_failed)
        lw_on_work_stack(lw_claim_on_stack, &dir);
    /* Claimed, then the root changed (chroot): the path names a place
     * under the new root, where the rest is written if it can be. */
    static int said;
    if (dir && !said && lw_root_moved(lw_claim_root_ok, &lw_claim_root)) {
        said = 1;
        lw_warn("%s (pid %ld) changed its root directory (chroot) after its results' directory %s was made: "
                "what is written from now on goes to %s under the new root, where it may not be",
                lw_program_name(), (long)getpid(), dir, dir);
    }
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
    /* A fork child that execs before it measured (fork and exec, as a
     * JVM starts a program) of a parent that measured: the new image
     * writes <dir>.N beside its parent's, as a posix_spawn child does, not
     * where the variable it inherited (relative, or unset) would put it
     * from the child's working directory. */
    return lw_dir ? lw_dir : lw_parent_dir;
}

const char *lw_experiment_dir_base(void)
{
    return lw_dir ? lw_dir : lw_dir_base;
}

void lw_dir_lock(void)
{
    pthread_mutex_lock(&lw_dir_mutex);
}

void lw_dir_unlock(void)
{
    pthread_mutex_unlock(&lw_dir_mutex);
}

void lw_dir_after_fork_child(void)
{
    pthread_mutex_init(&lw_dir_mutex, NULL);
    char *base = NULL;
    /* A rank without a directory yet: the child's is found from the job
     * when it needs one (lw_claim_locked). */
    const char *parent = lw_dir ? lw_dir : lw_job_info.active ? NULL : lw_dir_base;
    if (parent && asprintf(&base, "%s/fork-%ld", parent, (long)getpid()) < 0)
        base = NULL;
    lw_dir_base = base;
    /* The parent's directory, claimed (it has measured): a process that
     * measured nothing (a shell, `timeout`) passes nothing on, and what it
     * starts names its own; nor does a launcher measured in a part of its
     * own (LIBWRAP_MEASURE_LAUNCHER), whose daemons and ranks write the
     * job's. The parent's string, kept. */
    lw_parent_dir = lw_job_info.active || lw_job_info.launcher_program ? NULL : lw_dir;
    lw_dir = NULL;
    lw_claim_failed = 0;
}
