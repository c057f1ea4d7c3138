/*
 * clone_interpose.c - the interposer of clone() (and of its alias __clone),
 * built into liblibwrap_exec.a beside the exec interposers: a copy in the
 * runtime and in every wrapper shared library, forwarding with
 * dlsym(RTLD_NEXT) (exec_interpose.c says why).
 *
 * A clone() without CLONE_VM makes a new process, as fork() does, but runs
 * no pthread_atfork handler. So the runtime's fork steps run around it
 * (clone.c), and the child's function is wrapped: when it returns, glibc
 * ends the child with the exit system call, without atexit handlers or
 * destructors, and the wrapper writes the child's results first. A clone()
 * with CLONE_VM is forwarded untouched, as vfork() is left alone.
 *
 * Several copies: the first in lookup order prepares; a copy reached
 * through its RTLD_NEXT finds the call prepared (libwrap_clone_prepare
 * returns 0) and forwards it untouched, so the steps run once and the
 * function is wrapped once. clone3() is not exported by glibc (2.36), and
 * its own fork(), posix_spawn() and pthread_create() call clone internally,
 * never through this symbol.
 */
#include "interpose/clone_interpose.h"

#include <dlfcn.h>
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/types.h>

#define LW_CLONE_INTERPOSER __attribute__((weak, visibility("default")))

typedef int (*lw_clone_real)(int (*)(void *), void *, int, void *, ...);

struct lw_clone_start {
    int (*fn)(void *);
    void *arg;
};

/* The child's function. Its argument lives in the parent's frame of
 * lw_clone, which the child has in its own copy of the parent's memory. */
static int lw_clone_start(void *p)
{
    struct lw_clone_start start = *(struct lw_clone_start *)p;
    libwrap_clone_child();
    int r = start.fn(start.arg);
    libwrap_clone_child_return();
    return r;
}

static int lw_clone(const char *name, int (*fn)(void *), void *stack, int flags, void *arg,
                    va_list ap)
{
    /* The optional arguments, read only as far as the flags use them (a
     * caller passes them only then); the others are passed on as NULL. */
    pid_t *ptid = NULL, *ctid = NULL;
    void *tls = NULL;
    const int want_ctid = CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID;
    if (flags & (CLONE_PARENT_SETTID | CLONE_PIDFD | CLONE_SETTLS | want_ctid))
        ptid = va_arg(ap, pid_t *);
    if (flags & (CLONE_SETTLS | want_ctid))
        tls = va_arg(ap, void *);
    if (flags & want_ctid)
        ctid = va_arg(ap, pid_t *);
    lw_clone_real real = (lw_clone_real)dlsym(RTLD_NEXT, name);
    if (!real) {
        errno = ENOSYS;
        return -1;
    }
    /* glibc refuses a NULL function (EINVAL): passed on as it is. */
    if (!fn || !libwrap_clone_prepare(flags))
        return real(fn, stack, flags, arg, ptid, tls, ctid);
    struct lw_clone_start start = {fn, arg};
    int r = real(lw_clone_start, stack, flags, &start, ptid, tls, ctid);
    libwrap_clone_parent();
    return r;
}

LW_CLONE_INTERPOSER int clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    int r = lw_clone("clone", fn, stack, flags, arg, ap);
    va_end(ap);
    return r;
}

int __clone(int (*fn)(void *), void *stack, int flags, void *arg, ...);

LW_CLONE_INTERPOSER int __clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    int r = lw_clone("__clone", fn, stack, flags, arg, ap);
    va_end(ap);
    return r;
}
