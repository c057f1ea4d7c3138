/*
 * proc.c - an example metric source for libwrap: what the kernel counts
 * in /proc for the measured threads (README.md).
 *
 *     LIBWRAP_METRIC_PLUGINS=proc
 *     LIBWRAP_METRIC_PROC=rchar,wchar,syscr,syscw,read_bytes,write_bytes,rss[@MS]
 *
 * SYNC metrics, read on the measured thread at every entry and exit: the
 * per-thread I/O counters of /proc/thread-self/io (rchar, wchar: bytes
 * passed by read/write-like calls; syscr, syscw: their count; read_bytes,
 * write_bytes: bytes that reached the storage layer). Each thread keeps its
 * file open and reads it again with pread() at offset 0: one system call
 * per entry and exit. That read is itself counted by the kernel (rchar
 * grows by the bytes it returned, syscr by one), so the plugin subtracts its
 * own reads: a call that reads N bytes is charged exactly N.
 *
 * An ASYNC metric, rss: the resident set size of the process in bytes from
 * /proc/self/statm, taken by a thread of the plugin every 10 ms (rss@MS:
 * every MS ms) and handed to the runtime with host->sample(). It lands in
 * profile.json's "samples". The thread starts at the process's first
 * measured call (a process that measures nothing gets none) and is stopped
 * and joined at the end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <libwrap/plugin.h>

static const libwrap_host *proc_host;
static const libwrap_plugin proc_plugin;

/* ---- the I/O counters ---------------------------------------------------- */

#define PROC_IO_PATH "/proc/thread-self/io"

enum { IO_RCHAR, IO_WCHAR, IO_SYSCR, IO_SYSCW, IO_READ_BYTES, IO_WRITE_BYTES, IO_NFIELDS };

static const struct {
    const char *name, *unit, *description;
} proc_io_fields[IO_NFIELDS] = {
    [IO_RCHAR] = {"rchar", "bytes", "bytes read by read(2) and the like"},
    [IO_WCHAR] = {"wchar", "bytes", "bytes written by write(2) and the like"},
    [IO_SYSCR] = {"syscr", "#", "read system calls"},
    [IO_SYSCW] = {"syscw", "#", "write system calls"},
    [IO_READ_BYTES] = {"read_bytes", "bytes", "bytes fetched from the storage layer"},
    [IO_WRITE_BYTES] = {"write_bytes", "bytes", "bytes sent to the storage layer"},
};

#define PROC_ACCEPTED "rchar, wchar, syscr, syscw, read_bytes, write_bytes, rss, rss@MS"

/* The SYNC metrics chosen, in the order init gave them. */
static int proc_sync[LIBWRAP_MAX_METRICS];
static uint32_t proc_nsync;

typedef struct proc_thread {
    int fd; /* PROC_IO_PATH of the thread, or -1: its values stay 0 */
    /* What this handle's own preads added to rchar and syscr. */
    uint64_t own_bytes, own_calls;
    uint64_t last[IO_NFIELDS]; /* the last values read, kept when a read fails */
} proc_thread;

/* Parses the "name: value" lines of PROC_IO_PATH into v[]; returns the
 * set of fields found (bit i: field i). */
static unsigned proc_io_parse(const char *buf, size_t len, uint64_t *v)
{
    unsigned found = 0;
    const char *p = buf, *end = buf + len;
    while (p < end) {
        const char *colon = memchr(p, ':', (size_t)(end - p));
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            nl = end;
        if (colon && colon < nl) {
            size_t n = (size_t)(colon - p);
            for (int f = 0; f < IO_NFIELDS; f++) {
                if (strlen(proc_io_fields[f].name) != n || memcmp(p, proc_io_fields[f].name, n))
                    continue;
                uint64_t x = 0;
                for (const char *q = colon + 1; q < nl; q++)
                    if (*q >= '0' && *q <= '9')
                        x = x * 10 + (uint64_t)(*q - '0');
                v[f] = x;
                found |= 1u << f;
                break;
            }
        }
        p = nl + 1;
    }
    return found;
}

