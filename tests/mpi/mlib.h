/* mlib.h - the small library the MPI tests wrap: pure functions whose calls
 * the tests count exactly. */
#ifndef MLIB_H
#define MLIB_H

/* One step of a deterministic sequence. */
long mlib_step(long x);
/* n steps from x (inside the library: no mlib_step call). */
long mlib_chain(long x, int n);
/* A string and a number, for the recorded arguments of a job
 * (LIBWRAP_ARGUMENTS): strlen(name) + n. */
long mlib_tag(const char *name, long n);

#endif
