/*
 * mpi.c - what the runtime does inside MPI_Init and MPI_Finalize, which the
 * interposers of mpi_interpose.c hand to it.
 *
 * The runtime does not link libmpi and has no mpi.h: the PMPI functions
 * are looked up in the process (dlsym RTLD_DEFAULT; the PMPI names bypass
 * any MPI tool layered over MPI), and the few predefined handles it needs
 * (MPI_COMM_WORLD, MPI_BYTE, MPI_BOR, MPI_STATUS_IGNORE) are taken from the
 * two ABIs in use: Open MPI's, where a handle is the address of a global
 * object (ompi_mpi_comm_world, ...), and MPICH's, shared by MVAPICH, Intel
 * MPI and Cray MPICH, where it is a fixed int. Another MPI is left alone:
 * the rank then comes from the launcher's environment only. Handles travel
 * as uintptr_t: an int parameter reads the low half of the register on the
 * 64-bit ABIs this is built for (x86-64, AArch64).
 *
 * Collectives need every rank: the runtime takes part where all ranks run
 * the same program with the same settings. Every rank must decide alike
 * from what they all share (the MPI library, the size, the settings, the
 * launcher's environment), never from something only some ranks see: a
 * rank that stayed out would leave the others waiting. Open MPI says when
 * it starts several programs (MPMD: OMPI_NUM_APP_CTX > 1); there the
 * runtime stays out. Other launchers do not say, and there every program
 * of an MPMD job must be measured (docs/mpi.md). It works on a duplicate
 * of MPI_COMM_WORLD, never on the program's communicators, and does
 * nothing after MPI_Finalize.
 *
 *   MPI_Init:     rank and size; rank 0's name for the job; clock sample 1
 *   MPI_Finalize: clock sample 2; did any rank measure anything? (MPI_BOR);
 *                 if so, the job's profile along a binomial tree (profile_reduce.c)
 *
 * A clock sample: ranks on another host (boot id or host name) than rank 0
 * exchange 10 ping-pongs with it; the one with the shortest round trip
 * gives the offset of their monotonic clock to rank 0's. Ranks on rank 0's
 * host share its clock: their offset is 0 without measuring.
 */
#include "jobs/jobs.h"
#include "core/measure/hooks.h"
#include "interpose/mpi_interpose.h"

#include "core/base/dl.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef LIBWRAP_NOP
void libwrap_mpi_after_init(void) {}

void libwrap_mpi_before_finalize(void) {}
#else

typedef uintptr_t lw_mh; /* an MPI handle of either ABI */

enum { LW_MPI_UNKNOWN, LW_MPI_OPENMPI, LW_MPI_MPICH, LW_MPI_NONE };

static struct {
    int abi;
    lw_mh world, byte, bor;
    void *status_ignore;
    int (*comm_rank)(lw_mh, int *);
    int (*comm_size)(lw_mh, int *);
    int (*comm_dup)(lw_mh, lw_mh *);
    int (*comm_free)(lw_mh *);
    int (*bcast)(void *, int, lw_mh, int, lw_mh);
    int (*gather)(const void *, int, lw_mh, void *, int, lw_mh, int, lw_mh);
    int (*allreduce)(const void *, void *, int, lw_mh, lw_mh, lw_mh);
    int (*send)(const void *, int, lw_mh, int, int, lw_mh);
    int (*recv)(void *, int, lw_mh, int, int, lw_mh, void *);
    lw_mh comm;           /* our duplicate of MPI_COMM_WORLD */
    unsigned char *needs; /* rank 0: which ranks measure their clock offset */
    int have_comm;
    int rank, size;
    int done_init, done_fini;
} M;

/* What rank 0 tells every rank at MPI_Init. */
typedef struct {
    char id[96];   /* the default job directory name: rank 0's libwrap-YYYYMMDD_HHMMSS_PID */
    char key[192]; /* a key unique to this job */
    char boot_id[64];
    char host[128];
    int64_t delta0; /* rank 0's CLOCK_REALTIME - CLOCK_MONOTONIC, ns */
    int64_t sync;   /* clock samples are taken */
} lw_mpi_ident;
static lw_mpi_ident lw_ident0;

#define LW_MPI_TAG 0x4c57 /* on our own communicator */
#define LW_MPI_PINGS 10
#define LW_MPI_MAX_RTT 200000 /* ns */

