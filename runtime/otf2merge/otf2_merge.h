/*
 * otf2_merge.h - one OTF2 archive for a job of many processes.
 *
 * Each rank of a job writes its own archive into its part of the job
 * directory (<dir>/rank-N/traces.otf2, otf2_writer.c), with the properties
 * below in its anchor file. The merge makes <dir>/traces.otf2 out of them
 * without copying an event: event files do not name their location, so
 * each rank's traces/T.evt is hard-linked as <dir>/traces/L.evt under a new,
 * job-wide location number L; the new global definitions hold the union of
 * the ranks' regions, strings and metrics, a location group per rank and a
 * location per thread; each location's local definitions map the rank's
 * region and metric numbers to the global ones (OTF2 mapping tables) and
 * its ticks to the job's clock (OTF2 clock offsets, linear between points).
 * OTF2 readers (otf2-print, Vampir, libwrap-report) apply both.
 *
 * Built into the runtime (the last rank of a job merges) and into
 * libwrap-report (which merges what a job left unmerged).
 */
#ifndef LIBWRAP_OTF2_MERGE_H
#define LIBWRAP_OTF2_MERGE_H

#include <stddef.h>

/* Properties of a rank's archive (OTF2_Archive_SetProperty). */
#define LW_PROP_RANK "LIBWRAP::RANK"
#define LW_PROP_SIZE "LIBWRAP::SIZE"
#define LW_PROP_PID "LIBWRAP::PID"
#define LW_PROP_HOST "LIBWRAP::HOST"
/* "TICKS:NS TICKS:NS ...": ticks to ns since the Unix epoch on the job's clock. */
#define LW_PROP_TIME "LIBWRAP::TIME_POINTS"
/* Of the merged archive: how many parts, and a digest of which. */
#define LW_PROP_PARTS "LIBWRAP::PARTS"
#define LW_PROP_PARTS_DIGEST "LIBWRAP::PARTS_DIGEST"

/*
 * Merges the trace parts found in the job directory `dir` (its rank-N and
 * rank-N.K subdirectories holding traces.otf2) into `dir`/traces.otf2,
 * traces.def and traces/; the parts stay readable on their own. A merged
 * archive made from other parts (a process finished after it) is made
 * again. Returns 0 when merged (*nparts: how many parts), 2 when the merged
 * archive is up to date, 1 when there is no part, -1 on error with a
 * message in `err` (nothing is left half-written). Not thread-safe; one
 * merge per directory at a time (<dir>/.merging).
 */
int lw_trace_merge_job(const char *dir, size_t *nparts, char *err, size_t errlen);

#endif /* LIBWRAP_OTF2_MERGE_H */
