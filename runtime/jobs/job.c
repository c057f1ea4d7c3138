/*
 * job.c - jobs of many processes: which rank this process is, the one
 * experiment directory of the job, and the end of the job.
 *
 * A launcher tells each process its rank in the environment (Open MPI:
 * OMPI_COMM_WORLD_RANK; MPICH's Hydra and srun --mpi=pmi2: PMI_RANK; PMIx:
 * PMIX_RANK; Slurm: SLURM_PROCID), and mostly also the job's size and an id
 * that every process of the job sees. MPI itself tells rank and size at
 * MPI_Init (mpi.c) when the environment did not.
 *
 * Layout (docs/mpi.md): every process of a job writes into the same job
 * directory, <dir>/rank-N/ being its own part (profile, config, its trace
 * until merged). The job directory is claimed like any experiment
 * directory, by creating <dir>/config.txt, here atomically with link(2) and
 * a JOB_KEY= line: the other ranks find their key there and join; a
 * directory holding another job's or another program's results is skipped
 * for <dir>.1, <dir>.2, ... as for a lone process. Nothing is created before
 * a process has measured something, so launchers, shells and daemons that
 * inherit LD_PRELOAD leave nothing behind.
 *
 * The end: every rank that wrote a part appends one fixed-size record to
 * <dir>/finished.txt with O_APPEND; the rank whose record brings the count
 * to the job's size is the last one and merges the ranks' traces into one
 * archive (otf2_merge.c); a process that finishes later still (a rank that
 * ran several measured programs) merges again. A rank that died, or
 * measured nothing in a job that did not use MPI, leaves the count short:
 * libwrap-report merges then.
 *
 * Large jobs: a job of more ranks than a group (LIBWRAP_JOB_GROUP_SIZE,
 * default 1000) keeps the parts of ranks G*size .. (G+1)*size-1 in
 * <dir>/ranks/G/ (G in three digits or more), so that no directory holds
 * more than a group's parts, and counts in two steps: each rank appends
 * to its group's ranks/G/finished.txt, the rank that completes its group
 * appends one record for the group to <dir>/finished.txt, and the one
 * that completes the groups is the last. No file takes more than a
 * group's appends.
 */
#include "jobs/jobs.h"
#include "core/measure/hooks.h"
#include "core/base/json.h"
#include "job_layout.h"
#include "owner.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


/* One finished.txt record: "rank %10ld pid %10ld\n", or for a group of
 * ranks "group %9ld pid %10ld\n". */
#define LW_FINISHED_RECORD 31

static char *lw_env_dup(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? strdup(v) : NULL;
}

static int lw_job_grouped(void)
{
    return lw_job_info.size > lw_job_group_size();
}

/* A file's first line, without the newline; NULL if unreadable. */
static int lw_read_line(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return -1;
    int ok = fgets(buf, (int)size, f) != NULL;
    fclose(f);
    if (!ok)
        return -1;
    buf[strcspn(buf, "\n")] = 0;
    return 0;
}

/* The parent and start time (clock ticks since boot) of process `pid`. */
static int lw_proc_stat(long pid, long *ppid, unsigned long long *start)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    /* The command name may hold spaces and parentheses: fields follow the last ')'. */
    char *p = strrchr(buf, ')');
    if (!p)
        return -1;
    char state;
    return sscanf(
               p + 1,
               " %c %ld %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu",
               &state, ppid, start) == 3
               ? 0
               : -1;
}

/* Whether process `pid`'s environment holds `name`=... (only readable for
 * our own processes; an unreadable one counts as not). */
static int lw_proc_has_env(long pid, const char *name)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/environ", pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return 0;
    size_t len = strlen(name);
    int found = 0, c, pos = 0, match = 1;
    while (!found && (c = getc(f)) != EOF) {
        if (c == 0) {
            pos = 0;
            match = 1;
            continue;
        }
        if (match && (size_t)pos < len)
            match = c == name[pos];
        else if (match && (size_t)pos == len)
            found = c == '=';
        pos++;
    }
    fclose(f);
    return found;
}