static int lw_mpi_resolve(void)
{
    if (M.abi != LW_MPI_UNKNOWN)
        return M.abi != LW_MPI_NONE;
    M.abi = LW_MPI_NONE;
    if (!lw_dl_available())
        return 0;
#if defined(__x86_64__) || defined(__aarch64__)
    void *world = dlsym(RTLD_DEFAULT, "ompi_mpi_comm_world");
    if (world) {
        void *byte = dlsym(RTLD_DEFAULT, "ompi_mpi_byte"),
             *bor = dlsym(RTLD_DEFAULT, "ompi_mpi_op_bor");
        if (!byte || !bor)
            return 0;
        M.world = (lw_mh)world;
        M.byte = (lw_mh)byte;
        M.bor = (lw_mh)bor;
        M.status_ignore = NULL;
        M.abi = LW_MPI_OPENMPI;
    } else {
        int (*version)(char *, int *) =
            (int (*)(char *, int *))dlsym(RTLD_DEFAULT, "PMPI_Get_library_version");
        static char v[8192]; /* MPICH's MPI_MAX_LIBRARY_VERSION_STRING */
        int len = 0;
        if (!version || version(v, &len) != 0)
            return 0;
        v[sizeof v - 1] = 0;
        if (!strstr(v, "MPICH") && !strstr(v, "MVAPICH") && !strstr(v, "Intel(R) MPI")) {
            lw_log(LW_LOG_JOB, "MPI library not known (%.60s): rank from the launcher only", v);
            return 0;
        }
        /* MPICH's mpi.h: the ABI its derivatives keep. */
        M.world = 0x44000000;
        M.byte = 0x4c00010d;
        M.bor = 0x58000008;
        M.status_ignore = (void *)1;
        M.abi = LW_MPI_MPICH;
    }
#define LW_SYM(field, name)                                                                        \
    if (!(*(void **)&M.field = dlsym(RTLD_DEFAULT, name))) {                                       \
        lw_log(LW_LOG_JOB, "MPI without %s: rank from the launcher only", name);                   \
        M.abi = LW_MPI_NONE;                                                                       \
        return 0;                                                                                  \
    }
    LW_SYM(comm_rank, "PMPI_Comm_rank")
    LW_SYM(comm_size, "PMPI_Comm_size")
    LW_SYM(comm_dup, "PMPI_Comm_dup")
    LW_SYM(comm_free, "PMPI_Comm_free")
    LW_SYM(bcast, "PMPI_Bcast")
    LW_SYM(gather, "PMPI_Gather")
    LW_SYM(allreduce, "PMPI_Allreduce")
    LW_SYM(send, "PMPI_Send")
    LW_SYM(recv, "PMPI_Recv")
#undef LW_SYM
    return 1;
#else
    return 0;
#endif
}

