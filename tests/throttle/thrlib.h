/* thrlib.h - the wrapped library of the throttling test (throttle.sh). */
#ifndef THRLIB_H
#define THRLIB_H
long thr_leaf(long x);       /* tiny: throttled */
long thr_parent(long n);     /* calls thr_leaf n times through the PLT */
long thr_other(long x);      /* called a few times: never throttled */
long thr_tail(long x);       /* ends in a tail call of thr_leaf */
long thr_spread(long x);     /* tiny, called on four call paths: */
long thr_via1(long n);       /* calls thr_spread n times through the PLT */
long thr_via2(long n);       /* likewise */
long thr_via3(long n);       /* likewise */
#endif