/*
 * PMI without a job id (MPICH's Hydra): the nearest ancestor that is not a
 * rank itself is the launcher's proxy on this node, shared by the ranks
 * here even through wrapper scripts (mpiexec sh -c ./app). The key holds
 * its PID and start time, so it is unique on this boot of this node.
 */
static void lw_pmi_local_identity(lw_job *j)
{
    long pid = getppid(), ppid;
    unsigned long long start = 0;
    for (int hops = 0; hops < 32 && pid > 1 && lw_proc_has_env(pid, "PMI_RANK"); hops++) {
        if (lw_proc_stat(pid, &ppid, &start) < 0)
            break;
        pid = ppid;
    }
    if (lw_proc_stat(pid, &ppid, &start) < 0)
        start = 0;
    if (asprintf(&j->id, "%ld", pid) < 0)
        j->id = NULL;
    if (asprintf(&j->key, "pmi:%s:%ld:%llu", j->boot_id, pid, start) < 0)
        j->key = NULL;
}

/*
 * Launchers and their daemons inherit LD_PRELOAD when a job script exports
 * it, and may well call the wrapped library themselves (Open MPI's mpirun
 * reads its topology through zlib's gzopen). Measured, such a process
 * would be a lone process and take the directory the user named before
 * the job's ranks could. They are known by name: the program's own
 * (argv[0], as Debian's mpirun.openmpi or mpiexec.mpich) or its
 * executable's (/proc/self/exe: mpirun.openmpi is orterun, mpiexec.mpich
 * is mpiexec.hydra).
 */
static const char *lw_launcher_match(const char *name)
{
    static const char *const names[] = {"mpirun",  "mpiexec",         "orterun",
                                        "prterun", "prted",           "orted",
                                        "srun",    "hydra_pmi_proxy", "slurmstepd"};
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        size_t n = strlen(names[i]);
        /* mpiexec.hydra, mpirun.openmpi, mpiexec.mpich: a suffix after a dot */
        if (strncmp(base, names[i], n) == 0 && (base[n] == 0 || base[n] == '.'))
            return names[i];
    }
    return NULL;
}

const char *lw_job_launcher_program(void)
{
    static int done;
    static const char *found;
    if (done)
        return found;
    done = 1;
    found = lw_launcher_match(program_invocation_name);
    if (!found) {
        char exe[4096];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n > 0) {
            exe[n] = 0;
            found = lw_launcher_match(exe);
        }
    }
    return found;
}

static void lw_job_set_who(void)
{
    char who[64] = "";
    lw_job *j = &lw_job_info;
    if (j->active && j->forked)
        snprintf(who, sizeof who, "rank %ld (pid %ld): ", j->rank, (long)getpid());
    else if (j->active)
        snprintf(who, sizeof who, "rank %ld: ", j->rank);
    lw_message_who(who);
}

