/*
 * process.h - the process's life (process/README.md): start, end, fork and
 * fatal signals (lifecycle.c), exec (exec.c), clone (clone.c), the
 * program's signal handlers (signal.c) and its own dlsym (dl.c).
 */
#ifndef LIBWRAP_RUNTIME_PROCESS_H
#define LIBWRAP_RUNTIME_PROCESS_H

#include "core/base/base.h"

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

/* ---- exec.c, dl.c ------------------------------------------------------ */


/* dl.c: the wrapper tables that answer the program's own dlsym lookups,
 * and the check of loads with RTLD_DEEPBIND or dlmopen since the last. */
void lw_dl_register(libwrap_abi_entry *entries, uint32_t n);
void lw_dl_check_pending(void);
void lw_exec_init(void); /* remembers LD_PRELOAD and LIBWRAP_* at start */
void lw_exec_check(void); /* logs whether the exec interposers are in effect */

/* ---- signal.c ---------------------------------------------------------- */

/* One warning at the end when a signal handler left the runtime by longjmp. */
void lw_signal_report(void);

#pragma GCC visibility pop

#endif /* LIBWRAP_RUNTIME_PROCESS_H */