/* One read of the thread's counters into t->last, its own read subtracted. */
static void proc_io_read(proc_thread *t)
{
    char buf[512];
    ssize_t n = pread(t->fd, buf, sizeof buf, 0);
    if (n <= 0)
        return;
    uint64_t v[IO_NFIELDS] = {0};
    proc_io_parse(buf, (size_t)n, v);
    /* The text shows the counters before this read: earlier reads of this
     * handle are in them, this one is not. */
    v[IO_RCHAR] -= t->own_bytes;
    v[IO_SYSCR] -= t->own_calls;
    t->own_bytes += (uint64_t)n;
    t->own_calls++;
    memcpy(t->last, v, sizeof v);
}

/* ---- rss, sampled by a thread of the plugin ------------------------------ */

static struct {
    int wanted;
    uint32_t index;       /* its place in what init returned */
    unsigned interval_ms;
    long page;
    pthread_mutex_t lock; /* guards the fields below */
    pthread_cond_t wake;  /* stop requests */
    int running, stop;
    pthread_t thread;
    int fd;               /* /proc/self/statm of this process, or -1 */
} proc_rss = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER, .fd = -1};

static int proc_rss_read(int fd, uint64_t *bytes)
{
    char buf[128];
    /* The system call itself, not libc's pread: the same path as the
     * per-thread counters, whose own reads are subtracted. */
    ssize_t n = syscall(SYS_pread64, fd, buf, sizeof buf - 1, (off_t)0);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    unsigned long long size, resident;
    if (sscanf(buf, "%llu %llu", &size, &resident) != 2)
        return -1;
    *bytes = (uint64_t)resident * (uint64_t)proc_rss.page;
    return 0;
}

static void *proc_rss_main(void *arg)
{
    (void)arg;
    /* Nothing this thread calls is the program's: not measured. */
    proc_host->thread_ignore();
    pthread_mutex_lock(&proc_rss.lock);
    while (!proc_rss.stop) {
        int fd = proc_rss.fd;
        pthread_mutex_unlock(&proc_rss.lock);
        uint64_t bytes;
        if (proc_rss_read(fd, &bytes) == 0)
            proc_host->sample(&proc_plugin, proc_rss.index, proc_host->now(), bytes);
        pthread_mutex_lock(&proc_rss.lock);
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_sec += proc_rss.interval_ms / 1000;
        until.tv_nsec += (long)(proc_rss.interval_ms % 1000) * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        while (!proc_rss.stop &&
               pthread_cond_timedwait(&proc_rss.wake, &proc_rss.lock, &until) != ETIMEDOUT)
            ;
    }
    pthread_mutex_unlock(&proc_rss.lock);
    return NULL;
}

