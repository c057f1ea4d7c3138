/*
 * fatal.c - the signals that kill: the results written, then the signal's
 * own course (the program's default action restored, the signal raised
 * again), so that the program dies by the same signal and status.
 *
 * The handler stands wherever the program keeps the default action: at the
 * start, and whenever the program sets the default again (signal.c). The
 * program sees the default where it stands.
 *
 * Writing the results allocates. A signal sent from outside (kill, the
 * terminal) can come while the thread is inside the allocator, whose state
 * is then half updated: glibc in a process of one thread takes no lock and
 * aborts when the writing allocates there ("malloc assertion failure",
 * status 134 instead of the signal's). So a signal sent from outside is
 * handled at once only where the interrupted thread is at a safe point:
 * outside the code of the allocator, the C library and the dynamic loader
 * (their executable segments, found at the start), or in a system call of
 * theirs that the allocator does not make (blocked in read, wait, sleep:
 * where a signal from outside mostly finds a program). Elsewhere, and
 * inside the runtime itself, it is deferred: a timer sends the same signal
 * again every millisecond until it finds a thread at a safe point (the
 * allocator's calls take microseconds), at most LW_RETRY_MAX times; then
 * it is handled as it comes. An end in the meantime (exit, exec,
 * libwrap_finalize) writes the results and raises the signal: the program
 * still dies by it. A fault (SIGSEGV from the program's own code) is not
 * deferred, nor a signal the program raises itself (abort, raise,
 * pthread_kill): it comes where the program chose.
 */
#include "process/process.h"
#include "core/base/dl.h"
#include "core/measure/measure.h"
#include "plugins/host/host.h"

#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

/* The signals whose default action ends the process, but SIGKILL and
 * SIGSTOP (which nothing can catch), SIGSYS (after a seccomp filter's the
 * program goes on at the next instruction) and SIGXFSZ (writing the results
 * would meet the same limit). The first four can be faults; SIGTRAP is a
 * breakpoint the program executes (GLib's g_error ends so) or raises, which
 * a debugger that set it takes before any handler; a broken pipe
 * (`prog | head`), a closed terminal, Ctrl-\, `alarm`, a CPU limit end the
 * program as `kill` does. */
static const int lw_fatal_signals[] = {SIGSEGV, SIGBUS,  SIGFPE,  SIGILL,    SIGTRAP, SIGABRT,
                                       SIGTERM, SIGINT,  SIGHUP,  SIGQUIT,   SIGPIPE, SIGALRM,
                                       SIGUSR1, SIGUSR2, SIGXCPU, SIGVTALRM, SIGPROF};
#define LW_NFATAL (sizeof lw_fatal_signals / sizeof *lw_fatal_signals)
static struct sigaction lw_old_actions[LW_NFATAL];

/* ---- where a write could find the allocator's state half updated ------- */

#define LW_BUSY_MAX 8
static struct {
    uintptr_t lo, hi;
} lw_busy[LW_BUSY_MAX];
static int lw_nbusy;

struct lw_busy_find {
    uintptr_t malloc_at, loader_base;
    int index;
};

static int lw_busy_module(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct lw_busy_find *f = arg;
    /* Not the program: where it is one module with its libc (static), or
     * has an allocator of its own, its every instruction would be busy. */
    if (f->index++ == 0)
        return 0;
    int hit =
        lw_dl_names_libc(info->dlpi_name) || (f->loader_base && info->dlpi_addr == f->loader_base);
    for (int p = 0; p < info->dlpi_phnum; p++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[p];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        hit |= ph->p_type == PT_LOAD && f->malloc_at >= lo && f->malloc_at < hi;
    }
    for (int p = 0; hit && p < info->dlpi_phnum && lw_nbusy < LW_BUSY_MAX; p++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[p];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
            continue;
        lw_busy[lw_nbusy].lo = info->dlpi_addr + ph->p_vaddr;
        lw_busy[lw_nbusy].hi = lw_busy[lw_nbusy].lo + ph->p_memsz;
        lw_nbusy++;
    }
    return 0;
}

