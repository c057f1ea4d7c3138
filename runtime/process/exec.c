/*
 * exec.c - the exec family: results of the old image are written before the
 * exec, and the new image keeps being measured.
 *
 * The interposers themselves are in exec_interpose.c (a copy in the runtime
 * and in every wrapper library); they call libwrap_exec_prepare here. The
 * new image gets back LD_PRELOAD and every LIBWRAP_* variable the process
 * started with (a program may pass a cleaned environment), and
 * LIBWRAP_EXPERIMENT_DIRECTORY set to the directory just written: the new
 * image, with the same PID, then claims <dir>.1 (jobs/directory.c) instead of
 * overwriting it. A rank of a job passes its job directory, where the new
 * image claims rank-N.1.
 */
#include "process/process.h"
#include "jobs/jobs.h"
#include "core/measure/measure.h"
#include "interpose/exec_interpose.h"

#include "core/base/dl.h"
#include <errno.h>
#include <gnu/lib-names.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char **lw_keep; /* "NAME=value" of LD_PRELOAD and LIBWRAP_* at start */
static size_t lw_nkeep;

void lw_exec_init(void)
{
    size_t n = 0;
    for (char **e = environ; e && *e; e++)
        n++;
    lw_keep = calloc(n + 1, sizeof *lw_keep);
    if (!lw_keep)
        return;
    for (char **e = environ; e && *e; e++)
        if (!strncmp(*e, "LIBWRAP_", 8) || !strncmp(*e, "LD_PRELOAD=", 11))
            if ((lw_keep[lw_nkeep] = strdup(*e)))
                lw_nkeep++;
}

#ifdef LIBWRAP_NOP
void lw_exec_check(void)
{
}

char **libwrap_exec_prepare(char *const envp[])
{
    return NULL;
}

char **libwrap_spawn_prepare(char *const envp[])
{
    return NULL;
}

void libwrap_spawn_release(char **env)
{
}

void libwrap_exec_failed(char **env, const char *what)
{
}

void libwrap_vfork_prepare(void)
{
}

void libwrap_shell_prepare(void)
{
}
#else
static size_t lw_name_len(const char *entry)
{
    const char *eq = strchr(entry, '=');
    return eq ? (size_t)(eq - entry) : strlen(entry);
}

static int lw_env_has(char *const *env, size_t n, const char *entry)
{
    size_t len = lw_name_len(entry);
    for (size_t i = 0; i < n; i++)
        if (lw_name_len(env[i]) == len && !strncmp(env[i], entry, len))
            return 1;
    return 0;
}

static char *lw_dir_entry; /* "LIBWRAP_EXPERIMENT_DIRECTORY=..." given to the new image */

/* The environment of a new image into env[] (room for every entry of
 * `envp`, lw_nkeep more and the NULL): `dir_entry` (or none) first, in
 * place of the program's own setting, then `envp`, then the variables the
 * process started with that `envp` lacks. */
static void lw_env_compose(char **env, const char *dir_entry, char *const envp[])
{
    size_t k = 0;
    if (dir_entry)
        env[k++] = (char *)dir_entry;
    for (size_t i = 0; envp && envp[i]; i++)
        if (!dir_entry || !lw_env_has(env, 1, envp[i]))
            env[k++] = envp[i];
    size_t given = k;
    for (size_t i = 0; i < lw_nkeep; i++)
        if (!lw_env_has(env, given, lw_keep[i]))
            env[k++] = lw_keep[i];
    env[k] = NULL;
}

/* Execs and spawns prepared and under way on this thread: a second copy of
 * the interposers (two wrapper libraries preloaded) prepares the same one
 * inside the first, which alone says what happens. One each from a
 * prepare that returned an environment to its release. */
static __thread int lw_preparing __attribute__((tls_model("initial-exec")));

/* An exec of this image was prepared: measurement stopped for it, and the
 * results were written. A failed one leaves it so (the program may try
 * the next directory of PATH, as execvp and GLib's spawn do); every exec
 * after it is given the same environment. */
static int lw_exec_tried;

/* What the parent passes to a child it starts (a spawn, a vfork, the
 * programs a shell runs): a rank's job directory, or its own directory,
 * claimed now, if it has measured; NULL otherwise. With the guard set. */
static const char *lw_dir_for_child(void)
{
    if (lw_job_info.active)
        return lw_experiment_dir_for_exec();
    /* A fork child that has not measured: its parent's, as for its exec. */
    return lw_region_count() > 0 && lw_measured_here() ? lw_experiment_dir() : lw_experiment_dir_for_exec();
}

/* The parent side of starting a child: measuring, in the process that
 * started measuring (not a vfork child), outside the runtime. Sets the
 * guard, which lw_child_end clears. */
static int lw_child_begin(void)
{
    if (LW_LOAD(lw_state) != 1 || getpid() != lw_process_pid() || LW_LOAD(lw_tls.guard))
        return 0;
    LW_STORE(lw_tls.guard, 1);
    return 1;
}