/* Starts the sampler unless it runs; with proc_rss.lock held. */
static void proc_rss_start_locked(void)
{
    if (!proc_rss.wanted || proc_rss.running)
        return;
    /* /proc/self names the process that opens it: opened here, in the
     * process that samples (a fork child opens its own). */
    proc_rss.fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (proc_rss.fd < 0) {
        proc_host->warn(&proc_plugin, "cannot open /proc/self/statm: %s; rss is not sampled",
                        strerror(errno));
        proc_rss.wanted = 0;
        return;
    }
    /* The sampler takes none of the program's signals: a process-directed
     * signal meant for the program must not land on our thread. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    proc_rss.stop = 0;
    int rc = pthread_create(&proc_rss.thread, NULL, proc_rss_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        proc_host->warn(&proc_plugin, "cannot start the rss sampler thread: %s; rss is not "
                        "sampled", strerror(rc));
        close(proc_rss.fd);
        proc_rss.fd = -1;
        proc_rss.wanted = 0;
        return;
    }
    proc_rss.running = 1;
    proc_host->verbose(&proc_plugin, "rss sampled every %u ms", proc_rss.interval_ms);
}

/* In a fork() child: the sampler thread is the parent's and does not exist
 * here, the lock may have been held by it at the fork, and the statm
 * descriptor reads the parent. The child's first measured thread starts a
 * sampler of its own (proc_thread_begin). */
static void proc_atfork_child(void)
{
    /* Initialised again, not destroyed: the parent's sampler may have been
     * waiting on the condition, and destroying it would wait for that
     * thread, which the child does not have. */
    pthread_mutex_init(&proc_rss.lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&proc_rss.wake, &ca);
    pthread_condattr_destroy(&ca);
    if (proc_rss.fd >= 0)
        close(proc_rss.fd);
    proc_rss.fd = -1;
    proc_rss.running = 0;
    proc_rss.stop = 0;
}

/* ---- the metric source --------------------------------------------------- */

typedef struct proc_parse {
    libwrap_metric_info *out;
    uint32_t room, n;
    int io_ok;          /* PROC_IO_PATH is readable */
    unsigned io_fields; /* the fields it has */
    char io_why[160];   /* why not */
    char io_refused[256]; /* the I/O fields asked for and left out, for one warning */
    unsigned io_refused_set;
} proc_parse;

static int proc_add(proc_parse *p, libwrap_metric_info info)
{
    for (uint32_t i = 0; i < p->n; i++)
        if (!strcmp(p->out[i].name, info.name))
            return -1; /* named twice */
    if (p->n == p->room) {
        proc_host->warn(&proc_plugin, "too many metrics (at most %d in all); continuing "
                        "without '%s'", LIBWRAP_MAX_METRICS, info.name);
        return -1;
    }
    p->out[p->n++] = info;
    return 0;
}

static void proc_name(proc_parse *p, const char *name, size_t len)
{
    for (int f = 0; f < IO_NFIELDS; f++) {
        if (strlen(proc_io_fields[f].name) != len || memcmp(name, proc_io_fields[f].name, len))
            continue;
        if (!p->io_ok || !(p->io_fields & (1u << f))) {
            size_t used = strlen(p->io_refused);
            if (p->io_refused_set & (1u << f))
                return; /* named twice */
            p->io_refused_set |= 1u << f;
            snprintf(p->io_refused + used, sizeof p->io_refused - used, "%s%s", used ? ", " : "",
                     proc_io_fields[f].name);
            return;
        }
        libwrap_metric_info info = {proc_io_fields[f].name, proc_io_fields[f].unit,
                                    proc_io_fields[f].description, LIBWRAP_METRIC_ACCUMULATED,
                                    LIBWRAP_METRIC_SYNC};
        if (proc_add(p, info) == 0)
            proc_sync[proc_nsync++] = f;
        return;
    }
    if (len >= 3 && !memcmp(name, "rss", 3) && (len == 3 || name[3] == '@')) {
        unsigned ms = 10;
        if (len > 3) {
            char num[16];
            size_t nlen = len - 4;
            char *end = NULL;
            unsigned long v = 0;
            if (nlen > 0 && nlen < sizeof num) {
                memcpy(num, name + 4, nlen);
                num[nlen] = '\0';
                errno = 0;
                v = strtoul(num, &end, 10);
            }
            if (!end || *end || errno || v < 1 || v > 3600000) {
                proc_host->warn(&proc_plugin, "'%.*s': the interval after '@' must be 1 to "
                                "3600000 milliseconds; sampling every 10 ms", (int)len, name);
            } else {
                ms = (unsigned)v;
            }
        }
        if (proc_rss.wanted)
            return; /* named twice */
        int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
        uint64_t bytes;
        if (fd < 0 || proc_rss_read(fd, &bytes) != 0) {
            proc_host->warn(&proc_plugin, "cannot read /proc/self/statm (%s); continuing "
                            "without rss", fd < 0 ? strerror(errno) : "unexpected content");
            if (fd >= 0)
                close(fd);
            return;
        }
        close(fd);
        libwrap_metric_info info = {"rss", "bytes", "resident set size of the process",
                                    LIBWRAP_METRIC_ABSOLUTE, LIBWRAP_METRIC_ASYNC};
        uint32_t index = p->n;
        if (proc_add(p, info) == 0) {
            proc_rss.wanted = 1;
            proc_rss.index = index;
            proc_rss.interval_ms = ms;
        }
        return;
    }
    proc_host->warn(&proc_plugin, "unknown metric '%.*s' (accepted: " PROC_ACCEPTED
                    "); continuing without it", (int)len, name);
}

/* Whether PROC_IO_PATH can be read here, and which fields it has. */
static void proc_io_probe(proc_parse *p)
{
    int fd = open(PROC_IO_PATH, O_RDONLY | O_CLOEXEC);
    char buf[512];
    ssize_t n = fd >= 0 ? pread(fd, buf, sizeof buf, 0) : -1;
    if (n <= 0) {
        snprintf(p->io_why, sizeof p->io_why, "%s", n == 0 ? "it is empty" : strerror(errno));
    } else {
        uint64_t v[IO_NFIELDS];
        p->io_fields = proc_io_parse(buf, (size_t)n, v);
        p->io_ok = 1;
    }
    if (fd >= 0)
        close(fd);
}

static int proc_init(const libwrap_host *host, const char *request, libwrap_metric_info *out,
                     uint32_t room)
{
    proc_host = host;
    proc_parse p = {.out = out, .room = room};
    proc_io_probe(&p);
    proc_nsync = 0;
    proc_rss.wanted = 0;
    proc_rss.page = sysconf(_SC_PAGESIZE);
    /* Each item of the comma list, blanks around it ignored. */
    const char *s = request ? request : "rchar,wchar";
    while (*s) {
        const char *comma = strchr(s, ',');
        const char *b = s, *e = comma ? comma : s + strlen(s);
        while (b < e && (*b == ' ' || *b == '\t'))
            b++;
        while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        if (e > b)
            proc_name(&p, b, (size_t)(e - b));
        if (!comma)
            break;
        s = comma + 1;
    }
    /* One warning for every I/O field that cannot be had. */
    if (p.io_refused[0]) {
        if (!p.io_ok)
            host->warn(&proc_plugin, "cannot read " PROC_IO_PATH " (%s): per-thread I/O "
                       "accounting is not available here (kernel without "
                       "CONFIG_TASK_IO_ACCOUNTING, or a container that hides it); continuing "
                       "without %s", p.io_why, p.io_refused);
        else
            host->warn(&proc_plugin, PROC_IO_PATH " has no %s here; continuing without it",
                       p.io_refused);
    }
    if (proc_rss.wanted) {
        pthread_condattr_t ca;
        pthread_condattr_init(&ca);
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        pthread_cond_init(&proc_rss.wake, &ca);
        pthread_condattr_destroy(&ca);
        pthread_atfork(NULL, NULL, proc_atfork_child);
    }
    return (int)p.n;
}

static void *proc_thread_begin(uint32_t tid)
{
    (void)tid;
    /* The process's first measured call (or the child's, after fork):
     * from now on samples count. */
    pthread_mutex_lock(&proc_rss.lock);
    proc_rss_start_locked();
    pthread_mutex_unlock(&proc_rss.lock);
    if (!proc_nsync)
        return NULL;
    proc_thread *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->fd = open(PROC_IO_PATH, O_RDONLY | O_CLOEXEC);
    if (t->fd < 0) {
        /* Usually the descriptor limit. */
        static int warned;
        if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
            proc_host->warn(&proc_plugin, "cannot open " PROC_IO_PATH " on a new thread: %s; "
                            "the I/O counters of such threads read 0", strerror(errno));
    }
    return t;
}

/* Hot path: one pread, no lock, no allocation. */
static void proc_read(void *thread, uint64_t *values)
{
    proc_thread *t = thread;
    if (t && t->fd >= 0)
        proc_io_read(t);
    for (uint32_t i = 0; i < proc_nsync; i++)
        values[i] = t ? t->last[proc_sync[i]] : 0;
}

static void proc_thread_end(void *thread)
{
    proc_thread *t = thread;
    if (!t)
        return;
    if (t->fd >= 0)
        close(t->fd);
    free(t);
}

static void proc_finalize(void)
{
    pthread_mutex_lock(&proc_rss.lock);
    int running = proc_rss.running;
    proc_rss.stop = 1;
    pthread_cond_signal(&proc_rss.wake);
    pthread_mutex_unlock(&proc_rss.lock);
    if (running) {
        pthread_join(proc_rss.thread, NULL);
        proc_rss.running = 0;
    }
    if (proc_rss.fd >= 0)
        close(proc_rss.fd);
    proc_rss.fd = -1;
}

static const libwrap_metric_source proc_source = {
    .init = proc_init,
    .thread_begin = proc_thread_begin,
    .read = proc_read,
    .thread_end = proc_thread_end,
    .finalize = proc_finalize,
};

static const libwrap_plugin proc_plugin = {LIBWRAP_PLUGIN_ABI_VERSION, LIBWRAP_PLUGIN_METRIC,
                                           "proc", &proc_source, NULL};
LIBWRAP_PLUGIN_DEFINE(proc_plugin)
