/* rr.h - a small library with a recursive function, for real_run.sh. */
#ifndef RR_H
#define RR_H

/* Calls itself `depth` times through the library's exported symbol, so that
 * a wrapper preloaded before the library measures every level; the
 * innermost call spins `leaf_ns` nanoseconds and touches `leaf_kib` KiB of
 * fresh memory. Returns the number of calls (depth + 1). */
int rr_walk(int depth, long leaf_ns, int leaf_kib);

#endif
