/*
 * rt_lib.c - the "library" measured by the runtime tests: the originals
 * that rt_app.c's wrappers (written as the generator writes them) call.
 */
#include "rt_lib.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
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