void lw_job_init(void)
{
    lw_job *j = &lw_job_info;
    long rank = -1, size = -1;

    if (gethostname(j->host, sizeof j->host - 1) < 0)
        snprintf(j->host, sizeof j->host, "localhost");
    if (lw_read_line("/proc/sys/kernel/random/boot_id", j->boot_id, sizeof j->boot_id) < 0)
        j->boot_id[0] = 0;

    /* A launcher is never a rank, though it may run inside a job of
     * another launcher (Hydra's proxies under srun see its SLURM_*). */
    j->launcher_program = lw_job_launcher_program();
    if (j->launcher_program) {
        lw_job_set_who();
        return;
    }
    /* The order matters where launchers nest: Open MPI's mpirun or Hydra
     * inside a Slurm allocation leave SLURM_* variables of their own step
     * in the ranks' environment. */
    if ((rank = lw_env_long("OMPI_COMM_WORLD_RANK")) >= 0) {
        j->launcher = "Open MPI";
        size = lw_env_long("OMPI_COMM_WORLD_SIZE");
        j->id = lw_env_dup("OMPI_MCA_ess_base_jobid");
        if (!j->id)
            j->id = lw_env_dup("PMIX_NAMESPACE");
        /* Job ids repeat across runs (a hash of mpirun's PID); the URI of
         * mpirun, with its ports, does not. */
        const char *uri = getenv("OMPI_MCA_orte_hnp_uri");
        if (j->id && asprintf(&j->key, "ompi:%s:%s", j->id, uri ? uri : "") < 0)
            j->key = NULL;
        j->mpmd = lw_env_long("OMPI_NUM_APP_CTX") > 1;
    } else if ((rank = lw_env_long("PMI_RANK")) >= 0) {
        j->launcher = "PMI";
        size = lw_env_long("PMI_SIZE");
        j->id = lw_env_dup("PMI_JOBID");
        if (j->id && asprintf(&j->key, "pmi:%s", j->id) < 0)
            j->key = NULL;
        if (!j->id)
            lw_pmi_local_identity(j);
        else
            j->global = 1;
    } else if ((rank = lw_env_long("PMIX_RANK")) >= 0) {
        j->launcher = "PMIx";
        size = lw_env_long("SLURM_STEP_NUM_TASKS");
        j->id = lw_env_dup("PMIX_NAMESPACE");
        if (j->id && asprintf(&j->key, "pmix:%s", j->id) < 0)
            j->key = NULL;
    } else if ((getenv("SLURM_STEP_ID") || getenv("SLURM_STEPID")) &&
               (rank = lw_env_long("SLURM_PROCID")) >= 0) {
        /* Only a step (srun) has a step id: a batch script has SLURM_PROCID
         * too, and is a lone process. */
        j->launcher = "Slurm";
        size = lw_env_long("SLURM_STEP_NUM_TASKS");
        if (size < 0)
            size = lw_env_long("SLURM_NTASKS");
        const char *job = getenv("SLURM_JOB_ID"), *step = getenv("SLURM_STEP_ID");
        if (!step)
            step = getenv("SLURM_STEPID");
        if (job && asprintf(&j->id, "%s.%s", job, step) < 0)
            j->id = NULL;
        if (j->id && asprintf(&j->key, "slurm:%s", j->id) < 0)
            j->key = NULL;
    }
    if (j->key && strcmp(j->launcher, "PMI") != 0)
        j->global = 1;
    j->rank = rank;
    j->size = size;
    /* A job of one process keeps the layout of a lone process. */
    j->active = rank >= 0 && size != 1 && j->key;
    lw_job_set_who();
}

void lw_job_log(void)
{
    const lw_job *j = &lw_job_info;
    if (j->active)
        lw_log(LW_LOG_JOB, "%s job %s: rank %ld of %ld on %s (pid %ld)", j->launcher, j->id,
               j->rank, j->size, j->host, (long)getpid());
    else if (j->rank >= 0)
        lw_log(LW_LOG_JOB, "%s: rank %ld of a job of %ld: results as a lone process", j->launcher,
               j->rank, j->size);
}

int lw_job_name_pending(void)
{
    const lw_job *j = &lw_job_info;
    return j->active && !j->global && !j->named_by_mpi && !j->forked && !lw_experiment_dir_claimed();
}