static void lw_child_end(void)
{
    LW_STORE(lw_tls.guard, 0);
}

/*
 * vfork: the child shares the parent's memory and runs on its stack until
 * it execs, with the parent's thread suspended; it must neither allocate
 * nor take a lock another thread may hold. So the parent, as it calls
 * vfork, claims its directory (if it has measured, as at a fork) and makes
 * the room the child's exec composes its environment in: `envp` (up to the
 * room made), LD_PRELOAD and the LIBWRAP_* variables the process started
 * with, and LIBWRAP_EXPERIMENT_DIRECTORY set to the parent's directory,
 * absolute, where it has measured. The new image, a process of its own,
 * then writes <dir>.N beside the parent's, as a posix_spawn child does
 * (Python's subprocess, a JVM with launchMechanism=VFORK), also with a
 * cleaned environment. The room is the calling thread's: the child runs
 * with that thread's TLS, and the thread is suspended until the child has
 * exec'd or ended.
 */
#define LW_VFORK_ENV_MAX 4096 /* entries of envp the room holds */
static __thread char **lw_vfork_env __attribute__((tls_model("initial-exec")));
static __thread char *lw_vfork_dir __attribute__((tls_model("initial-exec")));

void libwrap_vfork_prepare(void)
{
    int saved = errno;
    if (!lw_child_begin())
        return;
    free(lw_vfork_env);
    free(lw_vfork_dir);
    lw_vfork_env = NULL;
    lw_vfork_dir = NULL;
    /* A process that measured nothing passes nothing on, as at a fork;
     * nor does a launcher measured in a part of its own (the job's
     * directory is not its part). */
    const char *dir = !lw_job_info.active && lw_job_info.launcher_program ? NULL : lw_dir_for_child();
    if (dir && asprintf(&lw_vfork_dir, "LIBWRAP_EXPERIMENT_DIRECTORY=%s", dir) < 0)
        lw_vfork_dir = NULL;
    lw_vfork_env = malloc((LW_VFORK_ENV_MAX + lw_nkeep + 2) * sizeof *lw_vfork_env);
    lw_child_end();
    errno = saved;
}

void libwrap_shell_prepare(void)
{
    int saved = errno;
    if (!lw_child_begin())
        return;
    (void)lw_dir_for_child();
    lw_child_end();
    errno = saved;
}

/* In a vfork() child: the environment composed in the room its parent
 * made, or NULL (none made, or `envp` larger than it). */
static char **lw_vfork_child_env(char *const envp[])
{
    if (!lw_vfork_env)
        return NULL;
    if (envp == lw_vfork_env) /* composed by another copy of the interposers */
        return lw_vfork_env;
    size_t n = 0;
    while (envp && envp[n])
        n++;
    if (n > LW_VFORK_ENV_MAX)
        return NULL;
    lw_env_compose(lw_vfork_env, lw_vfork_dir, envp);
    return lw_vfork_env;
}

/*
 * The first exec of a process image stops measurement and writes the
 * results; it and every later one (after a failed one; another copy of the
 * interposers reached through RTLD_NEXT) get the new image's environment.
 * NULL: `envp` as it is (measurement stopped otherwise, a vfork() child,
 * no memory). The returned array shares its entries with `envp` and
 * lw_keep.
 */
/* Real and effective users (or groups) apart at an exec: the kernel
 * starts the new image in secure-execution mode (AT_SECURE), where the
 * loader ignores every LD_PRELOAD entry with a slash, the wrappers' and the
 * runtime's: Squid's master (real user proxy, effective root) execs its
 * worker so, which was not measured, silently. Said once. A set-user-ID
 * program is not told apart here (its file is not known). */
static void lw_exec_secure_warn(void)
{
    uid_t ruid = getuid(), euid = geteuid();
    gid_t rgid = getgid(), egid = getegid();
    if (ruid == euid && rgid == egid)
        return;
    char who[96];
    if (ruid != euid)
        snprintf(who, sizeof who, "user %ld with effective user %ld", (long)ruid, (long)euid);
    else
        snprintf(who, sizeof who, "group %ld with effective group %ld", (long)rgid, (long)egid);
    static int warned;
    libwrap_warn_once(&warned, "%s (pid %ld) execs a program as %s: the loader starts it in "
                               "secure-execution mode, where it ignores LD_PRELOAD's paths, and it is "
                               "not measured (keep the real and effective ids equal at the exec, or "
                               "measure the program without it: squid -N)",
                      lw_program_name(), (long)getpid(), who);
}

