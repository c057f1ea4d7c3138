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
/* Of a group archive: its strings below this number are the job's. */
#define LW_PROP_UNION_STRINGS "LIBWRAP::UNION_STRINGS"
/* In DIR, of a job of groups (hidden): what the group archives' events refer
 * to, under the job's numbers (lw_trace_merge_group). */
#define LW_TRACE_UNION ".traces-union"

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

/*
 * A job of groups (DIR/ranks/G/, job_layout.h) merges as a tree. The
 * process that completes group `g` merges its parts into the group's own
 * archive, DIR/ranks/G/traces.otf2, numbered as the job's: under the lock
 * of DIR/.traces-union (fcntl), the group's regions, metrics,
 * parameters and strings join the job's union and its locations take the
 * next job-wide numbers; then its event and local definition files take
 * one more name each in DIR/traces/. The process that completes the job
 * only writes the job's anchor and global definitions
 * (lw_trace_merge_groups), out of the union and the group archives'
 * locations: a few files per group, none per rank.
 *
 * lw_trace_merge_group: 0 when merged (*nparts: the group's parts), 1 when
 * the group has no trace part, -1 on error (message in `err`).
 * lw_trace_merge_groups: 0 when merged (*nparts: the job's parts), 1 when
 * the job cannot be merged from its groups (no union, or a group with
 * trace parts but no archive: lw_trace_merge_job merges it from the
 * parts), -1 on error.
 */
int lw_trace_merge_group(const char *dir, long g, size_t *nparts, char *err, size_t errlen);
int lw_trace_merge_groups(const char *dir, size_t *nparts, char *err, size_t errlen);

#endif /* LIBWRAP_OTF2_MERGE_H */