void lw_job_from_mpi(long rank, long size, const char *id0, const char *key0)
{
    lw_job *j = &lw_job_info;
    if (j->forked)
        return;
    /* A job identity that is global already stays (the directory may be in
     * use); a node-local one (PMI without a job id) or none is replaced by
     * rank 0's, unless this process has written results already. */
    int claimed = lw_experiment_dir_claimed() != NULL;
    if (j->rank >= 0 && j->rank != rank) {
        lw_log(LW_LOG_JOB, "the launcher said rank %ld, MPI says %ld: using %s", j->rank, rank,
               claimed ? "the launcher's (results are written already)" : "MPI's");
        if (claimed)
            rank = j->rank;
    }
    if (!j->global && id0 && key0 && !claimed && !j->named_by_mpi) {
        free(j->id);
        free(j->key);
        j->id = strdup(id0);
        j->key = strdup(key0);
        j->global = j->id && j->key;
        j->named_by_mpi = 1;
        if (!j->launcher)
            j->launcher = "MPI";
    }
    j->rank = rank;
    j->size = size;
    if (!claimed)
        j->active = size > 1 && j->key;
    else if (!j->active && size > 1)
        lw_log(LW_LOG_JOB,
               "rank %ld: results were written before MPI_Init told the rank; they stay "
               "where they are, as a lone process's",
               rank);
    lw_job_set_who();
    if (j->named_by_mpi && j->active)
        lw_log(LW_LOG_JOB, "job %s, as rank 0 named it: rank %ld of %ld", j->id, rank, size);
}

/* Letters, digits and . _ - stay; the rest becomes '_'. */
static void lw_sanitize(char *s)
{
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '.' && *s != '_' && *s != '-')
            *s = '_';
}

static char *lw_job_default_name(void)
{
    const lw_job *j = &lw_job_info;
    char *name = NULL;
    /* An id from MPI is rank 0's default name already. */
    if (j->named_by_mpi)
        name = strdup(j->id);
    else {
        const char *tag = strcmp(j->launcher, "Open MPI") == 0 ? "ompi"
                          : strcmp(j->launcher, "PMI") == 0    ? "pmi"
                          : strcmp(j->launcher, "PMIx") == 0   ? "pmix"
                                                               : "slurm";
        if (asprintf(&name, "libwrap-%s-%s", tag, j->id) < 0)
            name = NULL;
    }
    if (name)
        lw_sanitize(name + 8);
    char *cwd = name ? getcwd(NULL, 0) : NULL, *out = NULL;
    if (cwd && asprintf(&out, "%s/%s", cwd, name) < 0)
        out = NULL;
    free(cwd);
    free(name);
    return out;
}

/* The JOB_KEY= line of <dir>/config.txt equals ours. */
static int lw_same_job(const char *cfg)
{
    FILE *f = fopen(cfg, "re");
    if (!f)
        return 0;
    char *line = NULL;
    size_t cap = 0;
    int same = 0;
    while (!same && getline(&line, &cap, f) > 0) {
        line[strcspn(line, "\n")] = 0;
        same = strncmp(line, "JOB_KEY=", 8) == 0 && strcmp(line + 8, lw_job_info.key) == 0;
    }
    free(line);
    fclose(f);
    return same;
}

/*
 * 1: we claimed `dir`, 0: we joined our job there, -1: it holds something
 * else, -2: error (errno). config.txt is written under a private name and
 * published with link(2), which fails if it exists: a rank that finds it
 * reads a complete file.
 */
static int lw_claim_or_join(const char *dir)
{
    const lw_job *j = &lw_job_info;
    char *cfg = NULL, *tmp = NULL;
    int rc = -2;
    if (asprintf(&cfg, "%s/config.txt", dir) < 0 ||
        asprintf(&tmp, "%s/.config.txt.%ld", dir, (long)getpid()) < 0)
        goto out;
    if (access(cfg, F_OK) == 0) {
        rc = lw_same_job(cfg) ? 0 : -1;
        goto out;
    }
    lw_out o;
    FILE *f = lw_out_open(&o);
    if (!f)
        goto out;
    lw_hook->config_txt(f, dir);
    fprintf(f, "JOB_LAUNCHER=%s\nJOB_ID=%s\nJOB_SIZE=%ld\nJOB_KEY=%s\n", j->launcher, j->id,
            j->size, j->key);
    if (lw_job_grouped())
        fprintf(f, "JOB_GROUP_SIZE=%ld\n", lw_job_group_size());
    if (lw_out_write_fd(&o, lw_owner_open(tmp, O_WRONLY | O_TRUNC | O_CLOEXEC)) != 0) {
        int err = errno;
        unlink(tmp);
        errno = err;
        goto out;
    }
    if (link(tmp, cfg) == 0)
        rc = 1;
    else if (errno == EEXIST)
        rc = lw_same_job(cfg) ? 0 : -1;
    int err = errno;
    unlink(tmp);
    errno = err;
out:
    free(cfg);
    free(tmp);
    return rc;
}

