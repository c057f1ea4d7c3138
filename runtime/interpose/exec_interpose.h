/*
 * exec_interpose.h - between the exec interposers (exec_interpose.c, built
 * into liblibwrap_exec.a, a copy in the runtime and in every wrapper shared
 * library) and the runtime (exec.c).
 *
 * Exported from the runtime, so that a wrapper's copy of the interposers
 * reaches it; kept out of libwrap.h because only the interposers call them.
 */
#ifndef LIBWRAP_RUNTIME_EXEC_INTERPOSE_H
#define LIBWRAP_RUNTIME_EXEC_INTERPOSE_H

#define LIBWRAP_EXEC_API __attribute__((visibility("default")))

/*
 * Finishes measurement (writes the results of the image about to be
 * replaced) and returns the environment for the new image: `envp` plus
 * LD_PRELOAD and the LIBWRAP_* variables the process started with, and
 * LIBWRAP_EXPERIMENT_DIRECTORY naming the directory just written. Returns
 * NULL (use `envp` as it is) when there is nothing to do: measurement not
 * running (not started, already stopped - so also when another copy of the
 * interposers prepared this exec already). In a vfork() child, the array
 * is the one libwrap_vfork_prepare made, and nothing else is done.
 */
LIBWRAP_EXEC_API char **libwrap_exec_prepare(char *const envp[]);

/* The exec returned (it failed): releases what libwrap_exec_prepare returned
 * (NULL is fine); `what` names the program for the log. errno is kept. */
LIBWRAP_EXEC_API void libwrap_exec_failed(char **env, const char *what);

/*
 * For posix_spawn and posix_spawnp: the environment of the child (`envp`
 * plus LD_PRELOAD, the LIBWRAP_* variables the process started with and
 * LIBWRAP_EXPERIMENT_DIRECTORY), measurement going on in the caller. NULL:
 * use `envp` as it is (out of memory). Release it with
 * libwrap_spawn_release once the spawn returned.
 */
LIBWRAP_EXEC_API char **libwrap_spawn_prepare(char *const envp[]);
LIBWRAP_EXEC_API void libwrap_spawn_release(char **env);

/*
 * Before a vfork() (the vfork interposer, in the parent): the parent's
 * directory claimed if it has measured, and room made for the environment
 * of the child's exec, which shares the parent's memory and must neither
 * allocate nor lock; libwrap_exec_prepare in that child composes it there.
 */
LIBWRAP_EXEC_API void libwrap_vfork_prepare(void);

/*
 * Before system() and popen() (their interposers): the caller's directory
 * claimed if it has measured, as at a fork, so that the programs the shell
 * runs (started by glibc where no interposer sees it, with the caller's
 * environment) write <dir>.N beside it instead of taking its name first.
 */
LIBWRAP_EXEC_API void libwrap_shell_prepare(void);

/* The program's main is about to run (the __libc_start_main interposer).
 * Any number of calls: the first counts. */
LIBWRAP_EXEC_API void libwrap_main_begins(void);

#endif /* LIBWRAP_RUNTIME_EXEC_INTERPOSE_H */
