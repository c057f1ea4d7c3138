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
long thr_inner(long x);      /* tiny, called by the two below */
long thr_maybe(long x, long call); /* calls thr_inner when `call` is not 0 */
long thr_maybe_via(long n);  /* calls thr_maybe(i, 1) n times */
long thr_later(long x, long call); /* the same as thr_maybe */
long thr_later_via(long n);  /* calls thr_later(i, 1) n times */
long thr_work(long x);       /* some 1,000 ns of work: its mean in ns */
/* Called in turn from main, more children of its call path than the four
 * it keeps at hand: six tiny ones, and six that call thr_inner. */
long thr_rot0(long x);
long thr_rot1(long x);
long thr_rot2(long x);
long thr_rot3(long x);
long thr_rot4(long x);
long thr_rot5(long x);
long thr_frot0(long x);
long thr_frot1(long x);
long thr_frot2(long x);
long thr_frot3(long x);
long thr_frot4(long x);
long thr_frot5(long x);
#endif