/* The allocator the program uses (the module of the first malloc), libc
 * (by name: a wrapper of malloc may answer for it) and the dynamic loader
 * (at AT_BASE). */
static void lw_busy_find_code(void)
{
    if (!lw_dl_available())
        return;
    struct lw_busy_find f = {(uintptr_t)dlsym(RTLD_DEFAULT, "malloc"), getauxval(AT_BASE), 0};
    dl_iterate_phdr(lw_busy_module, &f);
}

static int lw_memory_syscall(long nr)
{
    return nr == SYS_brk || nr == SYS_mmap || nr == SYS_munmap || nr == SYS_mremap ||
           nr == SYS_mprotect || nr == SYS_madvise;
}

/* Whether the thread interrupted in context `ucv` may be inside the
 * allocator: in the busy code, and not in (or at) a system call that the
 * allocator does not make. A system call the signal interrupted is made
 * again after the handler (SA_RESTART): the kernel puts the program
 * counter back on it with its number (x86-64: in %rax; AArch64: x8 keeps
 * it); one that returned EINTR has the number gone on x86-64. */
static int lw_busy_at(const void *ucv)
{
    const ucontext_t *uc = ucv;
#if defined(__x86_64__)
    uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    long rax = (long)uc->uc_mcontext.gregs[REG_RAX];
#elif defined(__aarch64__)
    uintptr_t pc = (uintptr_t)uc->uc_mcontext.pc;
    long x8 = (long)uc->uc_mcontext.regs[8];
#else
    (void)uc;
    return 0;
#endif
    int k = 0;
    while (k < lw_nbusy && !(pc >= lw_busy[k].lo && pc < lw_busy[k].hi))
        k++;
    if (k == lw_nbusy)
        return 0;
#if defined(__x86_64__)
    const unsigned char *p = (const unsigned char *)pc;
    if (pc + 2 <= lw_busy[k].hi && p[0] == 0x0f && p[1] == 0x05)
        return lw_memory_syscall(rax);
    if (pc - 2 >= lw_busy[k].lo && p[-2] == 0x0f && p[-1] == 0x05 && rax == -EINTR)
        return 0;
#elif defined(__aarch64__)
    const uint32_t *p = (const uint32_t *)pc;
    if ((pc + 4 <= lw_busy[k].hi && p[0] == 0xd4000001) ||
        (pc - 4 >= lw_busy[k].lo && p[-1] == 0xd4000001))
        return lw_memory_syscall(x8);
#endif
    return 1;
}

/* ---- deferring a signal sent from outside ------------------------------- */

#define LW_RETRY_TAG 0x6c77     /* the timer's si_value: "lw" */
#define LW_RETRY_MAX 2000       /* tries, a millisecond apart */
static int lw_retry_timer = -1; /* the kernel's timer id */
static int lw_retry_sig;
static int lw_retry_tries;

/* The signals a fault raises (the first four of lw_fatal_signals). */
static int lw_fault_signal(int sig)
{
    return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL;
}

static int lw_is_retry(const siginfo_t *si)
{
    return si->si_code == SI_TIMER && si->si_value.sival_int == LW_RETRY_TAG;
}

/* Sent from outside the process, or our retry: not a fault, and not
 * raised by the program (where it chose). */
static int lw_from_outside(int sig, const siginfo_t *si)
{
    if (lw_is_retry(si))
        return 1;
    if (si->si_code == SI_KERNEL) /* x86-64's breakpoint (int3) too: the program's */
        return !lw_fault_signal(sig) && sig != SIGTRAP;
    if (si->si_code == SI_USER || si->si_code == SI_QUEUE || si->si_code == SI_TKILL)
        return si->si_pid != getpid();
    return 0;
}

/* The signal comes again in a millisecond, and every millisecond after;
 * 0 where it cannot (tries spent, no timer). */
