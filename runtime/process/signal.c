/*
 * signal.c - signal handlers and the runtime (docs/runtime.md, "Signal
 * handlers").
 *
 * A signal can arrive at any instruction, inside the runtime too: an entry
 * or exit half done on this thread, its guard set. A handler's wrapped
 * calls must then neither touch that state nor be lost. The program's
 * handlers are therefore run through lw_sig_dispatch (the interposers of
 * sigaction and signal in signal_interpose.c install it in their place): it
 * marks the guard with LW_GUARD_SIGNAL while the handler runs when the
 * guard was set, and the runtime sends those calls to the thread's lane
 * (lane.h). Without the mark a call made while the guard is set is the
 * runtime's own (a wrapped allocator) and is not measured.
 */
#include "process/process.h"
#include "core/measure/measure.h"
#include "core/measure/lane.h"
#include "interpose/signal_interpose.h"

#if defined(__x86_64__) || defined(__aarch64__)
#include "core/abi/abi.h"
#endif

#include <errno.h>
#include <string.h>
#include <ucontext.h>

#ifndef LIBWRAP_NOP

typedef void (*lw_handler)(int, siginfo_t *, void *);

/* The program's handler of each signal, called by the dispatcher; and
 * whether the program asked for SA_SIGINFO (for what sigaction shows it). */
static lw_handler lw_sig_handlers[_NSIG];
static unsigned char lw_sig_siginfo[_NSIG];
/* And whether it asked for SA_RESETHAND: the kernel restores the default
 * action as it delivers the signal, where the runtime's handler of a signal
 * that kills then stands in for it (lw_fatal_keep). */
static unsigned char lw_sig_resethand[_NSIG];

/* Threads whose signal handler left the runtime by longjmp. */
static uint64_t lw_sig_abandoned;

/* A handler declared void (int) is called with three arguments: the ABIs
 * the runtime supports pass them in registers, and it reads the first. */
static void lw_sig_dispatch(int sig, siginfo_t *si, void *uc)
{
    lw_handler fn = sig > 0 && sig < _NSIG ? LW_LOAD(lw_sig_handlers[sig]) : NULL;
    int guard = LW_LOAD(lw_tls.guard);
    uintptr_t busy_pc = lw_tls.busy_pc;
    if ((guard & (1 | LW_GUARD_SIGNAL)) == 1) {
        /* The first handler to interrupt the runtime: where it did. */
#if defined(__x86_64__)
        greg_t *g = ((ucontext_t *)uc)->uc_mcontext.gregs;
        uintptr_t pc = (uintptr_t)g[REG_RIP];
        if (pc == (uintptr_t)lw_abi_exit_time) {
            /* Between the fast exit's visit and its time: the time now,
             * and the instruction skipped (abi.h). */
            ((lw_node *)g[REG_RDX])->incl += (uint64_t)g[REG_RAX];
            g[REG_RIP] = (greg_t)(uintptr_t)lw_abi_exit_timed;
        } else if (pc == (uintptr_t)lw_abi_untimed_count || pc == (uintptr_t)lw_abi_untimed_exit_count) {
            /* Between a throttled call's visit and its count as not
             * timed: the count now, and the instruction skipped. */
            ((lw_node *)g[REG_RDX])->unmeasured++;
            g[REG_RIP] = (greg_t)(uintptr_t)(pc == (uintptr_t)lw_abi_untimed_count ? lw_abi_untimed_counted
                                                                                   : lw_abi_untimed_exit_counted);
        }
        lw_tls.busy_pc = (uintptr_t)g[REG_RIP];
#elif defined(__aarch64__)
        mcontext_t *m = &((ucontext_t *)uc)->uc_mcontext;
        if (m->pc == (uintptr_t)lw_abi_untimed_count || m->pc == (uintptr_t)lw_abi_untimed_exit_count) {
            /* Between a throttled call's visit and its count as not
             * timed: the count stored now, and the store skipped. */
            ((lw_node *)m->regs[11])->unmeasured = m->regs[13];
            m->pc = (uintptr_t)(m->pc == (uintptr_t)lw_abi_untimed_count ? lw_abi_untimed_counted
                                                                          : lw_abi_untimed_exit_counted);
        }
        lw_tls.busy_pc = (uintptr_t)m->pc;
#else
        lw_tls.busy_pc = 0;
#endif
        /* A thread's first measured call may still be on its way (its
         * region being registered, its state made): the lane first. mmap
         * is a system call, safe here. */
        if (!lw_tls.lane) {
            lw_lane_ensure();
            if (lw_tls.self && !lw_tls.self->lane)
                lw_tls.self->lane = lw_tls.lane;
        }
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        LW_STORE(lw_tls.guard, guard | LW_GUARD_SIGNAL);
    }
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (fn && LW_LOAD(lw_sig_resethand[sig])) {
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        int saved = errno;
        (void)lw_fatal_keep(sig, &dfl, NULL);
        errno = saved;
    }
    if (fn)
        fn(sig, si, uc);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    LW_STORE(lw_tls.guard, guard);
    lw_tls.busy_pc = busy_pc;
}

