/*
 * xfsz.h - writing a file as libwrap (results, messages, the trace's
 * temporary file) under the program's RLIMIT_FSIZE: a write over the limit
 * fails with EFBIG and the kernel sends the writing thread SIGXFSZ, whose
 * default action ends the process. A program that lowers the limit for
 * itself (sshd's privilege-separated child sets it to 0) must not be killed
 * by libwrap's writes: around them SIGXFSZ is held, and one that the
 * writes raised is taken back before it is released. A SIGXFSZ that was
 * pending before is left as it was, and one sent from outside meanwhile
 * is sent again. Header only.
 */
#ifndef LIBWRAP_COMMON_XFSZ_H
#define LIBWRAP_COMMON_XFSZ_H

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

typedef struct lw_xfsz {
    sigset_t old;
    int pending; /* pending before: the program's own */
} lw_xfsz;

static inline void lw_xfsz_hold(lw_xfsz *h)
{
    int saved = errno;
    sigset_t one, p;
    sigemptyset(&one);
    sigaddset(&one, SIGXFSZ);
    pthread_sigmask(SIG_BLOCK, &one, &h->old);
    h->pending = sigpending(&p) == 0 && sigismember(&p, SIGXFSZ);
    errno = saved;
}

static inline void lw_xfsz_release(lw_xfsz *h)
{
    int saved = errno;
    sigset_t one, p;
    sigemptyset(&one);
    sigaddset(&one, SIGXFSZ);
    const struct timespec now = {0, 0};
    siginfo_t si;
    int again = 0;
    /* The kernel's, for a write over the limit, comes from the process
     * itself (SI_USER, its own PID); one sent from outside meanwhile
     * (kill -XFSZ) is sent again once the mask is back. */
    if (!h->pending && sigpending(&p) == 0 && sigismember(&p, SIGXFSZ) &&
        sigtimedwait(&one, &si, &now) == SIGXFSZ)
        again = si.si_code != SI_USER || si.si_pid != getpid();
    pthread_sigmask(SIG_SETMASK, &h->old, NULL);
    if (again)
        kill(getpid(), SIGXFSZ);
    errno = saved;
}

#endif /* LIBWRAP_COMMON_XFSZ_H */
