/* siglib.h - the wrapped library of the signal tests (signals.sh). */
#ifndef SIGLIB_H
#define SIGLIB_H

/* sig_add: what the interrupted code calls; sig_tick*: what the signal
 * handlers call; sig_nest calls sig_add through the PLT (a wrapped call
 * inside a wrapped call under LD_PRELOAD). */
long sig_add(long a, long b);
long sig_tick(long x);
long sig_tick_nested(long x);
long sig_tick_alt(long x);
long sig_nest(long a);
int sig_errno(int e);
/* sig_spin: about the same time at every call (signals.sh's window). */
long sig_spin(long n);

#endif
