/*
 * otf2_writer.c - the OTF2 trace (LIBWRAP_ENABLE_TRACING=true): the built-in
 * event listener "otf2", a plugin of its own (libwrap/plugin.h), so that
 * only a run that traces loads libotf2.
 *
 * Writing an OTF2 event costs some 30 to 50 ns, more than the measured
 * call itself for the functions libwrap is made for. So during the run
 * this listener only stages each thread's events in a compact private
 * form (a few bytes an event: varints of the time since the thread's last
 * event and of the region, and of the metric values' changes), takes them
 * in batches from the runtime's event buffer (`events`, no SYNC metrics) or
 * one by one (`enter`, `exit`, with SYNC metrics), and appends each full
 * staging buffer to one temporary file of the experiment directory (opened
 * O_TMPFILE: nothing is left behind, whatever the end). The OTF2 archive is
 * written at the end (finalize), from that file: one location and event
 * writer per thread, the global definitions, the ASYNC samples.
 *
 * The memory budget (LIBWRAP_TOTAL_MEMORY) bounds the staging buffers (1/16
 * of it each, 4 to 256 KiB) and, at the end, OTF2's event chunks through
 * its memory callbacks: when a new chunk would exceed the budget, the
 * allocation is refused, which makes OTF2 flush that location's buffer to
 * disk and start again in a fresh chunk (it records a BUFFER_FLUSH event).
 * Every thread always gets its first chunk, so the real minimum is one
 * chunk per thread. Events that cannot be written (to the temporary file
 * or to the archive) are counted and reported once.
 *
 * The directory is claimed and the temporary file opened at the process's
 * first measured call (the first thread_begin), so that a process that
 * measures nothing (a launcher, a shell) creates nothing. A fork() child
 * writes a trace of its own into its own directory (fork-PID), of the
 * events after the fork; the parent's staged events stay the parent's. Its
 * directory is claimed and its temporary file opened at its first append
 * or at its end, where it has events: a child that execs (or exits)
 * without measuring anything leaves nothing.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/uio.h>
#include <unistd.h>

#include <otf2/OTF2_Pthread_Locks.h>
#include <otf2/otf2.h>

#include "hash.h"
#include "otf2merge/otf2_merge.h"
#include "plugins/plugin_util.h"
#include "xfsz.h"
#include "owner.h"
#include "utf8.h"

typedef struct lw_trace_thread lw_trace_thread;

/* The process the archive belongs to, when it is a rank of a job: written
 * into the anchor file as properties (otf2_merge.h), so that the job's
 * parts can be merged into one archive. */
typedef struct lw_trace_process {
    long rank, size;
    const char *host;
    size_t npoints;
    const uint64_t *point_ticks, *point_ns;
} lw_trace_process;

static const libwrap_host *lw_host;
static const libwrap_plugin lw_plugin;
static const libwrap_metric_info *lw_metric_infos; /* the SYNC metrics, lw_nmetrics of them */

/* The ASYNC samples of the process (libwrap_process_end), written at the
 * end on a location of their own, one metric class per ASYNC metric. */
#define LW_SAMPLES_LOCATION ((OTF2_LocationRef)UINT32_MAX)
static const libwrap_metric_info *lw_all_metrics; /* SYNC ones, then ASYNC ones */
static uint32_t lw_nall_metrics;
static const libwrap_sample *lw_samples;
static size_t lw_nsamples;
static uint64_t lw_samples_written; /* events on LW_SAMPLES_LOCATION */

/* Argument recording: a thread's cache of the global references of the
 * parameters (key (region - 1) * 64 + slot, stored + 1) and of the string
 * values it has met. */
typedef struct lw_tparam {
    uint32_t key1, ref;
} lw_tparam;

typedef struct lw_tstring {
    const char *s; /* the global copy */
    uint32_t ref;
} lw_tstring;

struct lw_trace_thread {
    uint32_t tid;
    int busy;   /* inside an event callback: finalisation waits for it */
    int closed; /* the thread has ended, or finalisation has begun */
    /* Staging: events encoded since the last append to the temporary
     * file, and the values the next one is encoded against. */
    unsigned char *buf;
    size_t len, cap;
    uint32_t staged;
    uint64_t last_ticks;
    uint64_t last_metric[LIBWRAP_MAX_METRICS];
    /* The conversion at the end. */
    OTF2_EvtWriter *writer;
    off_t last_chunk; /* where its last chunk is in the temporary file; -1: none */
    uint64_t events;      /* enter, leave and metric records written */
    uint64_t otf2_events; /* as OTF2 counts them (with BUFFER_FLUSH), for the Location */
    uint64_t lost;
    /* Argument recording: the thread's cache of parameter and string
     * references (lw_param_ref, lw_string_ref). */
    lw_tparam *params;   /* open addressing */
    size_t params_mask, nparams;
    lw_tstring *strings; /* open addressing */
    size_t strings_mask, nstrings;
    lw_trace_thread *next;
};

/* A chunk handed to OTF2, linked into its buffer's list for free_all. */
typedef struct lw_chunk {
    struct lw_chunk *next;
    uint64_t size;
    max_align_t data[];
} lw_chunk;

static OTF2_Archive *lw_archive;
static char *lw_dir;
static size_t lw_nmetrics;
static uint64_t lw_budget, lw_used; /* bytes of event chunks, process-wide */
static int lw_closing;
static pthread_mutex_t lw_threads_lock = PTHREAD_MUTEX_INITIALIZER;
static lw_trace_thread *lw_threads;
static char lw_first_error[256]; /* the first error OTF2 reported, for the loss report */
static OTF2_ErrorCode lw_first_code; /* and its code */
static lw_trace_process lw_process = {.rank = -1};
static char lw_process_host[256];
static uint64_t lw_process_ticks[8], lw_process_ns[8];
static int lw_errors;
static int lw_write_failed;
/*
 * The parameters and string values of recorded arguments get global
 * references, dense and in the order they are first met, which is the
 * order OTF2 readers want their definitions in: a thread meeting one for
 * the first time takes lw_args_lock (a leaf lock, on the hot path only
 * then), later it finds it in its own cache. String values take the first
 * string references; the definitions' own strings follow.
 */
typedef struct lw_gparam {
    uint32_t key, type; /* OTF2_ParameterType */
    const char *name;
} lw_gparam;
static pthread_mutex_t lw_args_lock = PTHREAD_MUTEX_INITIALIZER;
static lw_gparam *lw_gparams;
static char **lw_gstrings;
static uint32_t lw_ngparams, lw_ngstrings, lw_gparams_cap, lw_gstrings_cap;
static uint32_t *lw_gparams_index, *lw_gstrings_index; /* ref + 1 by hash; 0 free */
static size_t lw_gparams_mask, lw_gstrings_mask;
#define LW_TRACE_STRINGS_MAX (1u << 20) /* distinct string values, then one for all */

/* The temporary file: staged events, appended in chunks of one thread's
 * events (lw_chunk_head, then the encoded events), each thread's in order. */
typedef struct lw_chunk_head {
    uint32_t tid;
    uint32_t bytes;
    uint32_t events;
    uint32_t reserved;
} lw_chunk_head;
static int lw_spill = -1;
static lw_fd_id lw_spill_id;    /* its identity (plugin_util.h: the program may close it) */
static int lw_spill_gone;       /* the program closed it: never used or closed again */
static uint64_t lw_spill_events; /* events of the chunks appended */
static pthread_mutex_t lw_spill_lock = PTHREAD_MUTEX_INITIALIZER;
static int lw_spill_failed;   /* nothing more is appended */
static uint64_t lw_spill_lost; /* events of chunks that could not be appended */
static char lw_spill_error[128];
static int lw_spill_errno; /* the append's error, 0 where none was the system's */
static size_t lw_stage_size;

/* The timestamp of the event being written: OTF2 asks for it after a
 * flush. Events are written by the finalising thread alone. */
static uint64_t lw_now;
/* The thread's own writer while it writes an event: a signal handler that
 * ends the process there must not wait for itself in lw_trace_finalize. */
static __thread lw_trace_thread *lw_writing;

static OTF2_ErrorCode lw_otf2_error(void *data, const char *file, uint64_t line, const char *func,
                                    OTF2_ErrorCode code, const char *fmt, va_list va)
{
    /* OTF2 reports each failure at every level it passes; keep the first
     * (innermost) one for the summary instead of printing them all. */
    if (__atomic_fetch_add(&lw_errors, 1, __ATOMIC_RELAXED) == 0) {
        char msg[160];
        vsnprintf(msg, sizeof msg, fmt ? fmt : "", va);
        snprintf(lw_first_error, sizeof lw_first_error, "%s: %s", OTF2_Error_GetDescription(code),
                 msg);
        lw_first_code = code;
    }
    return code;
}

/* Always write: OTF2's default for event buffers is to discard them. */
static OTF2_FlushType lw_pre_flush(void *data, OTF2_FileType type, OTF2_LocationRef loc,
                                   void *caller, bool final)
{
    return OTF2_FLUSH;
}

static OTF2_TimeStamp lw_post_flush(void *data, OTF2_FileType type, OTF2_LocationRef loc)
{
    return lw_now;
}

