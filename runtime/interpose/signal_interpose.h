/*
 * signal_interpose.h - between the signal interposers (signal_interpose.c,
 * built into liblibwrap_exec.a beside the exec ones: a copy in the runtime
 * and in every wrapper shared library) and the runtime (signal.c).
 *
 * Exported from the runtime, so that a wrapper's copy of the interposers
 * reaches it; kept out of libwrap.h because only the interposers call them.
 */
#ifndef LIBWRAP_RUNTIME_SIGNAL_INTERPOSE_H
#define LIBWRAP_RUNTIME_SIGNAL_INTERPOSE_H

#include <signal.h>

#define LIBWRAP_SIGNAL_API __attribute__((visibility("default")))

/*
 * sigaction(2) for the program: a handler is installed to run through the
 * runtime's dispatcher (which tells the runtime that a signal handler runs,
 * for the calls it makes while the runtime was busy), with the program's
 * flags and mask; `old` always shows the program's own handler and flags.
 * Same contract and errno as sigaction.
 */
LIBWRAP_SIGNAL_API int libwrap_sigaction(int sig, const struct sigaction *act, struct sigaction *old);

/*
 * After libc's signal(), bsd_signal(), sysv_signal() or sigset() set the
 * disposition of `sig` with its own flags: runs the handler now installed
 * through the dispatcher, flags and mask unchanged, and returns what the
 * program must see for `prev`, the disposition libc returned.
 */
LIBWRAP_SIGNAL_API void *libwrap_signal_adopt(int sig, void *prev);

/*
 * Called by longjmp, siglongjmp and __longjmp_chk before they jump: when
 * the jump leaves a signal handler that interrupted the runtime, that
 * runtime step will not be finished, and the thread's calls are forwarded
 * unmeasured from then on (one warning at the end).
 */
LIBWRAP_SIGNAL_API void libwrap_signal_leave(void);

/* The runtime's resolving bracket (libwrap.h), around the interposers'
 * own dlsym: what it allocates is not the program's. */
void libwrap_resolve_begin(void);
void libwrap_resolve_end(void);

#endif /* LIBWRAP_RUNTIME_SIGNAL_INTERPOSE_H */