char **libwrap_exec_prepare(char *const envp[])
{
    /* In a vfork() child the memory is the parent's: only the room the
     * parent made is written. */
    if (getpid() != lw_process_pid()) {
        int saved = errno;
        char **env = lw_vfork_child_env(envp);
        errno = saved;
        return env;
    }
    if (LW_LOAD(lw_state) != 1 && !lw_exec_tried)
        return NULL;
    int saved = errno;
    if (!lw_exec_tried) {
        lw_exec_tried = 1;
        lw_exec_secure_warn();
        lw_finish_for_exec();
        /* In a job, the job directory: the new image is the same rank and
         * claims <job dir>/rank-N.1 there. */
        const char *dir = lw_experiment_dir_for_exec();
        if (dir && asprintf(&lw_dir_entry, "LIBWRAP_EXPERIMENT_DIRECTORY=%s", dir) < 0)
            lw_dir_entry = NULL;
        lw_log(LW_LOG_EXEC, "exec: results written%s%s", dir ? " to " : "", dir ? dir : "");
    }
    size_t n = 0;
    while (envp && envp[n])
        n++;
    char **env = malloc((n + lw_nkeep + 2) * sizeof *env);
    if (!env) {
        errno = saved;
        return NULL;
    }
    lw_env_compose(env, lw_dir_entry, envp);
    lw_preparing++;
    errno = saved;
    return env;
}

/*
 * posix_spawn: the parent goes on measuring, the child is a new process
 * started with the environment an exec would get. Its directory: a rank's
 * job directory, or the name this process claims (claimed now if it has
 * measured, as at a fork), so that the child takes <dir>.1, <dir>.2, ...
 * beside it. The array and its first entry are owned by the caller until
 * libwrap_spawn_release.
 */
char **libwrap_spawn_prepare(char *const envp[])
{
    int saved = errno;
    char *dir_entry = NULL;
    /* What the child does with the directory given: its part of the job's
     * (0), the first free name beside the caller's own, claimed (1), or
     * that name itself when free (2: the caller has measured nothing). */
    int into = 2;
    if (lw_child_begin()) {
        lw_exec_secure_warn();
        const char *dir = lw_dir_for_child();
        if (lw_job_info.active)
            into = 0;
        else if (dir)
            into = 1;
        else
            dir = lw_experiment_dir_base();
        if (dir && asprintf(&dir_entry, "LIBWRAP_EXPERIMENT_DIRECTORY=%s", dir) < 0)
            dir_entry = NULL;
        lw_child_end();
    }
    size_t n = 0;
    while (envp && envp[n])
        n++;
    char **block = malloc((n + lw_nkeep + 3) * sizeof *block);
    if (!block) {
        free(dir_entry);
        errno = saved;
        return NULL;
    }
    block[0] = dir_entry;
    char **env = block + 1;
    int again = lw_preparing++ > 0; /* said once a spawn */
    lw_env_compose(env, dir_entry, envp);
    const char *dir = dir_entry ? dir_entry + strlen("LIBWRAP_EXPERIMENT_DIRECTORY=") : NULL;
    if (again) {
        /* said by the outer copy */
    } else if (!dir)
        lw_log(LW_LOG_EXEC, "posix_spawn: the child measures into a directory of its own");
    else if (into == 0)
        lw_log(LW_LOG_EXEC, "posix_spawn: the child measures into its part of the job's directory %s", dir);
    else if (into == 1)
        lw_log(LW_LOG_EXEC, "posix_spawn: the child measures into %s.N, the first N free", dir);
    else
        lw_log(LW_LOG_EXEC, "posix_spawn: the child measures into %s (the first %s.N free, if taken)", dir,
               dir);
    errno = saved;
    return env;
}

void libwrap_spawn_release(char **env)
{
    if (!env)
        return;
    lw_preparing--;
    int saved = errno;
    free(env[-1]);
    free(env - 1);
    errno = saved;
}

void libwrap_exec_failed(char **env, const char *what)
{
    /* A vfork() child's room is its parent's. */
    if (!env || env == lw_vfork_env)
        return;
    int saved = errno;
    if (--lw_preparing == 0) /* said by the outer copy */
        lw_log(LW_LOG_EXEC, "exec of %s failed: measurement stays stopped; a later exec is measured",
               what ? what : "fd");
    free(env);
    errno = saved;
}

/*
 * The interposers work only if symbol lookup finds one of their copies
 * before libc's execve: compare the first execve with libc's own.
 */
void lw_exec_check(void)
{
    if (!lw_dl_available()) {
        lw_log(LW_LOG_EXEC, "a static program: its exec functions are libc's, not interposed");
        return;
    }
    void *libc = dlopen(LIBC_SO, RTLD_LAZY | RTLD_NOLOAD);
    void *first = dlsym(RTLD_DEFAULT, "execve");
    void *real = libc ? dlsym(libc, "execve") : NULL;
    if (libc)
        dlclose(libc);
    if (!first || first == real)
        lw_log(LW_LOG_EXEC, "libc's exec functions precede libwrap's in symbol lookup: if this "
                            "program execs, what it measured before is lost (put a wrapper "
                            "library or liblibwrap_runtime.so before libc: LD_PRELOAD or the "
                            "link line)");
    else
        lw_log(LW_LOG_EXEC, "exec functions interposed");
}
#endif
