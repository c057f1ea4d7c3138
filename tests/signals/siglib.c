#include "siglib.h"

#include <errno.h>

long sig_add(long a, long b)
{
    return a + b;
}

long sig_tick(long x)
{
    return x * 3 + 1;
}

long sig_tick_nested(long x)
{
    return x ^ 0x55;
}

long sig_tick_alt(long x)
{
    return x + 7;
}

long sig_nest(long a)
{
    return sig_add(a, 1) + sig_add(a, 2);
}

/* Sets errno: a handler that calls it must not change the errno that the
 * interrupted code sees (the handler saves and restores it, as POSIX asks),
 * and the runtime must not either. */
int sig_errno(int e)
{
    errno = e;
    return -1;
}

long sig_spin(long n)
{
    volatile long x = 0;
    for (long i = 0; i < n; i++)
        x += i;
    return x;
}
