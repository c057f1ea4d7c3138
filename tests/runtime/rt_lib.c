/*
 * rt_lib.c - the "library" measured by the runtime tests: the originals
 * that rt_app.c's wrappers (written as the generator writes them) call.
 */
#define _GNU_SOURCE /* clone */
#include "rt_lib.h"

#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int real_lib_add(int a, int b)
{
    return a + b;
}

int real_lib_call(int (*cb)(int), int x)
{
    return cb(x) + 1;
}

int real_lib_recurse(int n)
{
    return n <= 1 ? 1 : 1 + lib_recurse(n - 1);
}

int real_lib_fail(void)
{
    errno = EDOM;
    return -1;
}

int real_lib_exit(int status)
{
    exit(status);
}

int real_lib_crash(int how)
{
    if (how == 1)
        raise(SIGSEGV);
    if (how == 2)
        raise(SIGTERM);
    if (how == 3) { /* a write to a pipe nobody reads: SIGPIPE from the kernel */
        int fd[2];
        if (pipe(fd) == 0 && close(fd[0]) == 0)
            return (int)write(fd[1], "x", 1);
    }
    if (how == 4)
        raise(SIGHUP);
    if (how == 5)
        raise(SIGALRM);
    if (how == 6) { /* a breakpoint the program executes, as GLib's g_error does */
#if defined(__x86_64__)
        __asm__ __volatile__("int3");
#elif defined(__aarch64__)
        __asm__ __volatile__("brk #0xf000");
#else
        raise(SIGTRAP);
#endif
    }
    volatile int *p = (volatile int *)(uintptr_t)how;
    return *p; /* how == 0: a real fault */
}

int real_lib_jump(jmp_buf *env, int value)
{
    longjmp(*env, value);
}

int real_lib_fork(void)
{
    return fork();
}

/* clone(fn) with `flags` on a stack of its own, which stays mapped (in the
 * parent; a child without CLONE_VM has its own copy). */
int real_lib_clone(int flags, int (*fn)(void *))
{
    size_t size = 256 * 1024;
    char *stack =
        mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED)
        return -1;
    return clone(fn, stack + size, flags, NULL);
}