static void *lw_chunk_alloc(void *data, OTF2_FileType type, OTF2_LocationRef loc, void **list,
                            uint64_t size)
{
    if (type == OTF2_FILETYPE_EVENTS && *list) {
        uint64_t used = __atomic_add_fetch(&lw_used, size, __ATOMIC_RELAXED);
        if (used > lw_budget) {
            __atomic_sub_fetch(&lw_used, size, __ATOMIC_RELAXED);
            return NULL; /* OTF2 flushes this buffer, frees it, and asks again */
        }
    } else if (type == OTF2_FILETYPE_EVENTS) {
        __atomic_add_fetch(&lw_used, size, __ATOMIC_RELAXED);
    }
    lw_chunk *c = malloc(sizeof *c + size);
    if (!c) {
        if (type == OTF2_FILETYPE_EVENTS)
            __atomic_sub_fetch(&lw_used, size, __ATOMIC_RELAXED);
        return NULL;
    }
    c->size = size;
    c->next = *list;
    *list = c;
    return c->data;
}

static void lw_chunk_free_all(void *data, OTF2_FileType type, OTF2_LocationRef loc, void **list,
                              bool final)
{
    lw_chunk *c = *list;
    while (c) {
        lw_chunk *next = c->next;
        if (type == OTF2_FILETYPE_EVENTS)
            __atomic_sub_fetch(&lw_used, c->size, __ATOMIC_RELAXED);
        free(c);
        c = next;
    }
    *list = NULL;
}

static const OTF2_FlushCallbacks lw_flush_callbacks = {lw_pre_flush, lw_post_flush};
static const OTF2_MemoryCallbacks lw_memory_callbacks = {lw_chunk_alloc, lw_chunk_free_all};

#define lw_message(...) lw_host->warn(&lw_plugin, __VA_ARGS__)

static void lw_trace_warn(const char *what, OTF2_ErrorCode rc)
{
    char why[400];
    const char *denied = lw_dir && access(lw_dir, W_OK) != 0 ? lw_owner_denied(lw_dir, errno, why, sizeof why) : "";
    lw_message("%s in '%s': %s%s; tracing is off", what, lw_dir ? lw_dir : "?",
               lw_errors ? lw_first_error : OTF2_Error_GetDescription(rc), denied);
}

/* Event chunks: large enough to amortise a flush, small enough that several
 * threads fit in the budget. */
static uint64_t lw_chunk_size(size_t budget)
{
    uint64_t size = budget / 16;
    if (size < OTF2_CHUNK_SIZE_MIN)
        size = OTF2_CHUNK_SIZE_MIN;
    if (size > OTF2_CHUNK_SIZE_EVENTS_DEFAULT)
        size = OTF2_CHUNK_SIZE_EVENTS_DEFAULT;
    return size;
}

/* The temporary file in `dir`, unnamed (O_TMPFILE); where the file system
 * cannot, a named one removed at once. */
static int lw_spill_open(const char *dir)
{
    int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0)
        return fd;
    char *path = NULL;
    if (asprintf(&path, "%s/.traces-XXXXXX", dir) < 0)
        return -1;
    fd = mkostemp(path, O_CLOEXEC);
    if (fd >= 0)
        unlink(path);
    free(path);
    return fd;
}

/* A thread's staging buffer: 1/16 of the memory budget, 4 to 256 KiB. */
static size_t lw_stage_bytes(size_t budget)
{
    size_t n = budget / 16;
    return n < 4096 ? 4096 : n > (256u << 10) ? (256u << 10) : n;
}

/* At the first thread (a fork child's: its first append, or its end): the
 * directory is the experiment's. */
static int lw_trace_init(const char *dir, size_t budget, size_t nmetrics)
{
    if (lw_dir)
        return lw_spill >= 0 ? 0 : -1;
    OTF2_Error_RegisterCallback(lw_otf2_error, NULL);
    lw_dir = strdup(dir);
    lw_nmetrics = nmetrics > LIBWRAP_MAX_METRICS ? LIBWRAP_MAX_METRICS : nmetrics;
    lw_budget = budget;
    lw_errors = 0;
    lw_first_code = OTF2_SUCCESS;
    lw_spill_errno = 0;
    lw_write_failed = 0;
    lw_closing = 0;
    lw_stage_size = lw_stage_bytes(budget);

    /* OTF2 refuses an existing archive only after it has begun to write
     * the new one; check first, so that an old trace stays untouched. */
    static const char *const parts[] = {"traces", "traces.otf2", "traces.def"};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        char *path = NULL;
        if (asprintf(&path, "%s/%s", dir, parts[i]) >= 0 && access(path, F_OK) == 0) {
            lw_message("'%s' already exists; tracing is off (choose a new "
                       "LIBWRAP_EXPERIMENT_DIRECTORY)", path);
            free(path);
            return -1;
        }
        free(path);
    }
    /* Opened under the lock its appends take (lw_stage_flush), which
     * orders every thread's append after the open by itself. Ordered
     * through lw_open_state alone, ThreadSanitizer reported an append
     * racing with the open in one run of runtime_trace_api_tsan in 15
     * to 20 on a loaded 2-core machine. */
    pthread_mutex_lock(&lw_spill_lock);
    lw_spill = lw_fd_keep(lw_spill_open(dir), &lw_spill_id);
    lw_spill_gone = 0;
    lw_spill_events = 0;
    pthread_mutex_unlock(&lw_spill_lock);
    if (lw_spill < 0) {
        lw_message("cannot create a temporary file in '%s': %s; tracing is off", dir,
                   strerror(errno));
        return -1;
    }
    return 0;
}

/* The archive's files and traces/, made by OTF2 under the program's
 * umask: their owner's to read and write once written (common/owner.h).
 * OTF2 makes traces/ and writes into it at once: a umask without the
 * owner's write right leaves that to root alone (the loss is said). */
