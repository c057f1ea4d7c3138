/*
 * context.c - the runtime's half of the swapcontext and setcontext
 * interposers (interpose/context_interpose.c): a thread that switches
 * execution contexts while a measured call is open.
 *
 * A thread's return slots and frames are stacks: a call takes the places
 * above those of the calls open, and gives them back when it returns. A
 * coroutine switched out inside a measured call leaves its places taken;
 * another context's calls would take those above them and, returning while
 * the first is open, give the first one's back with theirs, and a later
 * call would overwrite its caller's return address (the program crashed).
 * So from such a switch on, the thread's calls are forwarded unmeasured
 * (lw_tls.switched, read by lw_abi_enter and lw_enter_full) until every
 * call open at the switch has returned; then measurement goes on. A switch
 * with no measured call open changes nothing.
 */
#include "process/process.h"
#include "core/abi/abi.h"
#include "core/measure/measure.h"
#include "interpose/context_interpose.h"

#include <errno.h>

#ifdef LIBWRAP_NOP
void libwrap_context_switch(void)
{
}

void lw_context_report(void)
{
}
#else
static uint64_t lw_context_switches;

void libwrap_context_switch(void)
{
    if (LW_LOAD(lw_state) != 1 || LW_LOAD(lw_tls.switched) || LW_LOAD(lw_tls.guard))
        return;
    if (!lw_calls_open())
        return;
    lw_thread *t = lw_tls.self;
    int saved = errno;
    LW_STORE(lw_tls.switched, 1);
    /* Every call reaches the C hooks, which forward it. The calls open
     * return through the C hook too: the context may be resumed on
     * another thread, whose own slots and frames they must not touch
     * (lw_abi_exit). */
    lw_thread_paths_off();
    for (lw_ra *s = lw_tls.ra_base; s && s < LW_LOAD(lw_tls.ra_top); s++)
        if (s->depth != LW_RA_LANE)
            s->depth = LW_RA_NO_FAST_EXIT;
    __atomic_add_fetch(&lw_context_switches, 1, __ATOMIC_RELAXED);
    lw_log(LW_LOG_THREAD, "thread %u switched execution contexts inside a measured call: its calls are "
           "forwarded unmeasured until that call returns", t ? t->tid : 0);
    errno = saved;
}

void lw_context_report(void)
{
    uint64_t n = LW_LOAD(lw_context_switches);
    if (n)
        lw_warn("a thread switched execution contexts (swapcontext, setcontext) inside a measured call "
                "(%llu time%s): the calls made until that call returned were not measured, and none after "
                "it where it never returned (docs/abi.md, \"Stacks\")",
                (unsigned long long)n, n == 1 ? "" : "s");
}
#endif