static uint64_t lw_clock_ns(clockid_t id)
{
    struct timespec ts;
    lw_clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A collective clock sample on our communicator (see the top). */
static void lw_mpi_clock_sample(void)
{
    /* Another kernel (boot id) has another clock; another host name on the
     * same kernel (a container) has the same one, but is measured too:
     * measuring costs little where it is not needed. */
    unsigned char need = strcmp(lw_job_info.boot_id, lw_ident0.boot_id) != 0 ||
                         !lw_job_info.boot_id[0] ||
                         strncmp(lw_job_info.host, lw_ident0.host, sizeof lw_ident0.host - 1) != 0;
    int64_t offset = 0;
    /* Rank 0 had no memory for the table of ranks: no rank measures (all
     * know it from the identity rank 0 sent). */
    if (!lw_ident0.sync)
        return;
    if (M.gather(&need, 1, M.byte, M.needs, 1, M.byte, 0, M.comm) != 0)
        return;
    if (M.rank == 0) {
        for (int r = 1; r < M.size; r++) {
            if (!M.needs[r])
                continue;
            uint64_t best = UINT64_MAX;
            int64_t off = 0;
            for (int k = 0; k < LW_MPI_PINGS; k++) {
                uint64_t t1 = lw_clock_ns(CLOCK_MONOTONIC), tr = 0;
                M.send(&t1, 8, M.byte, r, LW_MPI_TAG, M.comm);
                M.recv(&tr, 8, M.byte, r, LW_MPI_TAG, M.comm, M.status_ignore);
                uint64_t t2 = lw_clock_ns(CLOCK_MONOTONIC);
                if (t2 - t1 < best) {
                    best = t2 - t1;
                    off = (int64_t)(t1 + (t2 - t1) / 2) - (int64_t)tr;
                }
            }
            int64_t result[2] = {off, (int64_t)best};
            M.send(result, 16, M.byte, r, LW_MPI_TAG, M.comm);
        }
    } else if (need) {
        for (int k = 0; k < LW_MPI_PINGS; k++) {
            uint64_t t1 = 0, tr;
            M.recv(&t1, 8, M.byte, 0, LW_MPI_TAG, M.comm, M.status_ignore);
            tr = lw_clock_ns(CLOCK_MONOTONIC);
            M.send(&tr, 8, M.byte, 0, LW_MPI_TAG, M.comm);
        }
        int64_t result[2] = {0, 0};
        M.recv(result, 16, M.byte, 0, LW_MPI_TAG, M.comm, M.status_ignore);
        /* The offset is known to within half the round trip. Beyond
         * LW_MPI_MAX_RTT (a loaded or oversubscribed node), the hosts'
         * realtime clocks (NTP) are likely better: no sample then. */
        if (result[1] > LW_MPI_MAX_RTT) {
            lw_log(LW_LOG_JOB,
                   "clock: round trip to rank 0 %lld ns: too slow to measure, the hosts' clocks "
                   "are used",
                   (long long)result[1]);
            return;
        }
        offset = result[0];
        lw_log(LW_LOG_JOB, "clock: rank 0's monotonic clock is ours %+lld ns (round trip %lld ns)",
               (long long)offset, (long long)result[1]);
    }
    lw_job_clock_sample(lw_clock_ns(CLOCK_MONOTONIC), offset, lw_ident0.delta0);
}

static void lw_mpi_rank0_ident(void)
{
    lw_default_name(lw_ident0.id, sizeof lw_ident0.id);
    uint64_t mono = lw_clock_ns(CLOCK_MONOTONIC), real = lw_clock_ns(CLOCK_REALTIME);
    snprintf(lw_ident0.key, sizeof lw_ident0.key, "mpi:%.100s:%ld:%llu", lw_job_info.host,
             (long)getpid(), (unsigned long long)real);
    snprintf(lw_ident0.boot_id, sizeof lw_ident0.boot_id, "%s", lw_job_info.boot_id);
    snprintf(lw_ident0.host, sizeof lw_ident0.host, "%.127s", lw_job_info.host);
    lw_ident0.delta0 = (int64_t)(real - mono);
    M.needs = calloc((size_t)M.size, 1);
    lw_ident0.sync = M.needs != NULL;
}

/*
 * Whether this process takes part in the collectives. Every rank must
 * decide the same: only what all ranks share counts (the MPI library, the
 * size, the launcher's MPMD flag, the settings), never the state of the
 * process's own measurement.
 */
static int lw_mpi_collectives(void)
{
    return M.size > 1 && !lw_job_info.mpmd && lw_cfg.mpi_collectives &&
           (lw_cfg.profiling || lw_cfg.tracing_requested);
}

void libwrap_mpi_after_init(void)
{
    lw_ensure_started();
    if (M.done_init || getpid() != lw_process_pid() || lw_job_info.forked)
        return;
    M.done_init = 1;
    int saved = errno;
    int guard = LW_LOAD(lw_tls.guard);
    LW_STORE(lw_tls.guard, 1);
    if (!lw_mpi_resolve())
        goto out;
    if (M.comm_rank(M.world, &M.rank) != 0 || M.comm_size(M.world, &M.size) != 0)
        goto out;
    if (lw_mpi_collectives() && M.comm_dup(M.world, &M.comm) == 0) {
        M.have_comm = 1;
        if (M.rank == 0)
            lw_mpi_rank0_ident();
        if (M.bcast(&lw_ident0, (int)sizeof lw_ident0, M.byte, 0, M.comm) == 0) {
            lw_ident0.id[sizeof lw_ident0.id - 1] = lw_ident0.key[sizeof lw_ident0.key - 1] = 0;
            lw_ident0.boot_id[sizeof lw_ident0.boot_id - 1] = 0;
            lw_ident0.host[sizeof lw_ident0.host - 1] = 0;
            lw_job_from_mpi(M.rank, M.size, lw_ident0.id, lw_ident0.key);
            lw_mpi_clock_sample();
            goto out;
        }
    }
    lw_job_from_mpi(M.rank, M.size, NULL, NULL);
out:
    lw_log(LW_LOG_JOB, "MPI_Init: %s, rank %d of %d%s",
           M.abi == LW_MPI_OPENMPI ? "Open MPI"
           : M.abi == LW_MPI_MPICH ? "MPICH ABI"
                                   : "MPI not used",
           M.rank, M.size, M.have_comm ? "" : ", no collectives");
    LW_STORE(lw_tls.guard, guard);
    errno = saved;
}

/* Bytes to a rank, in pieces an int count holds: the length first. */
static int lw_mpi_send_bytes(const char *buf, uint64_t len, int to)
{
    if (M.send(&len, 8, M.byte, to, LW_MPI_TAG, M.comm) != 0)
        return -1;
    for (uint64_t off = 0; off < len;) {
        int n = len - off > (1u << 30) ? 1 << 30 : (int)(len - off);
        if (M.send(buf + off, n, M.byte, to, LW_MPI_TAG, M.comm) != 0)
            return -1;
        off += (uint64_t)n;
    }
    return 0;
}

/* What lw_mpi_send_bytes sent, malloc'ed; a length of 0 is a rank that
 * had nothing to send (no memory), and gives NULL. */
static char *lw_mpi_recv_bytes(uint64_t *len, int from)
{
    *len = 0;
    if (M.recv(len, 8, M.byte, from, LW_MPI_TAG, M.comm, M.status_ignore) != 0)
        return NULL;
    char *buf = *len ? malloc(*len) : NULL;
    for (uint64_t off = 0; off < *len;) {
        int n = *len - off > (1u << 30) ? 1 << 30 : (int)(*len - off);
        /* Without memory the bytes are still taken off the wire. */
        static char sink[1 << 16];
        if (!buf)
            n = n > (int)sizeof sink ? (int)sizeof sink : n;
        if (M.recv(buf ? buf + off : sink, n, M.byte, from, LW_MPI_TAG, M.comm, M.status_ignore) != 0) {
            free(buf);
            return NULL;
        }
        off += (uint64_t)n;
    }
    return buf;
}

/*
 * The job's profile (profile_reduce.c), reduced along a binomial tree:
 * rank r receives from r+1, r+2, r+4, ... (each the tree of the ranks
 * [r+m, r+2m)) while r's bit m is clear, then sends its tree to r-m. A
 * rank holds its own tree and one incoming at a time; rank 0 ends with the
 * job's after log2(size) steps. A rank that cannot build or read a tree
 * still sends, an empty message, so no rank waits for ever; the job's
 * profile then says how many ranks it holds.
 */
static void lw_mpi_reduce_profile(void)
{
    lw_rtree *t = lw_rtree_local(M.rank, &lw_job_info.reduced_visits);
    int ok = t != NULL;
    for (int m = 1; m < M.size; m <<= 1) {
        if (M.rank & m) {
            char *buf = NULL;
            size_t len = 0;
            if (!ok || lw_rtree_pack(t, &buf, &len) < 0)
                len = 0;
            lw_mpi_send_bytes(buf, len, M.rank - m);
            free(buf);
            break;
        }
        if (M.rank + m >= M.size)
            continue;
        uint64_t len;
        char *buf = lw_mpi_recv_bytes(&len, M.rank + m);
        if (ok && (!buf || lw_rtree_merge(t, buf, len) < 0)) {
            int end = M.rank + 2 * m < M.size ? M.rank + 2 * m : M.size;
            lw_log(LW_LOG_JOB, "the profiles of ranks %d to %d were not received: the job's profile "
                   "lacks them", M.rank + m, end - 1);
            lw_rtree_lost(t, M.rank + m, end);
        }
        free(buf);
    }
    if (M.rank == 0 && t) {
        const char *dir = lw_job_directory();
        if (dir && lw_rtree_write(t, dir, M.size) == 0)
            lw_log(LW_LOG_JOB, "the job's profile of %d ranks written to %s/profile.json", M.size, dir);
    }
    lw_rtree_free(t);
    lw_job_info.reduced = 1;
}

void libwrap_mpi_before_finalize(void)
{
    /* Taken part in at MPI_Init means taken part in now: the other ranks
     * wait for us, whatever the state of our own measurement. */
    if (!M.have_comm || M.done_fini || getpid() != lw_process_pid())
        return;
    M.done_fini = 1;
    int saved = errno;
    int guard = LW_LOAD(lw_tls.guard);
    LW_STORE(lw_tls.guard, 1);
    lw_mpi_clock_sample();
    unsigned char mine = (unsigned char)lw_measured_something(), any = 0;
    if (M.allreduce(&mine, &any, 1, M.byte, M.bor, M.comm) == 0 && any && lw_job_info.active) {
        lw_job_info.must_write = 1;
        lw_log(LW_LOG_JOB, "MPI_Finalize: a rank measured");
        /* Decided alike on every rank: the settings, MPI's size and `any`
         * are shared. */
        if (lw_cfg.profiling && !lw_job_parts_on()) {
            /* The rate fixed here for the job's profile and the rank's
             * later results alike (timer.c). */
            lw_timer_calibrate();
            lw_mpi_reduce_profile();
        }
    }
    M.comm_free(&M.comm);
    M.have_comm = 0;
    free(M.needs);
    M.needs = NULL;
    LW_STORE(lw_tls.guard, guard);
    errno = saved;
}
#endif