const char *lw_job_claim_dir(const char *explicit_dir)
{
    lw_job *j = &lw_job_info;
    if (j->dir)
        return j->dir;
    char *base = explicit_dir ? strdup(explicit_dir) : lw_job_default_name();
    if (!base)
        return NULL;
    unsigned n;
    for (n = 0; n < 10000; n++) {
        char *dir = NULL;
        if ((n ? asprintf(&dir, "%s.%u", base, n) : asprintf(&dir, "%s", base)) < 0)
            break;
        if (lw_mkdir_p(dir) < 0) {
            lw_warn("cannot create the experiment directory %s: %s; no results are written "
                    "(set LIBWRAP_EXPERIMENT_DIRECTORY to a writable place)",
                    dir, strerror(errno));
            free(dir);
            break;
        }
        int rc = lw_claim_or_join(dir);
        if (rc >= 0) {
            lw_log(LW_LOG_JOB, "%s the job directory %s", rc ? "claimed" : "joined", dir);
            j->dir = dir;
            break;
        }
        if (rc == -2) {
            lw_warn("cannot create %s/config.txt: %s; no results are written", dir,
                    strerror(errno));
            free(dir);
            break;
        }
        free(dir);
    }
    if (n == 10000)
        lw_warn("%s.1 to %s.9999 all hold results of other runs; no results are written "
                "(remove old experiments)",
                base, base);
    free(base);
    return j->dir;
}

char *lw_job_part_base(const char *job)
{
    const lw_job *j = &lw_job_info;
    char *base = NULL;
    int n = lw_job_grouped()
                ? asprintf(&base, "%s/" LW_JOB_GROUPS "/" LW_JOB_GROUP_FMT "/rank-%ld", job, j->rank / lw_job_group_size(), j->rank)
                : asprintf(&base, "%s/rank-%ld", job, j->rank);
    return n < 0 ? NULL : base;
}

/* The records file of the job (`g` < 0) or of its group `g`. */
static char *lw_job_records_path(long g)
{
    char *path = NULL;
    int n = g < 0 ? asprintf(&path, "%s/profiles.lwrt", lw_job_info.dir)
                  : asprintf(&path, "%s/" LW_JOB_GROUPS "/" LW_JOB_GROUP_FMT "/profiles.lwrt", lw_job_info.dir, g);
    return n < 0 ? NULL : path;
}

int lw_job_add_records(void)
{
    lw_job *j = &lw_job_info;
    if (!lw_job_directory())
        return -1;
    uint64_t visits;
    lw_rtree *t = lw_rtree_local(j->rank, &visits);
    char *path = lw_job_records_path(lw_job_grouped() ? j->rank / lw_job_group_size() : -1);
    int rc = -1;
    if (t && path) {
        if (lw_job_grouped() && !lw_experiment_dir_claimed()) {
            /* The group's directory, as a part in it would make it; a
             * traced rank's part (ranks/G/rank-N) made it already. */
            char *slash = strrchr(path, '/');
            *slash = 0;
            lw_mkdir_p(path);
            *slash = '/';
        }
        rc = lw_job_records_add(path, t, j->rank, j->rank + 1);
    }
    if (rc == 0) {
        j->records = 1;
        lw_log(LW_LOG_JOB, "the profile (%llu calls) went into %s", (unsigned long long)visits, path);
    }
    lw_rtree_free(t);
    free(path);
    return rc;
}

