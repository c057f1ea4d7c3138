/*
 * live.c - an example event listener for libwrap: a live call counter
 * (README.md).
 *
 *     LIBWRAP_LISTENERS=live  LIBWRAP_LISTENER_LIVE=MS (default 1000)
 *
 * Counts the entries of every measured function and keeps
 * <experiment directory>/live.txt up to date while the program runs: one
 * line "COUNT NAME" per function, most-called first, rewritten every MS
 * milliseconds by a thread of the plugin (written to a temporary file and
 * renamed, so a reader never sees half a file), and a last time with the
 * final counts when measurement ends. `watch cat DIR/live.txt` follows a
 * running program.
 *
 * The hot path (enter) adds one to a counter of the calling thread: no
 * lock, no atomic read-modify-write, no allocation. Each thread has its own
 * table of counters by region id, allocated in chunks outside the hot path:
 * when the thread begins (for the regions known then) and when the runtime
 * announces a region (for every thread). The writer sums the threads'
 * tables with plain atomic loads.
 *
 * Nothing is created before the process's first measured call: the
 * experiment directory is asked for then, so a process that measures
 * nothing (a launcher, a shell) leaves nothing behind.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libwrap/plugin.h>

static const libwrap_plugin live_plugin;

#define LIVE_CHUNK 1024u      /* counters per chunk */
#define LIVE_MAX_CHUNKS 1024u /* region ids below LIVE_CHUNK * LIVE_MAX_CHUNKS are counted */

typedef struct live_thread {
    /* chunk[c][i]: entries of region c * LIVE_CHUNK + i on this thread.
     * Published with a release store, read by enter with an acquire load;
     * written by the thread only, read by the writer. */
    uint64_t *chunk[LIVE_MAX_CHUNKS];
    struct live_thread *next;
} live_thread;

static struct {
    const libwrap_host *host;
    unsigned interval_ms;
    /* Guards everything below; never held while calling the runtime (the
     * runtime's locks come first: internal lock order). */
    pthread_mutex_t lock;
    pthread_cond_t wake;
    live_thread *threads; /* every thread's table, ended ones too */
    const char **names;   /* names[id], learned from `region` */
    uint32_t nnames;      /* capacity of names */
    uint32_t maxid;       /* the highest region id announced */
    int started;          /* the first thread has begun */
    int forked;           /* a fork() child: no writer thread */
    char *dir;            /* the experiment directory, once asked for */
    int running, stop;
    pid_t writer_pid; /* the process the writer thread runs in */
    pthread_t writer;
    uint64_t last_total; /* calls in the last live.txt written */
    int too_many;        /* a region id beyond the table: said once */
} live = {.lock = PTHREAD_MUTEX_INITIALIZER, .interval_ms = 1000};

static uint64_t live_lost; /* entries with no counter (out of memory, id too large) */

/* ---- counting ------------------------------------------------------------ */

/* Allocates t's chunks up to region maxid; with live.lock held. */
static void live_thread_cover(live_thread *t, uint32_t maxid)
{
    uint32_t last = maxid / LIVE_CHUNK;
    if (last >= LIVE_MAX_CHUNKS)
        last = LIVE_MAX_CHUNKS - 1;
    for (uint32_t c = 0; c <= last; c++)
        if (!t->chunk[c]) {
            uint64_t *chunk = calloc(LIVE_CHUNK, sizeof *chunk);
            if (chunk) /* else that chunk's calls are lost (and said at the end) */
                __atomic_store_n(&t->chunk[c], chunk, __ATOMIC_RELEASE);
        }
}

/* Hot path. */
static void live_enter(void *thread, int32_t region, uint64_t ticks, const uint64_t *metrics)
{
    (void)ticks;
    (void)metrics;
    live_thread *t = thread;
    uint32_t id = (uint32_t)region;
    uint64_t *chunk = t && id / LIVE_CHUNK < LIVE_MAX_CHUNKS
                          ? __atomic_load_n(&t->chunk[id / LIVE_CHUNK], __ATOMIC_ACQUIRE)
                          : NULL;
    if (!chunk) {
        __atomic_fetch_add(&live_lost, 1, __ATOMIC_RELAXED);
        return;
    }
    /* One writer per counter: a plain increment, made visible to the
     * writer thread's loads without a locked instruction. */
    uint64_t *c = &chunk[id % LIVE_CHUNK];
    __atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
}

/* The count of region id over all threads; with live.lock held. */
static uint64_t live_count(uint32_t id)
{
    uint64_t n = 0;
    if (id / LIVE_CHUNK >= LIVE_MAX_CHUNKS)
        return 0;
    for (live_thread *t = live.threads; t; t = t->next) {
        const uint64_t *chunk = __atomic_load_n(&t->chunk[id / LIVE_CHUNK], __ATOMIC_ACQUIRE);
        if (chunk)
            n += __atomic_load_n(&chunk[id % LIVE_CHUNK], __ATOMIC_RELAXED);
    }
    return n;
}

