#include "thrlib.h"

long thr_leaf(long x)
{
    /* A little fixed work, so that a call's time is stable. */
    volatile long s = x;
    for (int i = 0; i < 20; i++)
        s = s * 3 + i;
    return s & 0xff;
}

long thr_parent(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += thr_leaf(i);
    return s;
}

long thr_other(long x)
{
    return x + 1;
}

long thr_spread(long x)
{
    return x ^ 3;
}

long thr_via1(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += thr_spread(i);
    return s;
}

long thr_via2(long n)
{
    long s = 1;
    for (long i = 0; i < n; i++)
        s += thr_spread(i);
    return s;
}

long thr_via3(long n)
{
    long s = 2;
    for (long i = 0; i < n; i++)
        s += thr_spread(i);
    return s;
}

long thr_tail(long x)
{
    /* A tail call through the PLT: `jmp thr_leaf@PLT` (throttle.sh checks). */
    return thr_leaf(x ^ 5);
}
