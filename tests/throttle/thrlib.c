#include "thrlib.h"

long thr_leaf(long x)
{
    /* A little fixed work, so that a call's time is stable. */
    volatile long s = x;
    for (int i = 0; i < 20; i++)
        s = s * 3 + i;
    return s & 0xff;
}

/* A function that makes the call `call` (of `i`) n times through the PLT;
 * each its own `first`, so that no two have the same code for the
 * compiler to fold. */
#define THR_CALLER(name, call, first)                                                              \
    long name(long n)                                                                              \
    {                                                                                              \
        long s = first;                                                                            \
        for (long i = 0; i < n; i++)                                                               \
            s += call;                                                                             \
        return s;                                                                                  \
    }

THR_CALLER(thr_parent, thr_leaf(i), 0)

long thr_other(long x)
{
    return x + 1;
}

long thr_spread(long x)
{
    return x ^ 3;
}

/* Three call paths of thr_spread besides main's. */
THR_CALLER(thr_via1, thr_spread(i), 1)
THR_CALLER(thr_via2, thr_spread(i), 2)
THR_CALLER(thr_via3, thr_spread(i), 3)

long thr_tail(long x)
{
    /* A tail call through the PLT: `jmp thr_leaf@PLT` (throttle.sh checks). */
    return thr_leaf(x ^ 5);
}

long thr_inner(long x)
{
    return x * 7;
}

/* A function that calls thr_inner only when asked to, and one that calls
 * it n times asking: a function with wrapped callees on one call path and
 * none on another. Each its own `first`, as above. */
#define THR_MAYBE(name, via, first)                                                                \
    long name(long x, long call)                                                                   \
    {                                                                                              \
        return call ? thr_inner(x) + first : x + first;                                            \
    }                                                                                              \
    THR_CALLER(via, name(i, 1), first)

THR_MAYBE(thr_maybe, thr_maybe_via, 4)
THR_MAYBE(thr_later, thr_later_via, 5)

long thr_work(long x)
{
    /* A chain of dependent steps, some 1,000 ns natively. */
    volatile long s = x;
    for (int i = 0; i < 400; i++)
        s = s * 3 + i;
    return s & 0xff;
}

/* Each its own constant, so that no two have the same code to fold. */
#define THR_ROT(k)                                                                                 \
    long thr_rot##k(long x)                                                                        \
    {                                                                                              \
        return x + k;                                                                              \
    }                                                                                              \
    long thr_frot##k(long x)                                                                       \
    {                                                                                              \
        return thr_inner(x) + k;                                                                   \
    }
THR_ROT(0)
THR_ROT(1)
THR_ROT(2)
THR_ROT(3)
THR_ROT(4)
THR_ROT(5)
