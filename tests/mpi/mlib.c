/* mlib.c - the library of mlib.h, built as libmlib.so by the tests.
 * mlib_chain steps through the internal function, never through the
 * exported one: the wrappers count mlib_step calls of the program only,
 * in both modes (LD_PRELOAD would also catch the library's own calls
 * through its PLT). */
#include "mlib.h"

static long step(long x)
{
    return (x * 1103515245 + 12345) % 2147483648L;
}

long mlib_step(long x)
{
    return step(x);
}

long mlib_chain(long x, int n)
{
    for (int i = 0; i < n; i++)
        x = step(x);
    return x;
}

long mlib_tag(const char *name, long n)
{
    long len = 0;
    while (name[len])
        len++;
    return len + n;
}