/* ---- live.txt ------------------------------------------------------------ */

typedef struct live_line {
    uint64_t count;
    const char *name;
} live_line;

static int live_line_cmp(const void *a, const void *b)
{
    const live_line *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Writes dir/live.txt through a temporary file and rename(): a reader sees
 * the old file or the new one. 0, or -1 with errno. */
static int live_write_file(const char *dir, live_line *lines, size_t n)
{
    qsort(lines, n, sizeof *lines, live_line_cmp);
    char tmp[4096], path[4096];
    if (snprintf(tmp, sizeof tmp, "%s/.live.txt.%ld", dir, (long)getpid()) >= (int)sizeof tmp ||
        snprintf(path, sizeof path, "%s/live.txt", dir) >= (int)sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    FILE *f = fopen(tmp, "we");
    if (!f)
        return -1;
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%llu %s\n", (unsigned long long)lines[i].count, lines[i].name);
    int err = ferror(f);
    if (fclose(f) != 0 || err || rename(tmp, path) != 0) {
        int saved = errno ? errno : EIO;
        unlink(tmp);
        errno = saved;
        return -1;
    }
    return 0;
}

/* The counts of the regions announced so far, written if they changed.
 * Called by the writer thread. */
static void live_write_now(void)
{
    pthread_mutex_lock(&live.lock);
    live_line *lines = calloc(live.maxid + 1, sizeof *lines);
    size_t n = 0;
    uint64_t total = 0;
    for (uint32_t id = 1; lines && id <= live.maxid; id++) {
        uint64_t c = live_count(id);
        if (c && id < live.nnames && live.names[id]) {
            lines[n++] = (live_line){c, live.names[id]};
            total += c;
        }
    }
    /* Counts only grow: the same total is the same file. */
    int changed = total != live.last_total;
    live.last_total = total;
    char *dir = live.dir;
    pthread_mutex_unlock(&live.lock);
    if (lines && changed && dir && live_write_file(dir, lines, n) != 0)
        live.host->verbose(&live_plugin, "cannot write %s/live.txt: %s", dir, strerror(errno));
    free(lines);
}

static void *live_writer_main(void *arg)
{
    (void)arg;
    /* Nothing this thread calls (stdio, rename) is the program's: not
     * measured, even where those functions are wrapped. */
    live.host->thread_ignore();
    pthread_mutex_lock(&live.lock);
    while (!live.stop) {
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_sec += live.interval_ms / 1000;
        until.tv_nsec += (long)(live.interval_ms % 1000) * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        while (!live.stop && pthread_cond_timedwait(&live.wake, &live.lock, &until) != ETIMEDOUT)
            ;
        if (live.stop)
            break;
        pthread_mutex_unlock(&live.lock);
        live_write_now();
        pthread_mutex_lock(&live.lock);
    }
    pthread_mutex_unlock(&live.lock);
    return NULL;
}

/* ---- the listener -------------------------------------------------------- */

static void live_init_cond(void)
{
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&live.wake, &ca);
    pthread_condattr_destroy(&ca);
}

static int live_init(const libwrap_host *host, const char *request,
                     const libwrap_metric_info *metrics, uint32_t nmetrics)
{
    (void)metrics;
    (void)nmetrics;
    live.host = host;
    if (request) {
        char *end;
        errno = 0;
        unsigned long ms = strtoul(request, &end, 10);
        if (errno || end == request || *end || ms < 1 || ms > 86400000)
            host->warn(&live_plugin, "LIBWRAP_LISTENER_LIVE='%s' is not a number of "
                       "milliseconds (1 to 86400000); live.txt is rewritten every %u ms",
                       request, live.interval_ms);
        else
            live.interval_ms = (unsigned)ms;
    }
    live_init_cond();
    return 0;
}

static void live_region(int32_t id, const libwrap_region *region)
{
    if (id <= 0)
        return;
    uint32_t u = (uint32_t)id;
    pthread_mutex_lock(&live.lock);
    if (u >= live.nnames) {
        uint32_t cap = live.nnames ? live.nnames : 256;
        while (cap <= u)
            cap *= 2;
        const char **names = realloc(live.names, cap * sizeof *names);
        if (names) {
            memset(names + live.nnames, 0, (cap - live.nnames) * sizeof *names);
            live.names = names;
            live.nnames = cap;
        }
    }
    if (u < live.nnames)
        live.names[u] = region->name ? region->name : region->symbol;
    if (u > live.maxid)
        live.maxid = u;
    if (u / LIVE_CHUNK >= LIVE_MAX_CHUNKS && !live.too_many) {
        live.too_many = 1;
        live.host->warn(&live_plugin, "more than %u functions: the calls of the later ones are "
                        "not counted", LIVE_CHUNK * LIVE_MAX_CHUNKS - 1);
    }
    for (live_thread *t = live.threads; t; t = t->next)
        live_thread_cover(t, u);
    pthread_mutex_unlock(&live.lock);
}

/* Starts the writer; with live.lock held. */
static void live_start_writer_locked(void)
{
    /* The writer takes none of the program's signals. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    live.stop = 0;
    int rc = pthread_create(&live.writer, NULL, live_writer_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0)
        live.host->warn(&live_plugin, "cannot start the writer thread: %s; live.txt is written "
                        "at the end only", strerror(rc));
    else {
        live.running = 1;
        live.writer_pid = getpid();
    }
}

static void *live_thread_begin(uint32_t tid)
{
    (void)tid;
    live_thread *t = calloc(1, sizeof *t);
    pthread_mutex_lock(&live.lock);
    if (t) {
        live_thread_cover(t, live.maxid);
        t->next = live.threads;
        live.threads = t;
    }
    int first = !live.started && !live.forked;
    live.started = 1;
    pthread_mutex_unlock(&live.lock);
    if (first) {
        /* The first measured call: the process will leave results, so the
         * directory may be created now. Asked for outside our lock (the
         * runtime's directory lock comes before a plugin's). */
        const char *dir = live.host->experiment_directory();
        char *copy = dir ? strdup(dir) : NULL;
        pthread_mutex_lock(&live.lock);
        live.dir = copy;
        if (copy)
            live_start_writer_locked();
        pthread_mutex_unlock(&live.lock);
        if (copy)
            live.host->verbose(&live_plugin, "%s/live.txt rewritten every %u ms", copy,
                               live.interval_ms);
    }
    return t;
}

