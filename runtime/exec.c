/*
 * exec.c - the exec family: results of the old image are written before the
 * exec, and the new image keeps being measured.
 *
 * exec replaces the process without running atexit handlers or destructors,
 * so these interposers finish measurement first. The new image gets back
 * LD_PRELOAD and every LIBWRAP_* variable the process started with (a
 * program may pass a cleaned environment), and LIBWRAP_EXPERIMENT_DIRECTORY
 * set to the directory just written: the new image, with the same PID,
 * then claims <dir>.1 (lifecycle.c) instead of overwriting it.
 *
 * These are the only exported symbols without the libwrap_ prefix; they
 * interpose libc's when the runtime precedes libc in the lookup order (the
 * runtime on the link line, or in LD_PRELOAD).
 */
#include "internal.h"

#include <dlfcn.h>
#include <errno.h>
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

/*
 * Finishes measurement and returns the environment for the new image
 * (malloc'ed, entries shared with `envp` and lw_keep; NULL: use envp).
 */
static char **lw_exec_prepare(char *const envp[], char **dir_entry)
{
    *dir_entry = NULL;
    /* In a vfork() child the memory is the parent's: touch nothing. */
    if (LW_LOAD(lw_state) != 1 || getpid() != lw_process_pid())
        return NULL;
    lw_finish("exec");
    const char *dir = lw_experiment_dir_claimed();
    if (dir && asprintf(dir_entry, "LIBWRAP_EXPERIMENT_DIRECTORY=%s", dir) < 0)
        *dir_entry = NULL;
    size_t n = 0;
    while (envp && envp[n])
        n++;
    char **env = malloc((n + lw_nkeep + 2) * sizeof *env);
    if (!env)
        return NULL;
    size_t k = 0;
    if (*dir_entry)
        env[k++] = *dir_entry; /* replaces the program's own setting */
    for (size_t i = 0; i < n; i++)
        if (!*dir_entry || !lw_env_has(env, 1, envp[i]))
            env[k++] = envp[i];
    size_t given = k;
    for (size_t i = 0; i < lw_nkeep; i++)
        if (!lw_env_has(env, given, lw_keep[i]))
            env[k++] = lw_keep[i];
    env[k] = NULL;
    lw_log(LW_LOG_EXEC, "exec: results written%s%s", dir ? " to " : "", dir ? dir : "");
    return env;
}

static void *lw_next(const char *name)
{
    void *p = dlsym(RTLD_NEXT, name);
    if (!p)
        errno = ENOSYS;
    return p;
}

enum lw_exec_kind { LW_EXECVE, LW_EXECVPE, LW_FEXECVE };

static int lw_exec(enum lw_exec_kind kind, const char *path, int fd, char *const argv[],
                   char *const envp[])
{
    static const char *const names[] = {"execve", "execvpe", "fexecve"};
    void *real = lw_next(names[kind]);
    if (!real)
        return -1;
    char *dir_entry;
    char **env = lw_exec_prepare(envp, &dir_entry);
    char *const *use = env ? env : envp;
    int r;
    if (kind == LW_FEXECVE)
        r = ((int (*)(int, char *const[], char *const[]))real)(fd, argv, use);
    else
        r = ((int (*)(const char *, char *const[], char *const[]))real)(path, argv, use);
    int saved = errno;
    if (env)
        lw_log(LW_LOG_EXEC, "exec of %s failed: measurement stays stopped", path ? path : "fd");
    free(env);
    free(dir_entry);
    errno = saved;
    return r;
}

LIBWRAP_API int execve(const char *path, char *const argv[], char *const envp[])
{
    return lw_exec(LW_EXECVE, path, -1, argv, envp);
}

/* The interposers work only if symbol lookup finds them before libc's. */
void lw_exec_check(void)
{
    Dl_info found, self;
    void *p = dlsym(RTLD_DEFAULT, "execve");
    if (!p || !dladdr(p, &found) || !dladdr((void *)lw_exec_check, &self) ||
        found.dli_fbase != self.dli_fbase)
        lw_log(LW_LOG_EXEC, "libc's exec functions precede the runtime's in symbol lookup: "
                            "if this program execs, what it measured before is lost (preload "
                            "liblibwrap_runtime.so too, or put it on the link line)");
}

LIBWRAP_API int execv(const char *path, char *const argv[])
{
    return lw_exec(LW_EXECVE, path, -1, argv, environ);
}

LIBWRAP_API int execvpe(const char *file, char *const argv[], char *const envp[])
{
    return lw_exec(LW_EXECVPE, file, -1, argv, envp);
}

LIBWRAP_API int execvp(const char *file, char *const argv[])
{
    return lw_exec(LW_EXECVPE, file, -1, argv, environ);
}

LIBWRAP_API int fexecve(int fd, char *const argv[], char *const envp[])
{
    return lw_exec(LW_FEXECVE, NULL, fd, argv, envp);
}

/* execl*: the variable arguments become an argv array. */
static char **lw_collect_args(const char *arg0, va_list ap, char *const **envp)
{
    va_list cp;
    va_copy(cp, ap);
    size_t n = 1;
    while (va_arg(cp, char *))
        n++;
    va_end(cp);
    char **argv = malloc((n + 1) * sizeof *argv);
    if (!argv)
        return NULL;
    argv[0] = (char *)arg0;
    for (size_t i = 1; i <= n; i++)
        argv[i] = va_arg(ap, char *); /* the last one read is the NULL */
    if (envp)
        *envp = va_arg(ap, char *const *);
    return argv;
}

static int lw_execl_common(enum lw_exec_kind kind, const char *path, char **argv, char *const envp[])
{
    if (!argv) {
        errno = ENOMEM;
        return -1;
    }
    int r = lw_exec(kind, path, -1, argv, envp);
    int saved = errno;
    free(argv);
    errno = saved;
    return r;
}

LIBWRAP_API int execl(const char *path, const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    char **argv = lw_collect_args(arg, ap, NULL);
    va_end(ap);
    return lw_execl_common(LW_EXECVE, path, argv, environ);
}

LIBWRAP_API int execlp(const char *file, const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    char **argv = lw_collect_args(arg, ap, NULL);
    va_end(ap);
    return lw_execl_common(LW_EXECVPE, file, argv, environ);
}

LIBWRAP_API int execle(const char *path, const char *arg, ...)
{
    va_list ap;
    char *const *envp = NULL;
    va_start(ap, arg);
    char **argv = lw_collect_args(arg, ap, &envp);
    va_end(ap);
    return lw_execl_common(LW_EXECVE, path, argv, envp);
}
#endif