void lw_job_after_fork_child(void)
{
    lw_job_info.forked = 1;
    lw_job_info.must_write = 0;
    lw_job_set_who();
}

/* ---- the clock ---------------------------------------------------------- */

/* MPI's samples, in this process's monotonic ns: rank 0's monotonic clock
 * = ours + offset there; rank 0's realtime = its monotonic + delta0. */
static struct {
    uint64_t mono;
    int64_t offset;
} lw_samples[2];
static size_t lw_nsamples;
static int64_t lw_delta0;

void lw_job_clock_sample(uint64_t mono, int64_t offset, int64_t delta0)
{
    if (lw_nsamples < 2) {
        lw_samples[lw_nsamples].mono = mono;
        lw_samples[lw_nsamples++].offset = offset;
    }
    lw_delta0 = delta0;
}

/*
 * Without MPI, ticks map to the host's realtime clock as measured at start
 * (timer.c): processes on one host line up as well as their two clock
 * reads, hosts as well as NTP keeps them. With MPI's samples, ticks map to
 * rank 0's monotonic clock plus rank 0's realtime offset: one time base
 * for the whole job, linear between the samples (drift), constant beyond.
 */
void lw_job_clock_points(uint64_t tick0, uint64_t tick_end)
{
    lw_job *j = &lw_job_info;
    double npt = lw_timer_ns_per_tick();
    uint64_t epoch = lw_timer_epoch_ns(), mono0 = lw_timer_start_mono();
    uint64_t ticks[4], mono[4];
    size_t n = 0;
    ticks[n++] = tick0;
    for (size_t i = 0; i < lw_nsamples; i++) {
        /* The tick at which the sample's monotonic time was read. */
        double dt = ((double)lw_samples[i].mono - (double)mono0) / npt;
        uint64_t t = dt > 0 ? tick0 + (uint64_t)dt : tick0;
        if (t > ticks[n - 1] && t < tick_end)
            ticks[n++] = t;
    }
    if (tick_end > ticks[n - 1])
        ticks[n++] = tick_end;
    for (size_t i = 0; i < n; i++) {
        double ns = (double)(ticks[i] - tick0) * npt;
        mono[i] = mono0 + (uint64_t)(ns + 0.5);
        if (!lw_nsamples) {
            j->point_ns[i] = epoch + (uint64_t)(ns + 0.5);
            continue;
        }
        /* The offset at this time: interpolated between the samples,
         * constant outside them. */
        int64_t off = lw_samples[0].offset;
        if (lw_nsamples == 2 && mono[i] > lw_samples[0].mono) {
            if (mono[i] >= lw_samples[1].mono || lw_samples[1].mono == lw_samples[0].mono)
                off = lw_samples[1].offset;
            else
                off += (int64_t)((double)(lw_samples[1].offset - lw_samples[0].offset) *
                                 (double)(mono[i] - lw_samples[0].mono) /
                                 (double)(lw_samples[1].mono - lw_samples[0].mono));
        }
        j->point_ns[i] = (uint64_t)((int64_t)mono[i] + off + lw_delta0);
    }
    for (size_t i = 0; i < n; i++)
        j->point_ticks[i] = ticks[i];
    j->npoints = n;
}

/* ---- the end of the job ------------------------------------------------- */

/* Appends `rec` (LW_FINISHED_RECORD bytes) to `path` with one write:
 * the file offset after it is our place in the order of finishing (atomic
 * on local and parallel file systems; on NFS two processes may land on one
 * place, and then nobody counts to the end and the report merges). The
 * count, or -1 with a warning. */