static void live_fork(void)
{
    /* In the child: the writer thread is the parent's and does not exist
     * here (nothing to stop or join), the lock may have been held by it at
     * the fork, the directory is the parent's, and the counts are the
     * parent's calls. The child counts its own from zero and writes its
     * live.txt at its end, into its own directory: during the fork the
     * runtime cannot yet tell which that is. */
    pthread_mutex_init(&live.lock, NULL);
    live_init_cond();
    for (live_thread *t = live.threads, *next; t; t = next) {
        next = t->next;
        for (uint32_t c = 0; c < LIVE_MAX_CHUNKS; c++)
            free(t->chunk[c]);
        free(t);
    }
    live.threads = NULL;
    free(live.dir);
    live.dir = NULL;
    live.running = 0;
    live.stop = 0;
    live.forked = 1;
    live.last_total = 0;
    __atomic_store_n(&live_lost, 0, __ATOMIC_RELAXED);
}

static void live_finalize(const libwrap_process_end *end)
{
    pthread_mutex_lock(&live.lock);
    /* A child forked where the runtime could not tell us (fork() from a
     * callback) has no writer either. */
    int running = live.running && live.writer_pid == getpid();
    live.stop = 1;
    pthread_cond_signal(&live.wake);
    pthread_mutex_unlock(&live.lock);
    if (running) {
        pthread_join(live.writer, NULL);
        live.running = 0;
    }
    /* The final counts, every thread ended: named from the runtime's own
     * table of regions (id i + 1 is regions[i]). */
    live_line *lines = calloc(end->nregions + 1, sizeof *lines);
    size_t n = 0;
    uint64_t total = 0;
    pthread_mutex_lock(&live.lock);
    for (uint32_t i = 0; lines && i < end->nregions; i++) {
        uint64_t c = live_count(i + 1);
        const libwrap_region *r = end->regions[i];
        if (c && r) {
            lines[n++] = (live_line){c, r->name ? r->name : r->symbol};
            total += c;
        }
    }
    char *dir = live.dir;
    pthread_mutex_unlock(&live.lock);
    if (!dir && live.forked && total) {
        const char *d = live.host->experiment_directory();
        dir = live.dir = d ? strdup(d) : NULL;
    }
    if (!lines)
        live.host->warn(&live_plugin, "out of memory: live.txt keeps its last counts");
    else if (dir && live_write_file(dir, lines, n) != 0)
        live.host->warn(&live_plugin, "cannot write %s/live.txt: %s", dir, strerror(errno));
    else if (dir)
        live.host->verbose(&live_plugin, "%llu calls of %zu functions in %s/live.txt",
                           (unsigned long long)total, n, dir);
    uint64_t lost = __atomic_load_n(&live_lost, __ATOMIC_RELAXED);
    if (lost)
        live.host->warn(&live_plugin, "%llu calls were not counted (out of memory, or more "
                        "than %u functions)", (unsigned long long)lost,
                        LIVE_CHUNK * LIVE_MAX_CHUNKS - 1);
    free(lines);
}

static const libwrap_listener live_listener = {
    .init = live_init,
    .region = live_region,
    .thread_begin = live_thread_begin,
    .enter = live_enter,
    .fork = live_fork,
    .finalize = live_finalize,
};

static const libwrap_plugin live_plugin = {LIBWRAP_PLUGIN_ABI_VERSION, LIBWRAP_PLUGIN_LISTENER,
                                           "live", NULL, &live_listener};
LIBWRAP_PLUGIN_DEFINE(live_plugin)