static void lw_archive_owner(void)
{
    int top = open(lw_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (top < 0)
        return;
    lw_owner_at(top, "traces.otf2");
    lw_owner_at(top, "traces.def");
    lw_owner_at(top, "traces");
    int fd = openat(top, "traces", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_name[0] != '.')
            lw_owner_at(dirfd(d), e->d_name);
    if (d)
        closedir(d);
    else if (fd >= 0)
        close(fd);
    close(top);
}

/* The archive, at the end. */

static int lw_archive_open(void)
{
    OTF2_ErrorCode rc;
    lw_archive = OTF2_Archive_Open(lw_dir, "traces", OTF2_FILEMODE_WRITE, lw_chunk_size(lw_budget),
                                   OTF2_CHUNK_SIZE_MIN, OTF2_SUBSTRATE_POSIX,
                                   OTF2_COMPRESSION_NONE);
    if (!lw_archive) {
        lw_trace_warn("cannot create the OTF2 archive", OTF2_ERROR_FILE_INTERACTION);
        return -1;
    }
    if ((rc = OTF2_Archive_SetFlushCallbacks(lw_archive, &lw_flush_callbacks, NULL)) ||
        (rc = OTF2_Archive_SetMemoryCallbacks(lw_archive, &lw_memory_callbacks, NULL)) ||
        (rc = OTF2_Archive_SetSerialCollectiveCallbacks(lw_archive)) ||
        (rc = OTF2_Pthread_Archive_SetLockingCallbacks(lw_archive, NULL)) ||
        (rc = OTF2_Archive_SetCreator(lw_archive, "libwrap")) ||
        (rc = OTF2_Archive_OpenEvtFiles(lw_archive))) {
        lw_trace_warn("cannot create the OTF2 archive", rc);
        OTF2_Archive_Close(lw_archive);
        lw_archive = NULL;
        return -1;
    }
    return 0;
}

static void lw_trace_set_process(const lw_trace_process *p)
{
    lw_process = *p;
    snprintf(lw_process_host, sizeof lw_process_host, "%s", p->host ? p->host : "");
    lw_process.host = lw_process_host;
    size_t n = p->npoints < 8 ? p->npoints : 8;
    memcpy(lw_process_ticks, p->point_ticks, n * sizeof *lw_process_ticks);
    memcpy(lw_process_ns, p->point_ns, n * sizeof *lw_process_ns);
    lw_process.npoints = n;
    lw_process.point_ticks = lw_process_ticks;
    lw_process.point_ns = lw_process_ns;
}

/* A rank's archive says which rank it is and how its clock maps to the
 * job's, for the merge (otf2_merge.c). */
static OTF2_ErrorCode lw_write_properties(void)
{
    char v[512];
    OTF2_ErrorCode rc = OTF2_SUCCESS;
    if (lw_process.rank < 0)
        return rc;
    snprintf(v, sizeof v, "%ld", lw_process.rank);
    if (!rc)
        rc = OTF2_Archive_SetProperty(lw_archive, LW_PROP_RANK, v, true);
    snprintf(v, sizeof v, "%ld", lw_process.size);
    if (!rc)
        rc = OTF2_Archive_SetProperty(lw_archive, LW_PROP_SIZE, v, true);
    snprintf(v, sizeof v, "%ld", (long)getpid());
    if (!rc)
        rc = OTF2_Archive_SetProperty(lw_archive, LW_PROP_PID, v, true);
    if (!rc && *lw_process_host)
        rc = OTF2_Archive_SetProperty(lw_archive, LW_PROP_HOST, lw_process_host, true);
    size_t len = 0;
    v[0] = 0;
    for (size_t i = 0; i < lw_process.npoints && len < sizeof v; i++)
        len += (size_t)snprintf(v + len, sizeof v - len, "%s%" PRIu64 ":%" PRIu64, i ? " " : "",
                                lw_process.point_ticks[i], lw_process.point_ns[i]);
    if (!rc && lw_process.npoints)
        rc = OTF2_Archive_SetProperty(lw_archive, LW_PROP_TIME, v, true);
    return rc;
}

/* When the archive is opened (lw_open_archive): at the process's first
 * measured call (its first thread_begin); in a fork child, at its first
 * append (a full staging buffer, a thread's end) or its end, where it has
 * events to keep; or it was opened, or tried. Set under lw_open_lock. */
enum { LW_OPEN_AT_THREAD, LW_OPEN_AT_APPEND, LW_OPEN_DONE };
static int lw_open_state;
static pthread_mutex_t lw_open_lock = PTHREAD_MUTEX_INITIALIZER;
static size_t lw_budget_setting = 16u << 20;

/* Opens the archive if it is to be opened `when`. The directory is claimed
 * before our lock is taken (the runtime's lock order: its directory lock
 * before a plugin's): a fork child's is its own, fork-PID. Where it cannot
 * be had, nothing is appended: the events of a fork child's threads, begun
 * before, are counted lost; the runtime or lw_trace_init said why. */
static void lw_open_archive(int when)
{
    if (__atomic_load_n(&lw_open_state, __ATOMIC_ACQUIRE) != when)
        return;
    const char *dir = lw_host->experiment_directory();
    pthread_mutex_lock(&lw_open_lock);
    if (lw_open_state == when) {
        if (!dir || lw_trace_init(dir, lw_budget_setting, lw_nmetrics) < 0) {
            pthread_mutex_lock(&lw_spill_lock);
            lw_spill_failed = 1;
            pthread_mutex_unlock(&lw_spill_lock);
        }
        __atomic_store_n(&lw_open_state, LW_OPEN_DONE, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&lw_open_lock);
}

static lw_trace_thread *lw_trace_thread_begin(uint32_t tid)
{
    int pending = __atomic_load_n(&lw_open_state, __ATOMIC_ACQUIRE) == LW_OPEN_AT_APPEND;
    if ((!pending && __atomic_load_n(&lw_spill, __ATOMIC_RELAXED) < 0) ||
        __atomic_load_n(&lw_closing, __ATOMIC_ACQUIRE))
        return NULL;

    lw_trace_thread *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->tid = tid;
    t->cap = lw_stage_size;
    t->buf = malloc(t->cap);
    if (!t->buf) {
        free(t);
        return NULL;
    }
    __atomic_add_fetch(&lw_used, t->cap, __ATOMIC_RELAXED);
    /* The list lock keeps finalisation from closing the trace meanwhile. */
    pthread_mutex_lock(&lw_threads_lock);
    int ok = (lw_spill >= 0 || lw_open_state == LW_OPEN_AT_APPEND) && !lw_closing;
    if (ok) {
        /* Kept in thread order, the order of the Location definitions. */
        lw_trace_thread **pos = &lw_threads;
        while (*pos && (*pos)->tid < tid)
            pos = &(*pos)->next;
        t->next = *pos;
        *pos = t;
    }
    pthread_mutex_unlock(&lw_threads_lock);
    if (ok)
        return t;
    __atomic_sub_fetch(&lw_used, t->cap, __ATOMIC_RELAXED);
    free(t->buf);
    free(t);
    return NULL;
}

/* Marks the thread busy unless finalisation has begun; the seq_cst pair
 * (store busy, load closing) against (store closing, load busy) guarantees
 * that one side sees the other. */
static int lw_begin_event(lw_trace_thread *t)
{
    if (!t || __atomic_load_n(&t->closed, __ATOMIC_RELAXED))
        return 0;
    __atomic_store_n(&t->busy, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&lw_closing, __ATOMIC_SEQ_CST)) {
        __atomic_store_n(&t->busy, 0, __ATOMIC_RELEASE);
        return 0;
    }
    lw_writing = t;
    return 1;
}

static void lw_end_event(lw_trace_thread *t)
{
    lw_writing = NULL;
    __atomic_store_n(&t->busy, 0, __ATOMIC_RELEASE);
}

/* Whether the temporary file is still there (lock held): a program that
 * closed its descriptor (a daemon's closefrom) may have opened a file of
 * its own under the number, which is never written, read or closed. */
static int lw_spill_there(void)
{
    if (!lw_spill_gone && !lw_fd_same(lw_spill, &lw_spill_id)) {
        lw_spill_gone = 1;
        snprintf(lw_spill_error, sizeof lw_spill_error,
                 "the program closed the trace's temporary file, descriptor %d", lw_spill);
    }
    return !lw_spill_gone;
}

/* Appends t's staged events to the temporary file as one chunk. */
static void lw_stage_flush(lw_trace_thread *t)
{
    if (!t->len)
        return;
    lw_open_archive(LW_OPEN_AT_APPEND);
    lw_chunk_head head = {t->tid, (uint32_t)t->len, t->staged, 0};
    pthread_mutex_lock(&lw_spill_lock);
    int ok = !lw_spill_failed && lw_spill_there();
    lw_xfsz x; /* a file-size limit fails the append, without SIGXFSZ */
    lw_xfsz_hold(&x);
    if (ok) {
        struct iovec iov[2] = {{&head, sizeof head}, {t->buf, t->len}};
        size_t want = sizeof head + t->len, done = 0;
        while (done < want) {
            ssize_t n = writev(lw_spill, iov, 2);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                lw_spill_errno = n < 0 ? errno : 0;
                snprintf(lw_spill_error, sizeof lw_spill_error, "%s",
                         n < 0 ? strerror(errno) : "nothing written");
                ok = 0;
                break;
            }
            done += (size_t)n;
            for (int i = 0; i < 2 && n > 0; i++) {
                size_t k = (size_t)n < iov[i].iov_len ? (size_t)n : iov[i].iov_len;
                iov[i].iov_base = (char *)iov[i].iov_base + k;
                iov[i].iov_len -= k;
                n -= (ssize_t)k;
            }
        }
        /* A chunk cut short is not read back (lw_convert stops at it). */
        lw_spill_failed = !ok;
        if (ok)
            lw_spill_events += t->staged;
    }
    lw_xfsz_release(&x);
    if (!ok)
        lw_spill_lost += t->staged;
    pthread_mutex_unlock(&lw_spill_lock);
    t->len = 0;
    t->staged = 0;
}

static inline unsigned char *lw_put(unsigned char *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    *p++ = (unsigned char)v;
    return p;
}

static inline uint64_t lw_zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

/* The most one event takes: ticks, region, metric values (10 bytes each). */
#define LW_EVENT_MAX(nmetrics) (10 + 10 + 10 * (nmetrics))

/* Stages one event: the entry (region > 0) or exit (< 0) at `ticks`, and
 * the metric values when there are any. */
static inline void lw_stage(lw_trace_thread *t, int32_t region, uint64_t ticks,
                            const uint64_t *metrics)
{
    if (t->cap - t->len < LW_EVENT_MAX(lw_nmetrics))
        lw_stage_flush(t);
    unsigned char *p = t->buf + t->len;
    p = lw_put(p, lw_zigzag((int64_t)(ticks - t->last_ticks)));
    t->last_ticks = ticks;
    int with = lw_nmetrics && metrics;
    p = lw_put(p, lw_zigzag(region) << 1 | (uint64_t)with);
    for (size_t i = 0; with && i < lw_nmetrics; i++) {
        p = lw_put(p, lw_zigzag((int64_t)(metrics[i] - t->last_metric[i])));
        t->last_metric[i] = metrics[i];
    }
    t->len = (size_t)(p - t->buf);
    t->staged++;
}

static void lw_trace_event(lw_trace_thread *t, int32_t region, uint64_t ticks,
                           const uint64_t *metrics)
{
    if (!lw_begin_event(t))
        return;
    lw_stage(t, region, ticks, metrics);
    lw_end_event(t);
}

/* A batch from the runtime's buffer: no metrics, so at most 20 bytes an
 * event; as many as surely fit are encoded without a check each. */
static void lw_trace_events(lw_trace_thread *t, const libwrap_event *ev, size_t n)
{
    if (!lw_begin_event(t))
        return;
    while (n) {
        size_t room = (t->cap - t->len) / 20;
        if (!room) {
            lw_stage_flush(t);
            continue;
        }
        size_t k = n < room ? n : room;
        unsigned char *p = t->buf + t->len;
        uint64_t last = t->last_ticks;
        for (size_t j = 0; j < k; j++) {
            p = lw_put(p, lw_zigzag((int64_t)(ev[j].ticks - last)));
            last = ev[j].ticks;
            p = lw_put(p, lw_zigzag(ev[j].region) << 1);
        }
        t->last_ticks = last;
        t->len = (size_t)(p - t->buf);
        t->staged += (uint32_t)k;
        ev += k;
        n -= k;
    }
    lw_end_event(t);
}

