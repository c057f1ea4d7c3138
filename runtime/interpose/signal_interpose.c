/*
 * signal_interpose.c - interposers of the functions that install signal
 * handlers (sigaction, signal, bsd_signal, ssignal, sysv_signal, sigset)
 * and of those that leave a handler by a jump (longjmp, _longjmp,
 * siglongjmp, __longjmp_chk), built into liblibwrap_exec.a beside the exec
 * interposers and linked the same way (exec_interpose.c says why: a copy in
 * the runtime and in every wrapper shared library, the first in lookup order
 * is called, definitions weak).
 *
 * sigaction goes to the runtime (libwrap_sigaction), which installs the
 * program's handler behind its dispatcher. The others keep libc's own
 * semantics (BSD or System V flags, siginterrupt, SIG_HOLD): libc installs
 * the handler, then the runtime runs it through the dispatcher with the
 * same flags and mask (libwrap_signal_adopt). Several copies loaded: a
 * later copy reached by RTLD_NEXT finds the dispatcher installed already
 * and changes nothing.
 */
#include "interpose/signal_interpose.h"

#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <stddef.h>

#define LW_SIG_INTERPOSER __attribute__((weak, visibility("default")))

typedef void (*lw_sighandler)(int);
typedef lw_sighandler (*lw_signal_fn)(int, lw_sighandler);
typedef void (*lw_jump_fn)(void *, int);

enum { LW_SIGNAL, LW_BSD_SIGNAL, LW_SSIGNAL, LW_SYSV_SIGNAL, LW_SYSV_SIGNAL_, LW_SIGSET, LW_NSETTERS };
static const char *const lw_setter_names[LW_NSETTERS] = {"signal",      "bsd_signal",    "ssignal",
                                                         "sysv_signal", "__sysv_signal", "sigset"};
enum { LW_LONGJMP, LW_LONGJMP_, LW_SIGLONGJMP, LW_LONGJMP_CHK, LW_NJUMPS };
static const char *const lw_jump_names[LW_NJUMPS] = {"longjmp", "_longjmp", "siglongjmp",
                                                     "__longjmp_chk"};

static void *lw_setters[LW_NSETTERS];
static void *lw_jumps[LW_NJUMPS];

/* Resolved at load: a jump may be made from a signal handler, where dlsym
 * must not run. Looked up again only if a call comes first. */
/* In the runtime's resolving bracket: the allocations dlsym makes are not
 * the program's calls (a wrapper of malloc counted them). */
__attribute__((constructor)) static void lw_signal_interpose_init(void)
{
    libwrap_resolve_begin();
    for (int i = 0; i < LW_NJUMPS; i++)
        __atomic_store_n(&lw_jumps[i], dlsym(RTLD_NEXT, lw_jump_names[i]), __ATOMIC_RELAXED);
    libwrap_resolve_end();
}

static void *lw_next(void **cache, const char *name)
{
    void *p = __atomic_load_n(cache, __ATOMIC_RELAXED);
    if (!p) {
        libwrap_resolve_begin();
        p = dlsym(RTLD_NEXT, name);
        libwrap_resolve_end();
        __atomic_store_n(cache, p, __ATOMIC_RELAXED);
    }
    return p;
}

LW_SIG_INTERPOSER int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    return libwrap_sigaction(sig, act, old);
}

static lw_sighandler lw_set(int which, int sig, lw_sighandler h)
{
    lw_signal_fn real = (lw_signal_fn)lw_next(&lw_setters[which], lw_setter_names[which]);
    if (!real) {
        errno = ENOSYS;
        return SIG_ERR;
    }
    lw_sighandler prev = real(sig, h);
    if (prev == SIG_ERR)
        return prev;
    return (lw_sighandler)libwrap_signal_adopt(sig, (void *)prev);
}

LW_SIG_INTERPOSER lw_sighandler signal(int sig, lw_sighandler h)
{
    return lw_set(LW_SIGNAL, sig, h);
}

LW_SIG_INTERPOSER lw_sighandler bsd_signal(int sig, lw_sighandler h)
{
    return lw_set(LW_BSD_SIGNAL, sig, h);
}

LW_SIG_INTERPOSER lw_sighandler ssignal(int sig, lw_sighandler h)
{
    return lw_set(LW_SSIGNAL, sig, h);
}

LW_SIG_INTERPOSER lw_sighandler sysv_signal(int sig, lw_sighandler h)
{
    return lw_set(LW_SYSV_SIGNAL, sig, h);
}

LW_SIG_INTERPOSER lw_sighandler __sysv_signal(int sig, lw_sighandler h)
{
    return lw_set(LW_SYSV_SIGNAL_, sig, h);
}

LW_SIG_INTERPOSER lw_sighandler sigset(int sig, lw_sighandler h)
{
    return lw_set(LW_SIGSET, sig, h);
}

/* The jumps: tell the runtime, then jump with libc's. */
static __attribute__((noreturn)) void lw_jump(int which, void *env, int val)
{
    libwrap_signal_leave();
    lw_jump_fn real = (lw_jump_fn)lw_next(&lw_jumps[which], lw_jump_names[which]);
    if (!real)
        real = (lw_jump_fn)lw_next(&lw_jumps[LW_LONGJMP], lw_jump_names[LW_LONGJMP]);
    real(env, val);
    __builtin_unreachable();
}

LW_SIG_INTERPOSER void longjmp(struct __jmp_buf_tag env[1], int val)
{
    lw_jump(LW_LONGJMP, env, val);
}

LW_SIG_INTERPOSER void _longjmp(struct __jmp_buf_tag env[1], int val)
{
    lw_jump(LW_LONGJMP_, env, val);
}

LW_SIG_INTERPOSER void siglongjmp(struct __jmp_buf_tag env[1], int val)
{
    lw_jump(LW_SIGLONGJMP, env, val);
}

LW_SIG_INTERPOSER void __longjmp_chk(struct __jmp_buf_tag env[1], int val)
{
    lw_jump(LW_LONGJMP_CHK, env, val);
}
