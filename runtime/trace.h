/*
 * trace.h - the OTF2 trace writer (LIBWRAP_ENABLE_TRACING=true).
 *
 * The core calls these; otf2_writer.c implements them with the OTF2 library:
 * one event writer per thread (location), global definitions written at the
 * end by the finalising thread. Timestamps are raw timer ticks; the clock
 * properties passed at finalisation map them to time.
 */
#ifndef LIBWRAP_RUNTIME_TRACE_H
#define LIBWRAP_RUNTIME_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "libwrap/libwrap.h"
#include "libwrap/plugin.h"

typedef struct lw_trace_thread lw_trace_thread;

/* Opens the archive <dir>/traces.otf2 (+ traces/, traces.def). `budget` is
 * LIBWRAP_TOTAL_MEMORY in bytes. Returns 0, or -1 after one warning (tracing
 * is then off). */
int lw_trace_init(const char *dir, size_t budget, size_t nmetrics);

/* Per thread: `tid` is the runtime's dense thread number (0 = main). */
lw_trace_thread *lw_trace_thread_begin(uint32_t tid);
void lw_trace_enter(lw_trace_thread *t, int32_t region, uint64_t ticks, const uint64_t *metrics);
void lw_trace_leave(lw_trace_thread *t, int32_t region, uint64_t ticks, const uint64_t *metrics);
void lw_trace_thread_end(lw_trace_thread *t);

/* One recorded argument of the call of `region` the thread is in, as an
 * OTF2 parameter event at `ticks` (between its Enter and Leave): integers
 * and enums as ParameterInt, unsigned integers as ParameterUnsignedInt,
 * strings (and floating-point values, written as text) as ParameterString.
 * The parameter definitions are written by lw_trace_finalize. */
void lw_trace_argument(lw_trace_thread *t, int32_t region, uint64_t ticks, const libwrap_argument *a);

/*
 * The process the archive belongs to, when it is a rank of a job (never
 * called: a lone process, "process PID"). Written into the anchor file as
 * properties (otf2_merge.h), so that the job's parts can be merged into one
 * archive: rank, size, host, and the map from ticks to ns on the job's
 * clock, linear between `npoints` (ticks, ns) points. Call before
 * lw_trace_finalize.
 */
typedef struct lw_trace_process {
    long rank, size;
    const char *host;
    size_t npoints;
    const uint64_t *point_ticks, *point_ns;
} lw_trace_process;
void lw_trace_set_process(const lw_trace_process *p);

/* Writes definitions and closes the archive. `regions[i]` is region id i+1.
 * Ticks map to ns as ns = (ticks - tick0) * ns_per_tick; `resolution` is
 * ticks per second. Returns the number of events written; lost events (none
 * unless the disk fails) are reported on stderr. */
uint64_t lw_trace_finalize(const libwrap_region *const *regions, size_t nregions,
                           uint64_t tick0, uint64_t tick_end, uint64_t resolution,
                           uint64_t epoch_ns);

#endif /* LIBWRAP_RUNTIME_TRACE_H */
