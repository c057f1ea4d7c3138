/* thrapp.c - calls a tiny function 300,000 times directly, 300,000
 * times inside another wrapped function and 200,000 times as the tail call
 * of a third; another tiny one 8,192 times on each of four call paths:
 * directly, and inside three other wrapped functions; and two that call a
 * wrapped function on one call path and not on another; and one of some
 * 1,000 ns 8,192 times; and twelve in turn, 10,000 times each, six tiny
 * and six that call a wrapped one (throttle.sh). */
#include "thrlib.h"

#include <stdio.h>

int main(void)
{
    long s = 0;
    for (long i = 0; i < 300000; i++)
        s += thr_leaf(i);
    for (int k = 0; k < 300; k++)
        s += thr_parent(1000);
    for (long i = 0; i < 200000; i++)
        s += thr_tail(i);
    for (int k = 0; k < 5; k++)
        s += thr_other(k);
    for (long i = 0; i < 8192; i++)
        s += thr_spread(i);
    s += thr_via1(8192) + thr_via2(8192) + thr_via3(8192);
    /* A function with wrapped callees on one call path (4,000 calls, no
     * throttle check yet) and none on another, where it is checked and
     * throttled; then on the first path again. */
    s += thr_maybe_via(4000);
    for (long i = 0; i < 8192; i++)
        s += thr_maybe(i, 0);
    s += thr_maybe_via(4000);
    /* One throttled before any call of it has had a callee, then called
     * on a path where every call has one. */
    for (long i = 0; i < 8192; i++)
        s += thr_later(i, 0);
    s += thr_later_via(8192);
    /* Long enough a call for its mean to tell ns from ticks. */
    for (long i = 0; i < 8192; i++)
        s += thr_work(i);
    /* Twelve children of main's call path in turn, 10,000 calls each:
     * never among the four it keeps at hand. */
    long (*const rot[12])(long) = {thr_rot0,  thr_rot1,  thr_rot2,  thr_rot3,  thr_rot4,  thr_rot5,
                                   thr_frot0, thr_frot1, thr_frot2, thr_frot3, thr_frot4, thr_frot5};
    for (long i = 0; i < 120000; i++)
        s += rot[i % 12](i);
    printf("%ld\n", s);
    return 0;
}