static long lw_finished_append(const char *path, const char *rec)
{
    int fd = lw_owner_open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) {
        lw_warn("cannot write %s: %s; the job's trace is merged by libwrap-report later", path,
                strerror(errno));
        return -1;
    }
    off_t end = -1;
    if (strlen(rec) == LW_FINISHED_RECORD && write(fd, rec, LW_FINISHED_RECORD) == LW_FINISHED_RECORD)
        end = lseek(fd, 0, SEEK_CUR);
    close(fd);
    return end > 0 ? (long)(end / LW_FINISHED_RECORD) : -1;
}

void lw_job_finished(int in_signal)
{
    lw_job *j = &lw_job_info;
    if (!j->active || j->forked || !j->dir)
        return;
    char *path = NULL, rec[64];
    long count, total = j->size;
    snprintf(rec, sizeof rec, "rank %10ld pid %10ld\n", j->rank % 10000000000L,
             (long)getpid() % 10000000000L);
    if (lw_job_grouped()) {
        /* The group's count first; the rank that completes it counts the
         * group in the job's. */
        long g = j->rank / lw_job_group_size(), first = g * lw_job_group_size();
        long members = j->size - first < lw_job_group_size() ? j->size - first : lw_job_group_size();
        if (asprintf(&path, "%s/" LW_JOB_GROUPS "/" LW_JOB_GROUP_FMT "/finished.txt", j->dir, g) < 0)
            return;
        count = lw_finished_append(path, rec);
        free(path);
        path = NULL;
        lw_log(LW_LOG_JOB, "finished: %ld of %ld ranks of group %ld", count, members, g);
        if (count < members)
            return;
        /* The group's share of the job's work, before the job can count
         * it: the listeners' (the trace writer merges the group's trace),
         * and the group's profiles, one record for the job's reduction. */
        if (!in_signal) {
            char *gdir = NULL;
            if (asprintf(&gdir, "%s/" LW_JOB_GROUPS "/" LW_JOB_GROUP_FMT, j->dir, g) >= 0)
                lw_hook->group_complete(j->dir, gdir);
            free(gdir);
        }
        if (j->records && !in_signal) {
            char *gpath = lw_job_records_path(g), *jpath = lw_job_records_path(-1);
            lw_rtree *t = gpath && jpath ? lw_job_records_reduce(gpath, first, first + members) : NULL;
            if (t)
                lw_job_records_add(jpath, t, first, first + members);
            lw_rtree_free(t);
            free(gpath);
            free(jpath);
        }
        snprintf(rec, sizeof rec, "group %9ld pid %10ld\n", g % 1000000000L,
                 (long)getpid() % 10000000000L);
        total = (j->size + lw_job_group_size() - 1) / lw_job_group_size();
    }
    if (asprintf(&path, "%s/finished.txt", j->dir) < 0)
        return;
    count = lw_finished_append(path, rec);
    free(path);
    lw_log(LW_LOG_JOB, lw_job_grouped() ? "finished: %ld of %ld groups" : "finished: %ld of %ld ranks",
           count, total);
    /* Beyond the size: a rank ran several programs one after the other,
     * and this one finished after the merge: merge again. */
    if (total < 0 || count < total)
        return;
    if (in_signal) {
        lw_log(LW_LOG_JOB, "last rank, ending by a signal: libwrap-report merges the trace");
        return;
    }
    /* The job's profile out of the ranks' (or groups') records. */
    if (j->records) {
        char *jpath = lw_job_records_path(-1);
        lw_rtree *t = jpath ? lw_job_records_reduce(jpath, 0, j->size) : NULL;
        if (t && lw_rtree_write(t, j->dir, j->size) == 0)
            lw_log(LW_LOG_JOB, "the job's profile of %ld ranks written to %s/profile.json", j->size, j->dir);
        lw_rtree_free(t);
        free(jpath);
    }
    /* The listeners finish the job's results: the otf2 listener merges the
     * ranks' traces into one archive. */
    lw_log(LW_LOG_JOB, "last rank: the job is complete in %s", j->dir);
    lw_hook->job_complete(j->dir);
}
