/*
 * process.h - the process's life (process/README.md): start, end and fork
 * (lifecycle.c), fatal signals (fatal.c), exec (exec.c), clone (clone.c), the
 * program's signal handlers (signal.c) and its own dlsym (dl.c).
 */
#ifndef LIBWRAP_RUNTIME_PROCESS_H
#define LIBWRAP_RUNTIME_PROCESS_H

#include "core/base/base.h"

#include <signal.h>

/* libc's own sigaction, which no interposer (ours included) stands in for
 * (libc's, not hidden). */
extern int __sigaction(int sig, const struct sigaction *act, struct sigaction *old);

/* Internal to the runtime's shared object: hidden, so that -fPIC code
 * reaches it directly instead of through the GOT. */
#pragma GCC visibility push(hidden)

/* ---- lifecycle.c ------------------------------------------------------- */

/* Ends measurement and writes the results; `why` is for the verbose log.
 * The process is done measuring (exit, signal, libwrap_finalize). */
void lw_finish(const char *why);
/* The same before an exec: the new image measures on, so a job's rank is
 * not finished yet. */
void lw_finish_for_exec(void);
/* The same in the handler of a fatal signal: nothing is checked first. */
void lw_finish_for_signal(void);
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

/* ---- fatal.c ----------------------------------------------------------- */

/*
 * The runtime's handler of a signal that kills (SIGSEGV SIGBUS SIGFPE SIGILL
 * SIGABRT SIGTERM SIGINT) writes the results, restores the program's
 * action and raises the signal again. It stands wherever the program has
 * the default action, at the start and whenever the program sets it:
 * lw_fatal_keep installs it for `act` (the default; `old` as
 * __sigaction's, in the program's view) while measurement runs, else
 * returns -2 and does nothing. lw_fatal_view shows the program the action
 * it set where `a` is the runtime's handler.
 */
int lw_fatal_keep(int sig, const struct sigaction *act, struct sigaction *old);
void lw_fatal_view(int sig, struct sigaction *a);
/* At the start: finds the code where a signal from outside must wait for a
 * safe point (the allocator's, libc's, the loader's) and installs the
 * handler. */
void lw_fatal_start(void);
/* At an end other than a fatal signal's, results written: a signal that
 * waits for a safe point is raised now (the process dies by it). */
void lw_fatal_deferred_raise(void);
/* A fork child: no signal waits in it. */
void lw_fatal_fork_child(void);
/* Measurement ended for good in a process that goes on (a seccomp
 * filter): the program's action back wherever the handler stands. */
void lw_fatal_stop(void);

/* ---- exec.c, dl.c ------------------------------------------------------ */


/* dl.c: the wrapper tables that answer the program's own dlsym lookups,
 * and the check of loads with RTLD_DEEPBIND or dlmopen since the last. */
void lw_dl_register(libwrap_abi_entry *entries, uint32_t n);
/* Two wrapper libraries of one function: lw_hooks.past_wrappers and
 * .abi_resolved (core/measure/hooks.h). */
void *lw_dl_past_wrappers(const libwrap_abi_entry *e, void *p);
void lw_dl_registered(libwrap_abi_entry *entries, uint32_t n);
void lw_dl_check_pending(void);
/* lw_hooks.functions_unloaded (core/measure/hooks.h). */
int lw_dl_functions_unloaded(const char *glob);
/* As main begins: a runtime wrapper that another object (not a wrapper,
 * not the program) comes before in symbol lookup, in one warning. */
void lw_dl_shadow_check(void);
void lw_exec_init(void); /* remembers LD_PRELOAD and LIBWRAP_* at start */
void lw_exec_check(void); /* logs whether the exec interposers are in effect */
/* dl.c: whether `path` (NULL: no) names libc, LIBC_SO, in whatever folder. */
int lw_dl_names_libc(const char *path);

/* ---- signal.c ---------------------------------------------------------- */

/* One warning at the end when a signal handler left the runtime by longjmp. */
void lw_signal_report(void);
/* context.c: how often calls went unmeasured after a context switch. */
void lw_context_report(void);

#pragma GCC visibility pop

#endif /* LIBWRAP_RUNTIME_PROCESS_H */
