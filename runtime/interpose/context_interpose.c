/*
 * context_interpose.c - the interposers of swapcontext and setcontext
 * (ucontext coroutines), built into liblibwrap_exec.a beside the exec
 * interposers: a copy in the runtime and in every wrapper shared library,
 * forwarding with dlsym(RTLD_NEXT) (exec_interpose.c says why). Each tells
 * the runtime first (libwrap_context_switch, idempotent, so that several
 * copies in a row do no harm). makecontext and getcontext switch nothing.
 */
#include "interpose/context_interpose.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <ucontext.h>

#define LW_CONTEXT_INTERPOSER __attribute__((weak, visibility("default")))

LW_CONTEXT_INTERPOSER int swapcontext(ucontext_t *oucp, const ucontext_t *ucp)
{
    int (*real)(ucontext_t *, const ucontext_t *) =
        (int (*)(ucontext_t *, const ucontext_t *))dlsym(RTLD_NEXT, "swapcontext");
    if (!real) {
        errno = ENOSYS;
        return -1;
    }
    libwrap_context_switch();
    return real(oucp, ucp);
}

LW_CONTEXT_INTERPOSER int setcontext(const ucontext_t *ucp)
{
    int (*real)(const ucontext_t *) = (int (*)(const ucontext_t *))dlsym(RTLD_NEXT, "setcontext");
    if (!real) {
        errno = ENOSYS;
        return -1;
    }
    libwrap_context_switch();
    return real(ucp);
}