static int lw_defer(int sig)
{
    if (__atomic_fetch_add(&lw_retry_tries, 1, __ATOMIC_RELAXED) >= LW_RETRY_MAX)
        return 0;
    int none = -1;
    if (LW_LOAD(lw_retry_timer) >= 0 ||
        !__atomic_compare_exchange_n(&lw_retry_timer, &none, -2, 0, __ATOMIC_SEQ_CST,
                                     __ATOMIC_SEQ_CST))
        return 1;
    lw_retry_sig = sig;
    /* Raw system calls: glibc's timer_create allocates for SIGEV_THREAD. A
     * signal for the process: any of its threads may take it. */
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_SIGNAL;
    ev.sigev_signo = sig;
    ev.sigev_value.sival_int = LW_RETRY_TAG;
    int id;
    struct itimerspec every = {{0, 1000000}, {0, 1000000}};
    if (syscall(SYS_timer_create, CLOCK_MONOTONIC, &ev, &id) != 0) {
        LW_STORE(lw_retry_timer, -1);
        return 0;
    }
    if (syscall(SYS_timer_settime, id, 0, &every, NULL) != 0) {
        syscall(SYS_timer_delete, id);
        LW_STORE(lw_retry_timer, -1);
        return 0;
    }
    LW_STORE(lw_retry_timer, id);
    /* No allocation: the log formats on the stack. */
    lw_log(LW_LOG_LIFECYCLE,
           "signal %d: not at a safe point (the allocator, libc, the loader or "
           "the runtime): handled at the next safe point",
           sig);
    return 1;
}

static void lw_retries_stop(void)
{
    int id = __atomic_exchange_n(&lw_retry_timer, -1, __ATOMIC_SEQ_CST);
    if (id >= 0)
        syscall(SYS_timer_delete, id);
}

/* ---- the handler -------------------------------------------------------- */

static size_t lw_fatal_index(int sig)
{
    size_t i = 0;
    while (i < LW_NFATAL && lw_fatal_signals[i] != sig)
        i++;
    return i;
}

/* `sig` unblocked on this thread (the program may have blocked it). */
static void lw_fatal_unblock(int sig)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

/* The program's action for `sig` back in place of the runtime's handler. */
static void lw_fatal_restore(int sig)
{
    size_t i = lw_fatal_index(sig);
    if (i < LW_NFATAL)
        __sigaction(sig, &lw_old_actions[i], NULL);
}

static void lw_fatal_handler(int sig, siginfo_t *si, void *uc)
{
    int saved = errno;
    /* A retry left over after the end began: the end raises the signal. */
    if (lw_is_retry(si) && LW_LOAD(lw_state) != 1) {
        errno = saved;
        return;
    }
    int outside = lw_from_outside(sig, si);
    /* A fault in a plugin's callback (the runtime's guard is set around
     * most of them) is named, and the plugin left out; the runtime's own
     * state is whole at a callback's boundary, so the results are written
     * as for a crash in the program. */
    int in_plugin = !outside && lw_plugin_fault(sig);
    /* Inside the runtime, or a plugin's callback: their state is not whole. */
    int busy = !in_plugin && (LW_LOAD(lw_tls.guard) || LW_LOAD(lw_tls.plugin_at));
    if (outside && LW_LOAD(lw_state) == 1 && (busy || lw_busy_at(uc))) {
        if (lw_defer(sig)) {
            errno = saved;
            return;
        }
        lw_log(LW_LOG_LIFECYCLE, "signal %d: no safe point in %d tries: handled where it came", sig,
               LW_RETRY_MAX);
    }
    lw_retries_stop();
    /* Writing results is not async-signal-safe (allocation, stdio). If the
     * signal hit the runtime itself, skip it; if it hit the allocator with
     * its lock held, the alarm ends the wait: the process dies by SIGALRM
     * instead of hanging. */
    if (!busy && LW_LOAD(lw_state) == 1) {
        struct sigaction dfl = {.sa_handler = SIG_DFL};
        __sigaction(SIGALRM, &dfl, NULL);
        lw_fatal_unblock(SIGALRM);
        alarm(10);
        lw_log(LW_LOG_LIFECYCLE, "signal %d: writing results", sig);
        lw_finish_for_signal();
        alarm(0);
    } else if (busy && LW_LOAD(lw_state) == 1) {
        /* Its state is not whole there (a stack overflow inside a wrapped
         * call's measurement, say): losses are not silent. */
        if (libwrap_resolving())
            lw_warn("signal %d came while the runtime was looking up a library or a function "
                    "(dlopen, dlsym: a library's initialiser may run there): no results are written", sig);
        else
            lw_warn("signal %d came while the runtime was measuring a call (a stack overflow?): "
                    "no results are written", sig);
    }
    lw_fatal_restore(sig);
    /* A fault re-executes the faulting instruction on return and dies by the
     * default action; any other signal is sent again (a breakpoint too: on
     * return the program would go on past it). */
    if (!(lw_fault_signal(sig) && si->si_code > 0))
        raise(sig);
    errno = saved;
}

