/*
 * jobs.h - jobs of many processes (jobs/README.md): the job (job.c), the
 * experiment directory (directory.c), MPI (mpi.c), the job's reduced
 * profile (profile_reduce.c). The job's identity, read by the core, is
 * lw_job_info (core/base/base.h).
 */
#ifndef LIBWRAP_RUNTIME_JOBS_H
#define LIBWRAP_RUNTIME_JOBS_H

#include "core/measure/measure.h"

/* Internal to the runtime's shared object: hidden, so that -fPIC code
 * reaches it directly instead of through the GOT. */
#pragma GCC visibility push(hidden)

/* ---- job.c ------------------------------------------------------------- */

/* The name of a launcher or launcher daemon (mpirun, mpiexec, orterun,
 * prterun, prted, orted, mpiexec.hydra, hydra_pmi_proxy, srun, slurmstepd)
 * if this process is one, by its program name or its executable; NULL if
 * not. Such a process is not measured unless LIBWRAP_MEASURE_LAUNCHER. */
const char *lw_job_launcher_program(void);

/* Reads the launcher's environment (before the settings: messages carry
 * the rank from the start). Logs what it found once the settings are read
 * (lw_job_log). */
void lw_job_init(void);
/* 1 while the job's name may change at MPI_Init: a job its launcher named
 * for this node only, not yet named by MPI (plugin.h, directory_pending). */
int lw_job_name_pending(void);
void lw_job_log(void);
/* MPI_Init told the rank and size (mpi.c); `id0`, `key0` name the job as
 * rank 0 saw it (NULL when MPI could not tell). */
void lw_job_from_mpi(long rank, long size, const char *id0, const char *key0);
/* Claims or joins the job directory; lock 3 held. Returns it or NULL. */
const char *lw_job_claim_dir(const char *explicit_dir);
/* This rank's part in the job directory `job` (malloc'ed): job/rank-N, or
 * in a job of more ranks than a group, job/ranks/G/rank-N. */
char *lw_job_part_base(const char *job);
/* Creates `base` (or base.N) and claims it by creating config.txt in it. */
char *lw_dir_claim(const char *base);
/* A rank is done and its part is written into `part_dir`: counts it in
 * <job dir>/finished.txt; the last rank merges the job's trace.
 * `in_signal`: ending by a fatal signal, merging is left to the report. */
void lw_job_finished(int in_signal);
/* The rank's profile into the job's records file (job_reduce.c): instead
 * of a part without one (0, or -1: then it writes its part), or beside
 * its part with parts on. */
int lw_job_add_records(void);
/* In a fork child. */
void lw_job_after_fork_child(void);
/* Adds the clock's (ticks, ns) points of [tick0, tick_end] for the trace. */
void lw_job_clock_points(uint64_t tick0, uint64_t tick_end);
/* MPI measured this process's monotonic clock against rank 0's at `mono`
 * (ns): rank 0's monotonic clock read mono + offset; rank 0's realtime is
 * its monotonic clock + delta0. */
void lw_job_clock_sample(uint64_t mono, int64_t offset, int64_t delta0);

/* ---- directory.c: the experiment directory, claimed in one place ------ */

/* Reads LIBWRAP_EXPERIMENT_DIRECTORY (settings loaded, job known). */
void lw_dir_init(void);
/* The default name of a result directory, libwrap-DATE_PID (SPEC), of
 * the real date. */
void lw_default_name(char *name, size_t size);
/* The experiment directory of this process, created and claimed on first
 * use (config.txt written by lw_hook->config_txt); NULL on error. In a job
 * it is <job dir>/rank-N. */
const char *lw_experiment_dir(void);
const char *lw_experiment_dir_claimed(void); /* NULL until claimed */
/* What an exec'd image is given as LIBWRAP_EXPERIMENT_DIRECTORY: the job
 * directory in a job, else the directory just written; NULL if none. */
const char *lw_experiment_dir_for_exec(void);
/* The directory claimed, or else the name this process would claim. */
const char *lw_experiment_dir_base(void);
/* The job's directory, claimed or joined now (a rank writing the job's
 * reduced profile); NULL if it cannot be had. */
const char *lw_job_directory(void);
/* Lock 3 of the order at lw_thread_registry_lock, held across fork(). */
void lw_dir_lock(void);
void lw_dir_unlock(void);
/* In a fork child (lock 3 was held): its own fork-PID directory. */
void lw_dir_after_fork_child(void);

/* ---- profile_reduce.c ------------------------------------------------- */

/*
 * The job's profile, reduced over the ranks (profile_reduce.c; mpi.c moves
 * the bytes): a rank's call paths and functions keyed by symbol, with sums,
 * per-rank extremes and the lowest rank lacking each, for a contiguous
 * range of ranks. Merging the next range's serialised tree extends the
 * range; the first rank of the job writes the result.
 */
typedef struct lw_rtree lw_rtree;
/* The first four bytes of a packed tree. */
#define LW_RT_MAGIC 0x4c575254u /* "LWRT" */
/* This rank's own profile as a tree of the job (threads stopped or not);
 * *visits: the calls it holds. */
lw_rtree *lw_rtree_local(long rank, uint64_t *visits);
/* The tree as bytes (malloc'ed) for the next rank up the reduction. */
int lw_rtree_pack(const lw_rtree *t, char **buf, size_t *len);
/* Adds the next range's packed tree; 0, or -1 if it is not one. */
int lw_rtree_merge(lw_rtree *t, const char *buf, size_t len);
/* The ranks [first, end) sent nothing readable: they count as lacking
 * every path, and the job's profile says they are missing. */
void lw_rtree_lost(lw_rtree *t, int64_t first, int64_t end);
/* The total visits of this process's own trees now (registry lock held). */
uint64_t lw_rtree_visits_now(void);
/* profile.json and profile.txt of the job of `size` ranks into `dir`. */
int lw_rtree_write(lw_rtree *t, const char *dir, long size);
void lw_rtree_free(lw_rtree *t);
/* A tree of no rank yet, to merge the ranks from `first` on into. */
lw_rtree *lw_rtree_empty(long first);
/* lw_rtree_merge of a range that may come after a gap (counted missing):
 * 0 merged, 1 left out (it holds ranks merged already), -1 unreadable. */
int lw_rtree_merge_at(lw_rtree *t, const char *buf, size_t len);
/* The ranks from the tree's end to `end` count as missing. */
void lw_rtree_end_at(lw_rtree *t, int64_t end);

/*
 * The job's profile through files (job_reduce.c), for a job that did not
 * reduce over MPI with LIBWRAP_JOB_PARTS=false: each rank appends its
 * packed tree to a records file with one write, and the process that
 * completes a group or the job reduces that file, record by record in
 * rank order (job.c).
 */
/* Appends `t`, of the ranks [first, end), to the records file `path`. */
int lw_job_records_add(const char *path, const lw_rtree *t, long first, long end);
/* The records of `path` reduced into one tree of the ranks [first, end),
 * ranks without a record counted as missing; NULL without memory. */
lw_rtree *lw_job_records_reduce(const char *path, long first, long end);

#pragma GCC visibility pop

#endif /* LIBWRAP_RUNTIME_JOBS_H */
