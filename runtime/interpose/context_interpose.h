/*
 * context_interpose.h - between the interposers of swapcontext and
 * setcontext (context_interpose.c, built into liblibwrap_exec.a: a copy in
 * the runtime and in every wrapper shared library) and the runtime
 * (process/context.c).
 *
 * Exported from the runtime, so that a wrapper's copy of the interposers
 * reaches it; kept out of libwrap.h because only the interposers call it.
 */
#ifndef LIBWRAP_RUNTIME_CONTEXT_INTERPOSE_H
#define LIBWRAP_RUNTIME_CONTEXT_INTERPOSE_H

#define LIBWRAP_CONTEXT_API __attribute__((visibility("default")))

/*
 * The calling thread is about to switch execution contexts (another stack:
 * a coroutine). Where a measured call of the thread is open, its return
 * slot and frame belong to the context that leaves, and another context's
 * calls would take the places above them and be freed out of order: the
 * thread's calls are forwarded unmeasured until every call open now has
 * returned (lw_tls.switched). errno is kept.
 */
LIBWRAP_CONTEXT_API void libwrap_context_switch(void);

#endif /* LIBWRAP_RUNTIME_CONTEXT_INTERPOSE_H */