/* An end while a signal waits for a safe point: the results are written,
 * the program's action restored, and the signal raised (unblocked: the
 * program may have blocked it since). */
void lw_fatal_deferred_raise(void)
{
    if (LW_LOAD(lw_retry_timer) == -1)
        return;
    lw_retries_stop();
    int sig = lw_retry_sig;
    lw_log(LW_LOG_LIFECYCLE, "signal %d, deferred: raised again", sig);
    lw_fatal_restore(sig);
    lw_fatal_unblock(sig);
    raise(sig);
}

void lw_fatal_fork_child(void)
{
    /* The child has neither the timer nor the signal. */
    LW_STORE(lw_retry_timer, -1);
    LW_STORE(lw_retry_tries, 0);
}

/* ---- where the handler stands ------------------------------------------- */

/* The runtime's handler for lw_fatal_signals[i], in place of the
 * program's default action `dfl` (which the handler restores). */
static int lw_fatal_install(size_t i, const struct sigaction *dfl, struct sigaction *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = lw_fatal_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    lw_old_actions[i] = *dfl;
    return __sigaction(lw_fatal_signals[i], &sa, old);
}

/* The kernel takes a handler of SIG_DFL as the default action whatever the
 * flags (Go's runtime restores it with SA_SIGINFO set). */
static int lw_is_default(const struct sigaction *a)
{
    return a->sa_handler == SIG_DFL;
}

void lw_fatal_start(void)
{
    lw_busy_find_code();
    for (size_t i = 0; i < LW_NFATAL; i++) {
        struct sigaction old;
        /* Only where the program keeps the default: its own handlers and
         * ignored signals are left alone. */
        if (__sigaction(lw_fatal_signals[i], NULL, &old) == 0 && lw_is_default(&old))
            (void)lw_fatal_install(i, &old, NULL);
    }
}

int lw_fatal_keep(int sig, const struct sigaction *act, struct sigaction *old)
{
    size_t i = lw_fatal_index(sig);
    if (i == LW_NFATAL || !act || !lw_is_default(act) || LW_LOAD(lw_state) != 1)
        return -2;
    struct sigaction before = lw_old_actions[i];
    int r = lw_fatal_install(i, act, old);
    if (r != 0)
        lw_old_actions[i] = before;
    else if (old && old->sa_sigaction == lw_fatal_handler)
        *old = before;
    return r;
}

void lw_fatal_stop(void)
{
    for (size_t i = 0; i < LW_NFATAL; i++) {
        struct sigaction now;
        if (__sigaction(lw_fatal_signals[i], NULL, &now) == 0 && (now.sa_flags & SA_SIGINFO) &&
            now.sa_sigaction == lw_fatal_handler)
            __sigaction(lw_fatal_signals[i], &lw_old_actions[i], NULL);
    }
}

void lw_fatal_view(int sig, struct sigaction *a)
{
    size_t i = lw_fatal_index(sig);
    if (i < LW_NFATAL && (a->sa_flags & SA_SIGINFO) && a->sa_sigaction == lw_fatal_handler)
        *a = lw_old_actions[i];
}
