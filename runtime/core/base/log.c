/*
 * log.c - the runtime's one message path: warnings and the verbose log.
 *
 * Every message is one line on fd 2, "libwrap: [rank N: ]warning: ..." or
 * "libwrap: [rank N: ][domain] ...", written with one write(2): no stdio
 * state of the measured program is touched, lines of several threads do
 * not interleave, and errno is kept. Plugins speak through the same path
 * (libwrap_host.warn, .verbose).
 */
#include "core/base/base.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
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

/* Messages go straight to fd 2 with one write(2): no stdio state of the
 * program is touched, and lines of several threads do not interleave. */
static void lw_vmessage(const char *prefix, const char *fmt, va_list ap)
{
    char buf[1024];
    int n = snprintf(buf, sizeof buf, "libwrap: %s%s", lw_who, prefix);
    if (n < 0)
        return;
    int m = vsnprintf(buf + n, sizeof buf - (size_t)n, fmt, ap);
    size_t len = m < 0 ? (size_t)n : (size_t)n + (size_t)m;
    if (len > sizeof buf - 2)
        len = sizeof buf - 2; /* a long message is cut, never overrun */
    buf[len++] = '\n';
    int saved = errno;
    ssize_t w = write(STDERR_FILENO, buf, len);
    (void)w;
    errno = saved;
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
