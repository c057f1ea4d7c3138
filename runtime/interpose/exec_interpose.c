/*
 * exec_interpose.c - the exec family's interposers (execve, execv, execvp,
 * execvpe, execl, execlp, execle, fexecve), built into the static PIC
 * archive liblibwrap_exec.a.
 *
 * exec replaces the process without running atexit handlers or destructors,
 * so the results of the old image must be written first (exec.c). These
 * definitions take effect only in an object that precedes libc in symbol
 * lookup. With LD_PRELOAD of a runtime wrapper, or a wrapper on the link
 * line, that object is the wrapper; the runtime is only the wrapper's
 * dependency and is loaded after libc. So the archive is linked whole into
 * the runtime and into every wrapper shared library, and each copy forwards
 * with dlsym(RTLD_NEXT) from its own object.
 *
 * Several copies may be loaded: the first in lookup order is called, and
 * its RTLD_NEXT may reach another copy instead of libc. The first one
 * finishes measurement; libwrap_exec_prepare does nothing once measurement
 * has stopped, so the next copy passes the environment built by the first
 * on unchanged and the results are written exactly once.
 *
 * The definitions are weak so that a wrapper of libc that wraps an exec
 * function itself keeps its own definition when it is linked; weakness
 * plays no part in the dynamic lookup, where the first definition wins.
 */
#include "interpose/exec_interpose.h"

#include <dlfcn.h>
#include <errno.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define LW_EXEC_INTERPOSER __attribute__((weak, visibility("default")))

enum lw_exec_kind { LW_EXECVE, LW_EXECVPE, LW_FEXECVE };

static int lw_exec(enum lw_exec_kind kind, const char *path, int fd, char *const argv[],
                   char *const envp[])
{
    static const char *const names[] = {"execve", "execvpe", "fexecve"};
    void *real = dlsym(RTLD_NEXT, names[kind]);
    if (!real) {
        errno = ENOSYS;
        return -1;
    }
    char **env = libwrap_exec_prepare(envp);
    char *const *use = env ? env : envp;
    int r;
    if (kind == LW_FEXECVE)
        r = ((int (*)(int, char *const[], char *const[]))real)(fd, argv, use);
    else
        r = ((int (*)(const char *, char *const[], char *const[]))real)(path, argv, use);
    libwrap_exec_failed(env, path);
    return r;
}

LW_EXEC_INTERPOSER int execve(const char *path, char *const argv[], char *const envp[])
{
    return lw_exec(LW_EXECVE, path, -1, argv, envp);
}

LW_EXEC_INTERPOSER int execv(const char *path, char *const argv[])
{
    return lw_exec(LW_EXECVE, path, -1, argv, environ);
}

LW_EXEC_INTERPOSER int execvpe(const char *file, char *const argv[], char *const envp[])
{
    return lw_exec(LW_EXECVPE, file, -1, argv, envp);
}

LW_EXEC_INTERPOSER int execvp(const char *file, char *const argv[])
{
    return lw_exec(LW_EXECVPE, file, -1, argv, environ);
}

LW_EXEC_INTERPOSER int fexecve(int fd, char *const argv[], char *const envp[])
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

LW_EXEC_INTERPOSER int execl(const char *path, const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    char **argv = lw_collect_args(arg, ap, NULL);
    va_end(ap);
    return lw_execl_common(LW_EXECVE, path, argv, environ);
}

LW_EXEC_INTERPOSER int execlp(const char *file, const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    char **argv = lw_collect_args(arg, ap, NULL);
    va_end(ap);
    return lw_execl_common(LW_EXECVPE, file, argv, environ);
}

LW_EXEC_INTERPOSER int execle(const char *path, const char *arg, ...)
{
    va_list ap;
    char *const *envp = NULL;
    va_start(ap, arg);
    char **argv = lw_collect_args(arg, ap, &envp);
    va_end(ap);
    return lw_execl_common(LW_EXECVE, path, argv, envp);
}

/*
 * system, popen: glibc starts the shell itself (posix_spawn inside libc,
 * which no interposer sees), with the caller's environment; the caller's
 * directory is claimed first (libwrap_shell_prepare).
 */