static void lw_trace_thread_end(lw_trace_thread *t)
{
    if (!lw_begin_event(t))
        return;
    lw_stage_flush(t);
    __atomic_store_n(&t->closed, 1, __ATOMIC_RELAXED);
    lw_end_event(t);
}

/* ---- the archive, at the end -------------------------------------------- */

static inline int lw_get(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
    uint64_t x = 0;
    for (unsigned shift = 0; *p < end && shift < 64; shift += 7) {
        unsigned char b = *(*p)++;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return 1;
        }
    }
    return 0;
}

static inline int64_t lw_unzigzag(uint64_t v)
{
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static void lw_write_metrics(lw_trace_thread *t, uint64_t ticks, const uint64_t *values)
{
    OTF2_Type types[LIBWRAP_MAX_METRICS];
    OTF2_MetricValue v[LIBWRAP_MAX_METRICS];
    for (size_t i = 0; i < lw_nmetrics; i++) {
        types[i] = OTF2_TYPE_UINT64;
        v[i].unsigned_int = values[i];
    }
    if (OTF2_EvtWriter_Metric(t->writer, NULL, ticks, 0, (uint8_t)lw_nmetrics, types, v) ==
        OTF2_SUCCESS)
        t->events++;
    else
        t->lost++;
}

/* A staged parameter record into thread t's event writer. */
static void lw_convert_parameter(lw_trace_thread *t, uint64_t ref, uint64_t value)
{
    OTF2_ErrorCode rc = OTF2_ERROR_INVALID_DATA;
    lw_now = t->last_ticks;
    if (t->writer && ref < lw_ngparams) {
        switch (lw_gparams[ref].type) {
        case OTF2_PARAMETER_TYPE_INT64:
            rc = OTF2_EvtWriter_ParameterInt(t->writer, NULL, t->last_ticks, (OTF2_ParameterRef)ref,
                                             lw_unzigzag(value));
            break;
        case OTF2_PARAMETER_TYPE_UINT64:
            rc = OTF2_EvtWriter_ParameterUnsignedInt(t->writer, NULL, t->last_ticks,
                                                     (OTF2_ParameterRef)ref, value);
            break;
        default:
            rc = OTF2_EvtWriter_ParameterString(t->writer, NULL, t->last_ticks,
                                                (OTF2_ParameterRef)ref, (OTF2_StringRef)value);
            break;
        }
    }
    if (rc == OTF2_SUCCESS)
        t->events++;
    else
        t->lost++;
}

/* One chunk of thread t's events into its event writer. */
static void lw_convert_chunk(lw_trace_thread *t, const unsigned char *p, const unsigned char *end,
                             uint32_t n)
{
    uint64_t values[LIBWRAP_MAX_METRICS];
    for (uint32_t k = 0; k < n; k++) {
        uint64_t dt, key;
        if (!lw_get(&p, end, &dt) || !lw_get(&p, end, &key)) {
            t->lost += n - k; /* cannot happen: the chunk was written whole */
            return;
        }
        t->last_ticks += (uint64_t)lw_unzigzag(dt);
        if (key == 0) { /* a recorded argument (lw_trace_argument) */
            uint64_t ref = 0, value = 0;
            lw_get(&p, end, &ref);
            lw_get(&p, end, &value);
            lw_convert_parameter(t, ref, value);
            continue;
        }
        int32_t region = (int32_t)lw_unzigzag(key >> 1);
        int with = key & 1;
        for (size_t i = 0; with && i < lw_nmetrics; i++) {
            uint64_t d = 0;
            lw_get(&p, end, &d);
            values[i] = t->last_metric[i] += (uint64_t)lw_unzigzag(d);
        }
        if (!t->writer) {
            t->lost += 1 + (uint64_t)(with && lw_nmetrics);
            continue;
        }
        lw_now = t->last_ticks;
        if (with && lw_nmetrics)
            lw_write_metrics(t, t->last_ticks, values);
        OTF2_ErrorCode rc =
            region > 0 ? OTF2_EvtWriter_Enter(t->writer, NULL, t->last_ticks, (OTF2_RegionRef)(region - 1))
                       : OTF2_EvtWriter_Leave(t->writer, NULL, t->last_ticks, (OTF2_RegionRef)(-region - 1));
        if (rc == OTF2_SUCCESS)
            t->events++;
        else
            t->lost++;
    }
}

/* The thread `tid` (the list is in thread order): from the one found last
 * onwards when the id is not smaller, as chunks mostly come (a process
 * that makes its threads one after another has each one's chunks
 * together), else from the start. */
static lw_trace_thread *lw_thread_last; /* lw_convert's, reset there */

static lw_trace_thread *lw_thread_of(uint32_t tid)
{
    lw_trace_thread *t = lw_thread_last && lw_thread_last->tid <= tid ? lw_thread_last : lw_threads;
    for (; t && t->tid <= tid; t = t->next)
        if (t->tid == tid)
            return lw_thread_last = t;
    return NULL;
}

/* A thread's event writer, opened at its first chunk: OTF2 gives each one
 * a chunk of its own, whatever the budget (lw_chunk_alloc). */
static OTF2_EvtWriter *lw_writer(lw_trace_thread *t)
{
    if (!t->writer) {
        t->writer = OTF2_Archive_GetEvtWriter(lw_archive, t->tid);
        t->last_ticks = 0;
        memset(t->last_metric, 0, sizeof t->last_metric);
    }
    return t->writer;
}

static void lw_close_writer(lw_trace_thread *t);

/* The temporary file into the archive's event files, chunk after chunk.
 * A thread's writer is closed after its last chunk: a process that made
 * 50,000 threads in turn kept a writer and its chunk (up to 1 MiB) for
 * each until the end, and the kernel killed it for memory there. So the
 * file is read twice: the chunks' heads first, for each thread's last. */
static void lw_convert(void)
{
    lw_chunk_head head;
    off_t off = 0;
    lw_thread_last = NULL;
    for (lw_trace_thread *t = lw_threads; t; t = t->next)
        t->last_chunk = -1;
    while (pread(lw_spill, &head, sizeof head, off) == (ssize_t)sizeof head) {
        lw_trace_thread *t = lw_thread_of(head.tid);
        if (t)
            t->last_chunk = off;
        off += (off_t)(sizeof head + head.bytes);
    }
    /* A thread without events still has its location, empty. */
    for (lw_trace_thread *t = lw_threads; t; t = t->next)
        if (t->last_chunk < 0) {
            lw_writer(t);
            lw_close_writer(t);
        }
    size_t cap = lw_stage_size;
    unsigned char *buf = malloc(cap);
    off = 0;
    while (buf && pread(lw_spill, &head, sizeof head, off) == (ssize_t)sizeof head) {
        if (head.bytes > cap) {
            unsigned char *b = realloc(buf, head.bytes);
            if (!b)
                break;
            buf = b;
            cap = head.bytes;
        }
        if (pread(lw_spill, buf, head.bytes, off + (off_t)sizeof head) != (ssize_t)head.bytes)
            break; /* cut short: its events were counted lost when it was written */
        lw_trace_thread *t = lw_thread_of(head.tid);
        if (t && lw_writer(t)) {
            lw_convert_chunk(t, buf, buf + head.bytes, head.events);
            if (off == t->last_chunk)
                lw_close_writer(t);
        }
        off += (off_t)(sizeof head + head.bytes);
    }
    free(buf);
}


static uint64_t lw_mix(uint64_t k)
{
    k *= 0x9e3779b97f4a7c15ull;
    return k ^ (k >> 29);
}

/* An index of refs (stored + 1) by hash: the slot for `h` where `same`
 * finds the entry, or the free slot to put it. */
static size_t lw_index_find(const uint32_t *index, size_t mask, uint64_t h,
                            int (*same)(uint32_t ref, const void *key), const void *key)
{
    size_t i = h & mask;
    while (index[i] && !same(index[i] - 1, key))
        i = (i + 1) & mask;
    return i;
}

/* Doubles the index once it is half full; `hash` gives a ref's hash. */
static int lw_index_grow(uint32_t **index, size_t *mask, uint32_t count, uint64_t (*hash)(uint32_t ref))
{
    size_t old = *index ? *mask + 1 : 0;
    if ((size_t)(count + 1) * 2 <= old)
        return 0;
    size_t size = old ? old * 2 : 256;
    uint32_t *n = calloc(size, sizeof *n);
    if (!n)
        return -1;
    for (size_t i = 0; i < old; i++)
        if ((*index)[i]) {
            size_t j = hash((*index)[i] - 1) & (size - 1);
            while (n[j])
                j = (j + 1) & (size - 1);
            n[j] = (*index)[i];
        }
    free(*index);
    *index = n;
    *mask = size - 1;
    return 0;
}

static uint64_t lw_gparam_hash(uint32_t ref)
{
    return lw_mix(lw_gparams[ref].key);
}

static int lw_gparam_same(uint32_t ref, const void *key)
{
    return lw_gparams[ref].key == *(const uint32_t *)key;
}

static uint64_t lw_gstring_hash(uint32_t ref)
{
    return lw_fnv1a(lw_gstrings[ref]);
}

static int lw_gstring_same(uint32_t ref, const void *key)
{
    return strcmp(lw_gstrings[ref], key) == 0;
}

/* Room for one more element of `elem` bytes in *array of *cap. */
static int lw_grow_array(void **array, uint32_t *cap, uint32_t n, size_t elem)
{
    if (n < *cap)
        return 0;
    uint32_t c = *cap ? *cap * 2 : 64;
    void *a = realloc(*array, (size_t)c * elem);
    if (!a)
        return -1;
    *array = a;
    *cap = c;
    return 0;
}

/* The global reference of parameter `key`, defined now if new. */
static int lw_gparam_ref(uint32_t key, uint32_t type, const char *name, uint32_t *ref)
{
    int rc = -1;
    pthread_mutex_lock(&lw_args_lock);
    if (lw_index_grow(&lw_gparams_index, &lw_gparams_mask, lw_ngparams, lw_gparam_hash) == 0) {
        size_t i = lw_index_find(lw_gparams_index, lw_gparams_mask, lw_mix(key), lw_gparam_same, &key);
        if (lw_gparams_index[i]) {
            *ref = lw_gparams_index[i] - 1;
            rc = 0;
        } else if (lw_grow_array((void **)&lw_gparams, &lw_gparams_cap, lw_ngparams, sizeof *lw_gparams) == 0) {
            lw_gparams[lw_ngparams] = (lw_gparam){key, type, name ? name : "?"};
            *ref = lw_ngparams++;
            lw_gparams_index[i] = *ref + 1;
            rc = 0;
        }
    }
    pthread_mutex_unlock(&lw_args_lock);
    return rc;
}

/* The global reference of string `s`, defined now if new. */
static int lw_gstring_ref(const char *s, uint32_t *ref, const char **copy)
{
    int rc = -1;
    pthread_mutex_lock(&lw_args_lock);
    if (lw_ngstrings >= LW_TRACE_STRINGS_MAX)
        s = "(too many distinct strings)";
    if (lw_index_grow(&lw_gstrings_index, &lw_gstrings_mask, lw_ngstrings, lw_gstring_hash) == 0) {
        size_t i = lw_index_find(lw_gstrings_index, lw_gstrings_mask, lw_fnv1a(s), lw_gstring_same, s);
        char *c;
        if (lw_gstrings_index[i]) {
            *ref = lw_gstrings_index[i] - 1;
            *copy = lw_gstrings[*ref];
            rc = 0;
        } else if (lw_grow_array((void **)&lw_gstrings, &lw_gstrings_cap, lw_ngstrings, sizeof *lw_gstrings) == 0 &&
                   (c = strdup(s))) {
            lw_gstrings[lw_ngstrings] = c;
            *ref = lw_ngstrings++;
            *copy = c;
            lw_gstrings_index[i] = *ref + 1;
            rc = 0;
        }
    }
    pthread_mutex_unlock(&lw_args_lock);
    return rc;
}

/* Grows a thread's cache (entries of `elem` bytes, free when `hash` is 0). */
static int lw_cache_grow(void **table, size_t *mask, size_t count, size_t elem, uint64_t (*hash)(const void *))
{
    size_t old = *table ? *mask + 1 : 0;
    if ((count + 1) * 2 <= old)
        return 0;
    size_t size = old ? old * 2 : 64;
    char *t = calloc(size, elem);
    if (!t)
        return -1;
    for (size_t i = 0; i < old; i++) {
        const char *e = (const char *)*table + i * elem;
        if (!hash(e))
            continue;
        size_t j = hash(e) & (size - 1);
        while (hash(t + j * elem))
            j = (j + 1) & (size - 1);
        memcpy(t + j * elem, e, elem);
    }
    free(*table);
    *table = t;
    *mask = size - 1;
    return 0;
}

static uint64_t lw_tparam_hash(const void *e)
{
    const lw_tparam *p = e;
    return p->key1 ? lw_mix(p->key1 - 1) | 1 : 0;
}

static uint64_t lw_tstring_hash(const void *e)
{
    const lw_tstring *p = e;
    return p->s ? lw_fnv1a(p->s) | 1 : 0;
}

static int lw_param_ref(lw_trace_thread *t, uint32_t key, uint32_t type, const char *name, uint32_t *ref)
{
    uint64_t h = lw_mix(key) | 1;
    size_t i = 0;
    if (t->params)
        for (i = h & t->params_mask; t->params[i].key1; i = (i + 1) & t->params_mask)
            if (t->params[i].key1 == key + 1)
                return *ref = t->params[i].ref, 0;
    if (lw_gparam_ref(key, type, name, ref) < 0 ||
        lw_cache_grow((void **)&t->params, &t->params_mask, t->nparams, sizeof *t->params, lw_tparam_hash) < 0)
        return -1;
    for (i = h & t->params_mask; t->params[i].key1; i = (i + 1) & t->params_mask)
        ;
    t->params[i] = (lw_tparam){key + 1, *ref};
    t->nparams++;
    return 0;
}

static int lw_string_ref(lw_trace_thread *t, const char *s, uint32_t *ref)
{
    uint64_t h = lw_fnv1a(s) | 1;
    size_t i = 0;
    if (t->strings)
        for (i = h & t->strings_mask; t->strings[i].s; i = (i + 1) & t->strings_mask)
            if (strcmp(t->strings[i].s, s) == 0)
                return *ref = t->strings[i].ref, 0;
    const char *copy;
    if (lw_gstring_ref(s, ref, &copy) < 0)
        return -1;
    /* Past the limit `copy` is the stand-in: not cached under `s`. */
    if (strcmp(copy, s) != 0 ||
        lw_cache_grow((void **)&t->strings, &t->strings_mask, t->nstrings, sizeof *t->strings, lw_tstring_hash) < 0)
        return 0;
    for (i = h & t->strings_mask; t->strings[i].s; i = (i + 1) & t->strings_mask)
        ;
    t->strings[i] = (lw_tstring){copy, *ref};
    t->nstrings++;
    return 0;
}

/* The most a parameter record takes: ticks, the 0 that marks it, the
 * parameter's reference, the value. */
#define LW_PARAM_MAX (10 + 1 + 5 + 10)

/*
 * A recorded argument, staged like the events: region 0 marks a parameter
 * record, then its parameter's reference and its value (zigzag for signed
 * integers; a string's reference for strings and, as text, for doubles:
 * OTF2 has no floating-point parameter). lw_convert_chunk makes it an
 * OTF2 parameter event between its call's Enter and Leave.
 */
static void lw_trace_argument(lw_trace_thread *t, int32_t region, uint64_t ticks,
                              const libwrap_argument *a)
{
    if (region <= 0 || !lw_begin_event(t))
        return;
    uint32_t key = ((uint32_t)region - 1) * 64u + (a->index & 63u), ref = 0, sref = 0;
    uint64_t value = 0;
    int ok = 0;
    char text[40];
    switch (a->kind) {
    case LIBWRAP_ARG_SIGNED:
        ok = lw_param_ref(t, key, OTF2_PARAMETER_TYPE_INT64, a->name, &ref) == 0;
        value = lw_zigzag(a->value.i);
        break;
    case LIBWRAP_ARG_UNSIGNED:
        ok = lw_param_ref(t, key, OTF2_PARAMETER_TYPE_UINT64, a->name, &ref) == 0;
        value = a->value.u;
        break;
    case LIBWRAP_ARG_DOUBLE:
    case LIBWRAP_ARG_STRING: {
        const char *v = a->value.s;
        if (a->kind == LIBWRAP_ARG_DOUBLE) {
            snprintf(text, sizeof text, "%.17g", a->value.d);
            v = text;
        }
        ok = lw_param_ref(t, key, OTF2_PARAMETER_TYPE_STRING, a->name, &ref) == 0 &&
             lw_string_ref(t, v ? v : "(null)", &sref) == 0;
        value = sref;
        break;
    }
    default:
        break;
    }
    if (ok) {
        if (t->cap - t->len < LW_PARAM_MAX)
            lw_stage_flush(t);
        unsigned char *p = t->buf + t->len;
        p = lw_put(p, lw_zigzag((int64_t)(ticks - t->last_ticks)));
        t->last_ticks = ticks;
        p = lw_put(p, 0);
        p = lw_put(p, ref);
        p = lw_put(p, value);
        t->len = (size_t)(p - t->buf);
        t->staged++;
    } else {
        t->lost++;
    }
    lw_end_event(t);
}

/* With lw_threads_lock held. */
static void lw_close_writer(lw_trace_thread *t)
{
    if (!t->writer)
        return;
    OTF2_EvtWriter_GetNumberOfEvents(t->writer, &t->otf2_events);
    /* Closing writes the rest of the buffer: a failure there loses events
     * that were counted as written; lw_count_lost finds out how many. */
    if (OTF2_Archive_CloseEvtWriter(lw_archive, t->writer) != OTF2_SUCCESS)
        lw_write_failed = 1;
    t->writer = NULL;
}

/* Global definition strings, numbered in the order written, each once. */
typedef struct {
    OTF2_GlobalDefWriter *w;
    OTF2_StringRef next;
    OTF2_ErrorCode rc;
    char **keys; /* open addressing; keys[i] written as vals[i] */
    OTF2_StringRef *vals;
    size_t mask, used;
} lw_defs;

/* A global string as UTF-8, which OTF2's readers take it for (its Python
 * binding refuses anything else): a recorded argument or a path that is
 * not is written with U+FFFD for each stray byte (common/utf8.h);
 * profile.json keeps the bytes themselves. */
static OTF2_ErrorCode lw_write_string(OTF2_GlobalDefWriter *w, OTF2_StringRef ref, const char *s)
{
    if (lw_utf8_valid(s))
        return OTF2_GlobalDefWriter_WriteString(w, ref, s);
    char *v = malloc(3 * strlen(s) + 1);
    if (!v)
        return OTF2_GlobalDefWriter_WriteString(w, ref, s);
    lw_utf8_fix(s, v);
    OTF2_ErrorCode rc = OTF2_GlobalDefWriter_WriteString(w, ref, v);
    free(v);
    return rc;
}

static OTF2_StringRef lw_string(lw_defs *d, const char *s)
{
    size_t i;

    s = s ? s : "";
    for (i = lw_fnv1a(s) & d->mask; d->keys[i]; i = (i + 1) & d->mask)
        if (strcmp(d->keys[i], s) == 0)
            return d->vals[i];
    OTF2_ErrorCode rc = lw_write_string(d->w, d->next, s);
    if (rc && !d->rc)
        d->rc = rc;
    /* Without memory for the table the string is simply written again. */
    if (4 * (d->used + 1) < 3 * (d->mask + 1) && (d->keys[i] = strdup(s))) {
        d->vals[i] = d->next;
        d->used++;
    }
    return d->next++;
}

static void lw_check(lw_defs *d, OTF2_ErrorCode rc)
{
    if (rc && !d->rc)
        d->rc = rc;
}

/* The string values of recorded arguments (references 0 ... n-1), then
 * the parameters, in the order of their references. */
static void lw_write_param_defs(lw_defs *d)
{
    for (uint32_t i = 0; i < lw_ngstrings; i++)
        lw_check(d, lw_write_string(d->w, i, lw_gstrings[i]));
    d->next = lw_ngstrings;
    for (uint32_t i = 0; i < lw_ngparams; i++)
        lw_check(d, OTF2_GlobalDefWriter_WriteParameter(d->w, i, lw_string(d, lw_gparams[i].name),
                                                        (OTF2_ParameterType)lw_gparams[i].type));
}

static void lw_write_metric_defs(lw_defs *d)
{
    OTF2_MetricMemberRef members[LIBWRAP_MAX_METRICS];

    for (size_t i = 0; i < lw_nmetrics; i++) {
        const libwrap_metric_info *m = lw_metric_infos ? &lw_metric_infos[i] : NULL;
        char fallback[32];
        snprintf(fallback, sizeof fallback, "metric%zu", i);
        const char *name = m && m->name ? m->name : fallback;
        OTF2_MetricType type = !strncmp(name, "PAPI_", 5)  ? OTF2_METRIC_TYPE_PAPI
                               : !strncmp(name, "ru_", 3) ? OTF2_METRIC_TYPE_RUSAGE
                                                          : OTF2_METRIC_TYPE_OTHER;
        /* A level (ru_maxrss) is not a count accumulated since start. */
        OTF2_MetricMode mode = m && m->mode == LIBWRAP_METRIC_ABSOLUTE
                                   ? OTF2_METRIC_ABSOLUTE_POINT
                                   : OTF2_METRIC_ACCUMULATED_START;
        OTF2_StringRef sname = lw_string(d, name);
        OTF2_StringRef sdesc = lw_string(d, m && m->description ? m->description : "");
        OTF2_StringRef sunit = lw_string(d, m && m->unit ? m->unit : "#");
        members[i] = (OTF2_MetricMemberRef)i;
        lw_check(d, OTF2_GlobalDefWriter_WriteMetricMember(d->w, members[i], sname, sdesc, type,
                                                           mode, OTF2_TYPE_UINT64,
                                                           OTF2_BASE_DECIMAL, 0, sunit));
    }
    if (lw_nmetrics)
        lw_check(d, OTF2_GlobalDefWriter_WriteMetricClass(d->w, 0, (uint8_t)lw_nmetrics, members,
                                                          OTF2_METRIC_SYNCHRONOUS_STRICT,
                                                          OTF2_RECORDER_KIND_CPU));
    /* ASYNC metrics: member lw_nmetrics + k, class 1 + k, one member each. */
    for (uint32_t k = 0; lw_samples_written && lw_nmetrics + k < lw_nall_metrics; k++) {
        const libwrap_metric_info *m = &lw_all_metrics[lw_nmetrics + k];
        OTF2_MetricMemberRef member = (OTF2_MetricMemberRef)(lw_nmetrics + k);
        lw_check(d, OTF2_GlobalDefWriter_WriteMetricMember(
                        d->w, member, lw_string(d, m->name),
                        lw_string(d, m->description ? m->description : ""), OTF2_METRIC_TYPE_OTHER,
                        m->mode == LIBWRAP_METRIC_ABSOLUTE ? OTF2_METRIC_ABSOLUTE_POINT
                                                           : OTF2_METRIC_ACCUMULATED_START,
                        OTF2_TYPE_UINT64, OTF2_BASE_DECIMAL, 0, lw_string(d, m->unit)));
        lw_check(d, OTF2_GlobalDefWriter_WriteMetricClass(d->w, (OTF2_MetricRef)(1 + k), 1, &member,
                                                          OTF2_METRIC_ASYNCHRONOUS,
                                                          OTF2_RECORDER_KIND_UNKNOWN));
    }
}

/* The samples, in time order, on their own location (before the event
 * files are closed). */
static void lw_write_samples(void)
{
    lw_samples_written = 0;
    if (!lw_nsamples)
        return;
    OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(lw_archive, LW_SAMPLES_LOCATION);
    if (!w)
        return;
    OTF2_Type type = OTF2_TYPE_UINT64;
    for (size_t i = 0; i < lw_nsamples; i++) {
        const libwrap_sample *x = &lw_samples[i];
        if (x->metric < lw_nmetrics || x->metric >= lw_nall_metrics)
            continue;
        OTF2_MetricValue v = {.unsigned_int = x->value};
        lw_now = x->ticks;
        if (OTF2_EvtWriter_Metric(w, NULL, x->ticks, (OTF2_MetricRef)(1 + x->metric - lw_nmetrics),
                                  1, &type, &v) == OTF2_SUCCESS)
            lw_samples_written++;
    }
    uint64_t n = 0;
    OTF2_EvtWriter_GetNumberOfEvents(w, &n);
    if (OTF2_Archive_CloseEvtWriter(lw_archive, w) != OTF2_SUCCESS)
        lw_write_failed = 1;
    lw_samples_written = n ? n : lw_samples_written;
}

static OTF2_ErrorCode lw_write_global_defs(const libwrap_region *const *regions, size_t nregions,
                                           uint64_t tick0, uint64_t tick_end, uint64_t resolution,
                                           uint64_t epoch_ns)
{
    lw_defs d = {OTF2_Archive_GetGlobalDefWriter(lw_archive), 0, OTF2_SUCCESS, NULL, NULL, 0, 0};
    char host[256] = "localhost";
    char name[64];
    size_t nthreads = 0, size = 64;

    for (lw_trace_thread *t = lw_threads; t; t = t->next)
        nthreads++;
    while (size < 2 * (9 + nthreads + 3 * nregions + 3 * lw_nall_metrics + 3 * lw_nmetrics +
                       lw_ngparams))
        size *= 2;
    d.keys = calloc(size, sizeof *d.keys);
    d.vals = calloc(size, sizeof *d.vals);
    d.mask = size - 1;
    if (!d.w || !d.keys || !d.vals) {
        free(d.keys);
        free(d.vals);
        return OTF2_ERROR_MEM_ALLOC_FAILED;
    }
    lw_check(&d, OTF2_GlobalDefWriter_WriteClockProperties(
                     d.w, resolution, tick0, tick_end > tick0 ? tick_end - tick0 : 0, epoch_ns));
    lw_write_param_defs(&d);
    if (lw_process.rank >= 0 && *lw_process_host)
        snprintf(host, sizeof host, "%s", lw_process_host);
    else
        gethostname(host, sizeof host - 1);
    OTF2_StringRef shost = lw_string(&d, host);
    OTF2_StringRef snode = lw_string(&d, "node");
    lw_check(&d, OTF2_GlobalDefWriter_WriteSystemTreeNode(d.w, 0, shost, snode,
                                                          OTF2_UNDEFINED_SYSTEM_TREE_NODE));
    if (lw_process.rank >= 0)
        snprintf(name, sizeof name, "rank %ld", lw_process.rank);
    else
        snprintf(name, sizeof name, "process %ld", (long)getpid());
    lw_check(&d, OTF2_GlobalDefWriter_WriteLocationGroup(d.w, 0, lw_string(&d, name),
                                                         OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                         OTF2_UNDEFINED_LOCATION_GROUP));
    for (lw_trace_thread *t = lw_threads; t; t = t->next) {
        snprintf(name, sizeof name, "thread %" PRIu32, t->tid);
        lw_check(&d, OTF2_GlobalDefWriter_WriteLocation(d.w, t->tid, lw_string(&d, name),
                                                        OTF2_LOCATION_TYPE_CPU_THREAD,
                                                        t->otf2_events, 0));
    }
    OTF2_StringRef sempty = lw_string(&d, "");
    for (size_t i = 0; i < nregions; i++) {
        const libwrap_region *r = regions[i];
        if (!r) {
            snprintf(name, sizeof name, "region %zu", i + 1);
            OTF2_StringRef s = lw_string(&d, name);
            lw_check(&d, OTF2_GlobalDefWriter_WriteRegion(
                             d.w, (OTF2_RegionRef)i, s, s, sempty, OTF2_REGION_ROLE_FUNCTION,
                             OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, sempty, 0, 0));
            continue;
        }
        OTF2_StringRef sname = lw_string(&d, r->name ? r->name : r->symbol);
        OTF2_StringRef ssym = lw_string(&d, r->symbol ? r->symbol : r->name);
        OTF2_StringRef sfile = lw_string(&d, r->file);
        lw_check(&d, OTF2_GlobalDefWriter_WriteRegion(d.w, (OTF2_RegionRef)i, sname, ssym, sempty,
                                                      OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER,
                                                      OTF2_REGION_FLAG_NONE, sfile, r->line, 0));
    }
    if (lw_samples_written)
        lw_check(&d, OTF2_GlobalDefWriter_WriteLocation(d.w, LW_SAMPLES_LOCATION,
                                                        lw_string(&d, "metric samples"),
                                                        OTF2_LOCATION_TYPE_METRIC,
                                                        lw_samples_written, 0));
    if (lw_nmetrics || lw_samples_written)
        lw_write_metric_defs(&d);
    for (size_t i = 0; i <= d.mask; i++)
        free(d.keys[i]);
    free(d.keys);
    free(d.vals);
    return d.rc;
}

/* OTF2 readers expect a (possibly empty) local definition file per location. */
static OTF2_ErrorCode lw_write_local_defs(void)
{
    OTF2_ErrorCode rc = OTF2_Archive_OpenDefFiles(lw_archive);

    for (lw_trace_thread *t = lw_threads; t && rc == OTF2_SUCCESS; t = t->next) {
        OTF2_DefWriter *w = OTF2_Archive_GetDefWriter(lw_archive, t->tid);
        rc = w ? OTF2_Archive_CloseDefWriter(lw_archive, w) : OTF2_ERROR_MEM_ALLOC_FAILED;
    }
    if (lw_samples_written && rc == OTF2_SUCCESS) {
        OTF2_DefWriter *w = OTF2_Archive_GetDefWriter(lw_archive, LW_SAMPLES_LOCATION);
        rc = w ? OTF2_Archive_CloseDefWriter(lw_archive, w) : OTF2_ERROR_MEM_ALLOC_FAILED;
    }
    OTF2_ErrorCode rc2 = OTF2_Archive_CloseDefFiles(lw_archive);
    return rc ? rc : rc2;
}

/*
 * OTF2 does not always report a failed write where it happens (the file
 * substrate may buffer, and a short write can surface only when the file is
 * closed), so after any error the archive is read back to count, per
 * location, the events that really reached the disk. Returns the number of
 * events lost.
 */
static uint64_t lw_count_lost(void)
{
    char *anchor = NULL;
    uint64_t lost = 0;
    OTF2_Reader *r;

    if (asprintf(&anchor, "%s/traces.otf2", lw_dir) < 0)
        anchor = NULL;
    r = anchor ? OTF2_Reader_Open(anchor) : NULL;
    free(anchor);
    if (r && (OTF2_Reader_SetSerialCollectiveCallbacks(r) != OTF2_SUCCESS ||
              OTF2_Reader_OpenEvtFiles(r) != OTF2_SUCCESS)) {
        OTF2_Reader_Close(r);
        r = NULL;
    }
    for (lw_trace_thread *t = lw_threads; t; t = t->next) {
        uint64_t read = 0;
        OTF2_EvtReader *er = r ? OTF2_Reader_GetEvtReader(r, t->tid) : NULL;
        if (er) {
            /* At most as many as were written: a file cut short can make
             * OTF2's reader take garbage for records without end. */
            OTF2_Reader_ReadLocalEvents(r, er, t->otf2_events, &read);
            OTF2_Reader_CloseEvtReader(r, er);
        }
        /* OTF2's count includes its BUFFER_FLUSH records, ours does not. */
        uint64_t missing = t->otf2_events > read ? t->otf2_events - read : 0;
        if (missing > t->events)
            missing = t->events;
        t->events -= missing;
        t->lost += missing;
        lost += t->lost;
    }
    if (r) {
        OTF2_Reader_CloseEvtFiles(r);
        OTF2_Reader_Close(r);
    }
    return lost;
}

/* The advice after a write that failed with `err` (0: another reason). */
static const char *lw_write_hint(int err)
{
    return err == ENOSPC || err == EDQUOT ? ": check free disk space"
           : err == EFBIG                 ? ": check the file-size limit (ulimit -f)"
                                          : "";
}

static uint64_t lw_trace_finalize(const libwrap_region *const *regions, size_t nregions, uint64_t tick0,
                           uint64_t tick_end, uint64_t resolution, uint64_t epoch_ns)
{
    uint64_t written = 0, lost = 0;
    OTF2_ErrorCode rc;

    pthread_mutex_lock(&lw_threads_lock);
    if (lw_spill < 0) {
        pthread_mutex_unlock(&lw_threads_lock);
        return 0;
    }
    __atomic_store_n(&lw_closing, 1, __ATOMIC_SEQ_CST);
    for (lw_trace_thread *t = lw_threads; t; t = t->next) {
        /* An event in flight on another thread finishes in a few hundred
         * nanoseconds, or after an append to the temporary file. */
        while (t != lw_writing && __atomic_load_n(&t->busy, __ATOMIC_SEQ_CST))
            sched_yield();
        /* A thread still running has not ended: its last events. */
        if (t != lw_writing)
            lw_stage_flush(t);
        __atomic_sub_fetch(&lw_used, t->cap, __ATOMIC_RELAXED);
        free(t->buf);
        t->buf = NULL;
        t->len = t->cap = 0;
    }
    /* Gone: the events appended are lost with it. */
    if (!lw_spill_there())
        lw_spill_lost += lw_spill_events;
    if (lw_archive_open() < 0) {
        if (!lw_spill_gone)
            close(lw_spill);
        lw_spill = -1;
        pthread_mutex_unlock(&lw_threads_lock);
        return 0;
    }
    if (!lw_spill_gone) {
        lw_convert();
        close(lw_spill);
    }
    lw_spill = -1;
    for (lw_trace_thread *t = lw_threads; t; t = t->next) {
        lw_close_writer(t);
        written += t->events;
        lost += t->lost;
    }
    lw_write_samples();
    rc = OTF2_Archive_CloseEvtFiles(lw_archive);
    if (!rc)
        rc = lw_write_local_defs();
    if (!rc)
        rc = lw_write_global_defs(regions, nregions, tick0, tick_end, resolution, epoch_ns);
    if (!rc)
        rc = lw_write_properties();
    OTF2_ErrorCode rc_close = OTF2_Archive_Close(lw_archive);
    lw_archive_owner();
    if (!rc)
        rc = rc_close;
    __atomic_store_n(&lw_archive, NULL, __ATOMIC_RELAXED);
    if (lw_errors || lw_write_failed) {
        lost = lw_count_lost();
        written = 0;
        for (lw_trace_thread *t = lw_threads; t; t = t->next)
            written += t->events;
    }
    lost += lw_spill_lost;
    pthread_mutex_unlock(&lw_threads_lock);

    /* Free disk space is the advice only where writing failed for want of
     * it (the spill file, or the archive's own writes: no space, a quota,
     * a file-size limit), or for a reason not known; another error (no
     * rights, too many open files, the program closed the file) and
     * OTF2's refusal of an event are their own reasons. */
    int archive_err = !lw_errors                            ? ENOSPC /* not known */
                      : lw_first_code == OTF2_ERROR_ENOSPC ? ENOSPC
                      : lw_first_code == OTF2_ERROR_EDQUOT ? EDQUOT
                      : lw_first_code == OTF2_ERROR_EFBIG  ? EFBIG
                                                           : 0;
    const char *archive_hint = lw_write_hint(archive_err);
    const char *hint = "";
    if (lw_spill_lost && !lw_spill_gone)
        hint = lw_write_hint(lw_spill_errno);
    else if (!lw_spill_lost && lw_write_failed)
        hint = archive_hint;
    if (lost)
        lw_message("%" PRIu64 " of %" PRIu64 " events could not be written to '%s/traces' "
                   "(%s); the trace is incomplete%s",
                   lost, lost + written, lw_dir,
                   lw_spill_lost ? lw_spill_error : lw_errors ? lw_first_error : "unknown error", hint);
    if (rc)
        lw_message("cannot write the definitions of '%s/traces.otf2' (%s); the trace is "
                   "unreadable%s",
                   lw_dir, lw_errors ? lw_first_error : OTF2_Error_GetDescription(rc),
                   archive_hint);
    return written;
}

/* ---- the plugin --------------------------------------------------------- */


/* Whether a thread has events staged (a fork child's end: is there
 * anything to write?). */
static int lw_any_staged(void)
{
    int any = 0;
    pthread_mutex_lock(&lw_threads_lock);
    for (lw_trace_thread *t = lw_threads; t && !any; t = t->next)
        any = __atomic_load_n(&t->staged, __ATOMIC_RELAXED) != 0;
    pthread_mutex_unlock(&lw_threads_lock);
    return any;
}

static int lw_otf2_init(const libwrap_host *host, const char *request,
                        const libwrap_metric_info *metrics, uint32_t nmetrics)
{
    (void)request;
    lw_host = host;
    lw_metric_infos = metrics;
    lw_nmetrics = nmetrics > LIBWRAP_MAX_METRICS ? LIBWRAP_MAX_METRICS : nmetrics;
    const char *budget = host->setting ? host->setting("LIBWRAP_TOTAL_MEMORY") : NULL;
    if (budget && *budget)
        lw_budget_setting = (size_t)strtoull(budget, NULL, 10);
    lw_stage_size = lw_stage_bytes(lw_budget_setting);
    /* A job named for this node until rank 0 names it at MPI_Init (MPICH's
     * Hydra): the archive is opened at the first append, when MPI_Init has
     * returned. Opened at the first call (one traced before MPI_Init, or
     * MPI_Init itself where the MPI library is wrapped), it claimed the
     * node's name, libwrap-pmi-PID, for the job. */
    if (host->size >= offsetof(libwrap_host, directory_pending) + sizeof host->directory_pending &&
        host->directory_pending && host->directory_pending())
        lw_open_state = LW_OPEN_AT_APPEND;
    return 0;
}

static void *lw_otf2_thread_begin(uint32_t tid)
{
    lw_open_archive(LW_OPEN_AT_THREAD);
    return lw_trace_thread_begin(tid);
}

static void lw_otf2_enter(void *t, int32_t region, uint64_t ticks, const uint64_t *metrics)
{
    lw_trace_event(t, region, ticks, metrics);
}

static void lw_otf2_exit(void *t, int32_t region, uint64_t ticks, const uint64_t *metrics)
{
    lw_trace_event(t, -region, ticks, metrics);
}

static void lw_otf2_events(void *t, const libwrap_event *ev, size_t n)
{
    lw_trace_events(t, ev, n);
}

static void lw_otf2_argument(void *t, int32_t region, uint64_t ticks, const libwrap_argument *a)
{
    lw_trace_argument(t, region, ticks, a);
}

static void lw_otf2_thread_end(void *t)
{
    lw_trace_thread_end(t);
}

/* In a fork child: the parent's temporary file, staged events, archive
 * and references are the parent's; the child's trace begins empty, to be
 * opened in its own directory (lw_open_archive). The runtime then begins
 * the child's thread again (thread_begin). The calls open at the fork are
 * the parent's: their exits are not the child's events either. */
static void lw_otf2_fork(void)
{
    pthread_mutex_init(&lw_open_lock, NULL);
    pthread_mutex_init(&lw_threads_lock, NULL);
    pthread_mutex_init(&lw_spill_lock, NULL);
    pthread_mutex_init(&lw_args_lock, NULL);
    if (lw_spill >= 0 && lw_fd_same(lw_spill, &lw_spill_id))
        close(lw_spill);
    lw_spill = -1;
    lw_spill_gone = 0;
    lw_spill_failed = 0;
    lw_spill_lost = 0;
    lw_spill_events = 0;
    lw_spill_error[0] = 0;
    lw_archive = NULL;
    lw_threads = NULL;
    lw_dir = NULL; /* the parent's copy is left, as the rest of its state */
    lw_used = 0;
    lw_closing = 0;
    lw_samples_written = 0;
    lw_process = (lw_trace_process){.rank = -1};
    lw_ngparams = lw_ngstrings = 0;
    lw_gparams_cap = lw_gstrings_cap = 0;
    lw_gparams = NULL;
    lw_gstrings = NULL;
    lw_gparams_index = lw_gstrings_index = NULL;
    lw_gparams_mask = lw_gstrings_mask = 0;
    __atomic_store_n(&lw_open_state, LW_OPEN_AT_APPEND, __ATOMIC_RELEASE);
}

static void lw_otf2_finalize(const libwrap_process_end *end)
{
    lw_all_metrics = end->metrics;
    lw_nall_metrics = end->nmetrics;
    lw_samples = end->samples;
    lw_nsamples = end->nsamples;
    if (end->rank >= 0) {
        lw_trace_process p = {end->rank, end->size, end->host, end->npoints, end->point_ticks,
                              end->point_ns};
        lw_trace_set_process(&p);
    }
    /* A fork child with events and no archive yet opens it now. */
    if (__atomic_load_n(&lw_open_state, __ATOMIC_ACQUIRE) == LW_OPEN_AT_APPEND && lw_any_staged())
        lw_open_archive(LW_OPEN_AT_APPEND);
    lw_xfsz x; /* a file-size limit fails the archive's writes, without SIGXFSZ */
    lw_xfsz_hold(&x);
    uint64_t n = lw_trace_finalize(end->regions, end->nregions, end->tick0, end->tick_end,
                                   end->resolution, end->epoch_ns);
    lw_xfsz_release(&x);
    if (lw_dir)
        lw_host->verbose(&lw_plugin, "wrote %" PRIu64 " events to %s/traces.otf2", n, lw_dir);
}

static double lw_ms_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) * 1e3 + (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

/* LIBWRAP_TRACE_MERGE=false: libwrap-report --merge merges, afterwards. */
static int lw_merge_later(void)
{
    const char *merge = lw_host->setting("LIBWRAP_TRACE_MERGE");
    return merge && strcmp(merge, "false") == 0;
}

/* A group of a large job: its parts into the group's archive, numbered as
 * the job's (otf2_merge.h), so that the job's merge is left a few files a
 * group. */
static void lw_otf2_group_complete(const char *dir, const char *group_dir)
{
    char err[512] = "";
    size_t parts = 0;
    struct timespec t0;
    const char *base = strrchr(group_dir, '/');
    if (lw_merge_later() || !base)
        return;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = lw_trace_merge_group(dir, strtol(base + 1, NULL, 10), &parts, err, sizeof err);
    if (rc < 0)
        lw_message("cannot merge the trace of %s: %s; the job's trace is merged from the ranks' "
                   "parts instead", group_dir, err);
    else if (rc == 0)
        lw_host->verbose(&lw_plugin, "merged %zu trace parts into %s/traces.otf2 in %.1f ms", parts,
                         group_dir, lw_ms_since(&t0));
}

static void lw_otf2_job_complete(const char *dir)
{
    char err[512] = "";
    size_t parts = 0;
    struct timespec t0;
    if (lw_merge_later()) {
        lw_host->verbose(&lw_plugin, "LIBWRAP_TRACE_MERGE=false: libwrap-report --merge %s merges the trace", dir);
        return;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    /* A job of groups: out of the group archives; else, or when a group
     * has none, out of the parts. */
    int rc = lw_trace_merge_groups(dir, &parts, err, sizeof err);
    if (rc == 0) {
        lw_host->verbose(&lw_plugin, "merged the group archives of %zu trace parts into %s/traces.otf2 in %.1f ms",
                         parts, dir, lw_ms_since(&t0));
        return;
    }
    if (rc < 0)
        lw_message("cannot merge the job's trace in %s from its groups: %s; merging it from the "
                   "ranks' parts", dir, err);
    err[0] = 0;
    if (lw_trace_merge_job(dir, &parts, err, sizeof err) < 0) {
        lw_message("cannot merge the job's trace in %s: %s; libwrap-report --merge %s merges it "
                   "later", dir, err, dir);
        return;
    }
    lw_host->verbose(&lw_plugin, "merged %zu trace parts into %s/traces.otf2 in %.1f ms", parts, dir,
                     lw_ms_since(&t0));
}

static const libwrap_listener lw_otf2_listener = {
    .init = lw_otf2_init,
    .thread_begin = lw_otf2_thread_begin,
    .enter = lw_otf2_enter,
    .exit = lw_otf2_exit,
    .argument = lw_otf2_argument,
    .thread_end = lw_otf2_thread_end,
    .fork = lw_otf2_fork,
    .finalize = lw_otf2_finalize,
    .job_complete = lw_otf2_job_complete,
    .group_complete = lw_otf2_group_complete,
    .events = lw_otf2_events,
};

static const libwrap_plugin lw_plugin = {LIBWRAP_PLUGIN_ABI_VERSION,
                                         LIBWRAP_PLUGIN_LISTENER | LIBWRAP_PLUGIN_EVENTS, "otf2",
                                         NULL, &lw_otf2_listener};
LIBWRAP_PLUGIN_DEFINE(lw_plugin)