/* A step of the runtime interrupted at `pc` can be abandoned: the fast
 * paths of the ABI trampoline, throttled calls' included, whose every
 * instruction leaves the runtime consistent (at worst the visit of the call
 * it was closing is lost). */
static int lw_sig_abandon_safe(uintptr_t pc)
{
#if defined(__x86_64__) || defined(__aarch64__)
    static const char *const ranges[][2] = {{lw_abi_hot_begin, lw_abi_hot_end},
                                            {lw_abi_hot2_begin, lw_abi_hot2_end},
                                            {lw_abi_hot3_begin, lw_abi_hot3_end},
                                            {lw_abi_hot4_begin, lw_abi_hot4_end}};
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
        if (pc >= (uintptr_t)ranges[i][0] && pc < (uintptr_t)ranges[i][1])
            return 1;
    return 0;
#else
    (void)pc;
    return 0;
#endif
}

static int lw_sig_handler_is_function(const struct sigaction *a)
{
    void (*h)(int) = a->sa_handler;
    return h != SIG_DFL && h != SIG_IGN
#ifdef SIG_HOLD
           && h != SIG_HOLD
#endif
        ;
}

/* What the program sees of a disposition that may be the dispatcher's. */
static void lw_sig_view(struct sigaction *a, lw_handler fn, int siginfo)
{
    if (a->sa_sigaction != lw_sig_dispatch)
        return;
    a->sa_sigaction = fn;
    if (!siginfo)
        a->sa_flags &= ~SA_SIGINFO;
}

int libwrap_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    if (sig <= 0 || sig >= _NSIG || sig == SIGKILL || sig == SIGSTOP)
        return __sigaction(sig, act, old);
    lw_handler before = LW_LOAD(lw_sig_handlers[sig]);
    int before_siginfo = LW_LOAD(lw_sig_siginfo[sig]);
    int before_reset = LW_LOAD(lw_sig_resethand[sig]);
    struct sigaction mine;
    const struct sigaction *use = act;
    /* Another copy of the interposers passing the dispatcher on, or a
     * handler of the program: only the latter is recorded. */
    if (act && lw_sig_handler_is_function(act) && act->sa_sigaction != lw_sig_dispatch) {
        mine = *act;
        mine.sa_sigaction = lw_sig_dispatch;
        mine.sa_flags |= SA_SIGINFO;
        /* Recorded before it is installed: a signal arriving in between
         * runs the new handler, which is being installed anyway. */
        LW_STORE(lw_sig_siginfo[sig], (act->sa_flags & SA_SIGINFO) != 0);
        LW_STORE(lw_sig_resethand[sig], (act->sa_flags & SA_RESETHAND) != 0);
        LW_STORE(lw_sig_handlers[sig], act->sa_sigaction);
        use = &mine;
    }
    /* The default action of a signal that kills (the program restoring it
     * in its handler, to raise the signal again and die by it): the
     * runtime's handler in its place writes the results first. */
    int r = use == act ? lw_fatal_keep(sig, act, old) : -2;
    if (r == -2)
        r = __sigaction(sig, use, old);
    int saved = errno;
    if (r != 0 && use == &mine) {
        LW_STORE(lw_sig_handlers[sig], before);
        LW_STORE(lw_sig_siginfo[sig], before_siginfo);
        LW_STORE(lw_sig_resethand[sig], before_reset);
    }
    if (r == 0 && old) {
        lw_sig_view(old, before, before_siginfo);
        lw_fatal_view(sig, old);
    }
    errno = saved;
    return r;
}