LW_EXEC_INTERPOSER int system(const char *command)
{
    int (*real)(const char *) = (int (*)(const char *))dlsym(RTLD_NEXT, "system");
    if (!real) {
        errno = ENOSYS;
        return -1;
    }
    libwrap_shell_prepare();
    return real(command);
}

LW_EXEC_INTERPOSER FILE *popen(const char *command, const char *mode)
{
    FILE *(*real)(const char *, const char *) = (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, "popen");
    if (!real) {
        errno = ENOSYS;
        return NULL;
    }
    libwrap_shell_prepare();
    return real(command, mode);
}

/*
 * vfork: the interposer (x86_64/vfork_x86_64.S, aarch64/vfork_aarch64.S)
 * calls lw_vfork_route, then jumps to the function it returns with the
 * caller's return address on the stack, as vfork needs: it returns twice,
 * and its child runs on the caller's stack until it execs. A C function
 * here would leave a frame that the child's return overwrites.
 */
static pid_t lw_vfork_fails(void)
{
    errno = ENOSYS;
    return -1;
}

__attribute__((visibility("hidden"))) void *lw_vfork_route(void);
void *lw_vfork_route(void)
{
    int saved = errno;
    libwrap_vfork_prepare();
    void *real = dlsym(RTLD_NEXT, "vfork");
    errno = saved;
    return real ? real : (void *)lw_vfork_fails;
}

/*
 * posix_spawn, posix_spawnp: glibc execs the child itself (no interposer
 * sees that exec), so the environment is prepared here, as for an exec,
 * and the caller goes on being measured.
 */
typedef int lw_spawn_fn(pid_t *, const char *, const posix_spawn_file_actions_t *,
                        const posix_spawnattr_t *, char *const[], char *const[]);

static int lw_spawn(const char *name, pid_t *pid, const char *path,
                    const posix_spawn_file_actions_t *actions, const posix_spawnattr_t *attr,
                    char *const argv[], char *const envp[])
{
    lw_spawn_fn *real = (lw_spawn_fn *)dlsym(RTLD_NEXT, name);
    if (!real)
        return ENOSYS;
    char **env = libwrap_spawn_prepare(envp);
    int r = real(pid, path, actions, attr, argv, env ? env : envp);
    libwrap_spawn_release(env);
    return r;
}

LW_EXEC_INTERPOSER int posix_spawn(pid_t *pid, const char *path,
                                   const posix_spawn_file_actions_t *actions,
                                   const posix_spawnattr_t *attr, char *const argv[],
                                   char *const envp[])
{
    return lw_spawn("posix_spawn", pid, path, actions, attr, argv, envp);
}

LW_EXEC_INTERPOSER int posix_spawnp(pid_t *pid, const char *file,
                                    const posix_spawn_file_actions_t *actions,
                                    const posix_spawnattr_t *attr, char *const argv[],
                                    char *const envp[])
{
    return lw_spawn("posix_spawnp", pid, file, actions, attr, argv, envp);
}

/*
 * __libc_start_main: the program's main is started through lw_main, which
 * tells the runtime that main begins. Registered from there, the runtime's
 * atexit handler runs before the ELF destructors (_dl_fini is registered
 * by __libc_start_main itself, before main, so it runs after it).
 */
typedef int lw_main_fn(int, char **, char **);
static lw_main_fn *lw_real_main;

static int lw_main(int argc, char **argv, char **envp)
{
    libwrap_main_begins();
    return lw_real_main(argc, argv, envp);
}

LW_EXEC_INTERPOSER int __libc_start_main(lw_main_fn *main, int argc, char **argv, void (*init)(void),
                                         void (*fini)(void), void (*rtld_fini)(void), void *stack_end)
{
    typedef int start_fn(lw_main_fn *, int, char **, void (*)(void), void (*)(void), void (*)(void),
                         void *);
    start_fn *real = (start_fn *)dlsym(RTLD_NEXT, "__libc_start_main");
    if (!real)
        abort();
    lw_real_main = main;
    return real(lw_main, argc, argv, init, fini, rtld_fini, stack_end);
}
