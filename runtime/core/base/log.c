/*
 * log.c - the runtime's one message path: warnings and the verbose log.
 *
 * Every message is one line on fd 2, "libwrap: [rank N: ]warning: ..." or
 * "libwrap: [rank N: ][domain] ...", written with one write(2): no stdio
 * state of the measured program is touched, lines of several threads do
 * not interleave, and errno is kept. Plugins speak through the same path
 * (libwrap_host.warn, .verbose). What the start-up says is held until the
 * process calls a wrapped function (lw_messages_release): a process that
 * inherits LD_PRELOAD and never calls the library (a shell, `nice`,
 * `md5sum` in the pipeline of a measured program) says nothing.
 */
#include "core/base/base.h"
#include "xfsz.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The names of LIBWRAP_VERBOSE's domains, bit i of lw_log_domain. */
static const char *const lw_log_names[] = {"config",  "timer", "thread", "region", "profile",
                                           "lifecycle", "resolve", "exec", "job", "plugin"};

const char *lw_log_domain_name(unsigned i)
{
    return i < sizeof lw_log_names / sizeof *lw_log_names ? lw_log_names[i] : NULL;
}

/* "rank 3: " inside a job (job.c), so that the messages of many processes
 * on one terminal say whose they are. */
static char lw_who[64];

void lw_message_who(const char *who)
{
    snprintf(lw_who, sizeof lw_who, "%s", who);
}

/* The start-up's messages: gathered by the one thread that runs it (the
 * others wait for it in pthread_once) while `lw_holding`, then written by
 * whichever thread comes first, once, or never. */
static char lw_held[8192];
static size_t lw_held_len;
static int lw_holding, lw_held_pending;
static pthread_t lw_holder;

/*
 * The stderr the process started with, noted before any constructor of
 * the program or of a wrapper runs. A program started with stderr closed
 * (2>&-) gets fd 2 for its first file, and one that closes it (GNU tools'
 * close_stdout at their exit) may open a file there: a message written to
 * fd 2 then would land in the program's data (a tar archive's first
 * bytes). So a message goes to fd 2 only while fd 2 is still the file it
 * was at the start; otherwise it is not written.
 */
static struct {
    int noted, open;
    dev_t dev;
    ino_t ino;
} lw_stderr;

__attribute__((constructor(101))) static void lw_stderr_note(void)
{
    struct stat st;
    int saved = errno;
    lw_stderr.open = fstat(STDERR_FILENO, &st) == 0;
    if (lw_stderr.open) {
        lw_stderr.dev = st.st_dev;
        lw_stderr.ino = st.st_ino;
    }
    LW_STORE(lw_stderr.noted, 1);
    errno = saved;
}

static int lw_stderr_same(void)
{
    if (!LW_LOAD(lw_stderr.noted))
        lw_stderr_note();
    struct stat st;
    return lw_stderr.open && fstat(STDERR_FILENO, &st) == 0 && st.st_dev == lw_stderr.dev &&
           st.st_ino == lw_stderr.ino;
}

static void lw_write_all(const char *buf, size_t len)
{
    int saved = errno, cancel = lw_cancel_off();
    if (!lw_stderr_same())
        len = 0;
    lw_xfsz x; /* a file-size limit: EFBIG, not SIGXFSZ (common/xfsz.h) */
    lw_xfsz_hold(&x);
    while (len) {
        ssize_t w = write(STDERR_FILENO, buf, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        buf += w;
        len -= (size_t)w;
    }
    lw_xfsz_release(&x);
    lw_cancel_restore(cancel);
    errno = saved;
}

void lw_messages_hold(void)
{
    lw_holder = pthread_self();
    LW_STORE(lw_holding, 1);
}

void lw_messages_held(int show)
{
    LW_STORE(lw_holding, 0);
    __atomic_store_n(&lw_held_pending, lw_held_len > 0, __ATOMIC_RELEASE);
    if (show)
        lw_messages_release();
}

void lw_messages_release(void)
{
    if (LW_LOAD(lw_held_pending) && __atomic_exchange_n(&lw_held_pending, 0, __ATOMIC_ACQ_REL))
        lw_write_all(lw_held, lw_held_len);
}

/* Messages go straight to fd 2 with one write(2): no stdio state of the
 * program is touched, and lines of several threads do not interleave. */
static void lw_vmessage(const char *prefix, const char *fmt, va_list ap)
{
    /* Room for a path of PATH_MAX and the words around it (the reason and
     * the advice come after the path); past that, cut and marked. */
    char buf[5120];
    int n = snprintf(buf, sizeof buf, "libwrap: %s%s", lw_who, prefix);
    if (n < 0)
        return;
    int m = vsnprintf(buf + n, sizeof buf - (size_t)n, fmt, ap);
    size_t len = m < 0 ? (size_t)n : (size_t)n + (size_t)m;
    if (len > sizeof buf - 2) {
        len = sizeof buf - 2; /* a long message is cut, never overrun */
        memcpy(buf + len - 3, "...", 3);
    }
    buf[len++] = '\n';
    if (LW_LOAD(lw_holding) && pthread_equal(pthread_self(), lw_holder)) {
        if (lw_held_len + len <= sizeof lw_held) {
            memcpy(lw_held + lw_held_len, buf, len);
            lw_held_len += len;
            return;
        }
        /* More than the start-up ever says: no longer held. */
        lw_messages_held(0);
    }
    /* A later message comes after the held ones. */
    lw_messages_release();
    lw_write_all(buf, len);
}

void lw_log(unsigned domain, const char *fmt, ...)
{
    if (!(lw_cfg.verbose & domain))
        return;
    const char *name = "";
    for (unsigned i = 0; i < sizeof lw_log_names / sizeof *lw_log_names; i++)
        if (domain == 1u << i)
            name = lw_log_names[i];
    char prefix[32];
    snprintf(prefix, sizeof prefix, "[%s] ", name);
    va_list ap;
    va_start(ap, fmt);
    lw_vmessage(prefix, fmt, ap);
    va_end(ap);
}

void lw_vwarn(const char *fmt, va_list ap)
{
    lw_vmessage("warning: ", fmt, ap);
}

void lw_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    lw_vmessage("error: ", fmt, ap);
    va_end(ap);
}

void lw_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    lw_vwarn(fmt, ap);
    va_end(ap);
}