void *libwrap_signal_adopt(int sig, void *prev)
{
    if (sig <= 0 || sig >= _NSIG || sig == SIGKILL || sig == SIGSTOP)
        return prev;
    int saved = errno;
    lw_handler before = LW_LOAD(lw_sig_handlers[sig]);
    struct sigaction cur;
    if (__sigaction(sig, NULL, &cur) == 0 && cur.sa_sigaction != lw_sig_dispatch &&
        lw_sig_handler_is_function(&cur)) {
        LW_STORE(lw_sig_siginfo[sig], (cur.sa_flags & SA_SIGINFO) != 0);
        LW_STORE(lw_sig_resethand[sig], (cur.sa_flags & SA_RESETHAND) != 0);
        LW_STORE(lw_sig_handlers[sig], cur.sa_sigaction);
        cur.sa_sigaction = lw_sig_dispatch;
        cur.sa_flags |= SA_SIGINFO;
        (void)__sigaction(sig, &cur, NULL);
    } else if (prev != SIG_ERR) {
        /* The default action set (libwrap_sigaction says why). */
        (void)lw_fatal_keep(sig, &cur, NULL);
    }
    errno = saved;
    if (prev == (void *)lw_sig_dispatch)
        return (void *)before;
    /* The runtime's handler of a signal that kills: the default, as the
     * program knows it. */
    struct sigaction view = {.sa_flags = SA_SIGINFO};
    view.sa_sigaction = (lw_handler)prev;
    lw_fatal_view(sig, &view);
    return view.sa_sigaction == (lw_handler)prev ? prev : (void *)view.sa_handler;
}

void libwrap_signal_leave(void)
{
    int guard = LW_LOAD(lw_tls.guard);
    if (!(guard & LW_GUARD_SIGNAL))
        return;
    if ((guard & ~LW_GUARD_SIGNAL) == LW_GUARD_ABANDONED) {
        LW_STORE(lw_tls.guard, LW_GUARD_ABANDONED);
        return;
    }
    /* The jump leaves the handler, or at least the lane's calls open in it
     * (the jump target is above them, or on another stack). */
    if (lw_tls.lane)
        LW_STORE(lw_tls.lane->depth, 0);
    if (guard == (1 | LW_GUARD_SIGNAL) && lw_sig_abandon_safe(lw_tls.busy_pc)) {
        /* The trampoline's fast path, abandoned: the runtime is
         * consistent, and this thread measures on. */
        lw_tls.busy_pc = 0;
        LW_STORE(lw_tls.guard, 0);
        return;
    }
    /* Another step of the runtime is abandoned half done: this thread
     * records nothing more (its guard stays set; the finaliser does not
     * wait for it), and says so at the end. */
    LW_STORE(lw_tls.fast, NULL);
    LW_STORE(lw_tls.hot, &lw_thread_none);
    LW_STORE(lw_tls.hot_ev, &lw_thread_none);
    LW_STORE(lw_tls.guard, LW_GUARD_ABANDONED);
    __atomic_fetch_add(&lw_sig_abandoned, 1, __ATOMIC_RELAXED);
}

void lw_signal_report(void)
{
    uint64_t n = LW_LOAD(lw_sig_abandoned);
    if (n)
        lw_warn("a signal handler that interrupted the runtime was left by longjmp (%llu "
                "time%s): the calls of that thread after it were not measured",
                (unsigned long long)n, n == 1 ? "" : "s");
}

#else /* LIBWRAP_NOP: nothing is measured, nothing to tell the runtime */

int libwrap_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    return __sigaction(sig, act, old);
}

void *libwrap_signal_adopt(int sig, void *prev)
{
    (void)sig;
    return prev;
}

void libwrap_signal_leave(void)
{
}

void lw_signal_report(void)
{
}

#endif
