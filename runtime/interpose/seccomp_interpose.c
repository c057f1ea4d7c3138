/*
 * seccomp_interpose.c - the interposers of prctl() and syscall(), built
 * into liblibwrap_exec.a beside the exec interposers: a copy in the
 * runtime and in every wrapper shared library, forwarding with
 * dlsym(RTLD_NEXT) (exec_interpose.c says why).
 *
 * A program that sandboxes itself (sshd's privilege-separated child,
 * bwrap, tor's Sandbox, anything built on libseccomp, whose seccomp_load
 * calls syscall(SYS_seccomp, ...)) installs a seccomp filter through one
 * of the two: the runtime ends measurement first
 * (seccomp_interpose.h). Every other call is passed on as it is. glibc
 * (2.36) has no seccomp() function; a program that makes the system call
 * itself, in assembly, is not seen.
 *
 * Several copies: each that sees the call tells the runtime, which acts
 * once.
 */
#include "interpose/seccomp_interpose.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#define LW_SECCOMP_INTERPOSER __attribute__((weak, visibility("default")))

/* <linux/seccomp.h>'s values, which are part of the kernel's ABI. */
#define LW_SECCOMP_MODE_STRICT 1     /* prctl(PR_SET_SECCOMP, mode) */
#define LW_SECCOMP_MODE_FILTER 2
#define LW_SECCOMP_SET_MODE_STRICT 0 /* seccomp(operation, ...) */
#define LW_SECCOMP_SET_MODE_FILTER 1

/* The next definition of `name`, found once (a pointer store is atomic). */
static void *lw_next(void **slot, const char *name)
{
    void *p = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (!p) {
        int saved = errno;
        p = dlsym(RTLD_NEXT, name);
        errno = saved;
        __atomic_store_n(slot, p, __ATOMIC_RELEASE);
    }
    return p;
}

typedef int (*lw_prctl_fn)(int, unsigned long, unsigned long, unsigned long, unsigned long);
static void *lw_prctl_next;

/* glibc's prctl takes the option and four unsigned longs (a caller
 * passes fewer where the option uses fewer: the others are read from the
 * registers and passed on unused, as glibc's own does). */
LW_SECCOMP_INTERPOSER int prctl(int option, ...)
{
    va_list ap;
    va_start(ap, option);
    unsigned long a2 = va_arg(ap, unsigned long), a3 = va_arg(ap, unsigned long);
    unsigned long a4 = va_arg(ap, unsigned long), a5 = va_arg(ap, unsigned long);
    va_end(ap);
    if (option == PR_SET_SECCOMP && (a2 == LW_SECCOMP_MODE_STRICT || a2 == LW_SECCOMP_MODE_FILTER))
        libwrap_seccomp_prepare();
    lw_prctl_fn next = (lw_prctl_fn)lw_next(&lw_prctl_next, "prctl");
    if (!next) {
        errno = ENOSYS;
        return -1;
    }
    return next(option, a2, a3, a4, a5);
}

typedef long (*lw_syscall_fn)(long, long, long, long, long, long, long);
static void *lw_syscall_next;

/* glibc's syscall takes the number and six longs, likewise. */
LW_SECCOMP_INTERPOSER long syscall(long number, ...)
{
    va_list ap;
    va_start(ap, number);
    long a1 = va_arg(ap, long), a2 = va_arg(ap, long), a3 = va_arg(ap, long);
    long a4 = va_arg(ap, long), a5 = va_arg(ap, long), a6 = va_arg(ap, long);
    va_end(ap);
#ifdef SYS_seccomp
    if (number == SYS_seccomp && (a1 == LW_SECCOMP_SET_MODE_STRICT || a1 == LW_SECCOMP_SET_MODE_FILTER))
        libwrap_seccomp_prepare();
#endif
    lw_syscall_fn next = (lw_syscall_fn)lw_next(&lw_syscall_next, "syscall");
    if (!next) {
        errno = ENOSYS;
        return -1;
    }
    return next(number, a1, a2, a3, a4, a5, a6);
}
