/*
 * hot.h - the common case of entering and leaving a region, as inline
 * functions shared by the typed wrappers' entry points (profile.c:
 * libwrap_enter, libwrap_exit) and the ABI trampoline's hooks (abi.c).
 *
 * These functions use general-purpose registers only and call nothing: abi.c
 * is compiled with -mgeneral-regs-only, so that a trampoline need not save
 * the vector and x87 registers around them. Everything else (first call of
 * a thread, a growing tree or stack, metrics, tracing, abandoned frames, the
 * clock_gettime timer) is the full path's: they return -1 and leave the
 * thread as they found it, and the caller takes the full path.
 */
#ifndef LIBWRAP_RUNTIME_HOT_H
#define LIBWRAP_RUNTIME_HOT_H

#include "internal.h"

#pragma GCC visibility push(hidden)

/* Fills a new top frame: the one definition for the fast and full entries. */
static inline __attribute__((always_inline)) void lw_frame_open(lw_frame *f, lw_node *n, int32_t id,
                                                                 uint64_t now, void *frame)
{
    f->node = n;
    f->start = now;
    f->child = 0;
    f->frame = frame;
    f->region = id;
    f->inherited = 0;
}

/* Adds one visit of `dt` ticks, `child` of them in callees, to `n`: the one
 * place that defines the statistics, shared by the fast and full exits. */
static inline __attribute__((always_inline)) void lw_node_account(lw_node *n, uint64_t dt,
                                                                   uint64_t child)
{
    n->visits++;
    n->incl += dt;
    n->excl += dt - (child < dt ? child : dt);
    if (dt < n->min)
        n->min = dt;
    if (dt > n->max)
        n->max = dt;
}

/* The node of region `id` under the top frame when it is the one found
 * last time, nothing else needs doing and the stack has room: the common
 * case of an entry. NULL otherwise, also when a frame at or below `frame`
 * was abandoned (longjmp). */
static inline __attribute__((always_inline)) lw_node *lw_known_child(const lw_thread *t, int32_t id,
                                                                     void *frame)
{
    uint32_t d = t->depth;
    const lw_frame *f = t->stack + d;
    lw_node *parent = d ? f[-1].node : t->tree.root;
    lw_node *n;
    if (lw_unlikely((d && (uintptr_t)f[-1].frame <= (uintptr_t)frame) || d == t->cap || !parent ||
                    !(n = parent->last_hit) || n->region != id))
        return NULL;
    return n;
}

/* Takes the thread's guard and checks again that the runtime runs: 1 the
 * guard is held, 0 the runtime stopped meanwhile (the guard is given
 * back). Pairs with the membarrier of lw_finish: either the finaliser sees
 * the guard and waits, or this thread sees the stop and backs out. */
static inline __attribute__((always_inline)) int lw_guard_take(void)
{
    LW_STORE(lw_tls.guard, 1);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (lw_unlikely(LW_LOAD(lw_state) != 1)) {
        LW_GUARD_CLEAR();
        return 0;
    }
    return 1;
}

/*
 * Entry into region `id` (> 0): 1 recorded (libwrap_exit must follow), 0 not
 * recorded (runtime stopped, or the thread is inside the runtime), -1 the
 * full path is needed (lw_enter_full).
 */
static inline __attribute__((always_inline)) int lw_enter_fast(int32_t id, void *frame)
{
    if (lw_unlikely(LW_LOAD(lw_state) != 1))
        return 0;
    lw_thread *t = lw_tls.self;
    if (lw_unlikely(!t || !lw_timer_tsc))
        return -1;
    if (lw_unlikely(LW_LOAD(lw_tls.guard)))
        return 0;
    if (!lw_guard_take())
        return 0;
    lw_node *n;
    if (lw_unlikely(t->slow || t->listen || !(n = lw_known_child(t, id, frame)))) {
        LW_GUARD_CLEAR();
        return -1;
    }
    lw_frame_open(t->stack + t->depth, n, id, lw_rdtsc(), frame);
    t->depth++;
    LW_GUARD_CLEAR();
    return 1;
}

/* Closes the top frame at `now` when it is region `id`'s and needs no more
 * than the statistics (no metrics): the common case of an exit. 0 when
 * it is not so, and nothing was done. */
static inline __attribute__((always_inline)) int lw_close_known(lw_thread *t, int32_t id, uint64_t now)
{
    uint32_t d = t->depth;
    lw_frame *f = t->stack + d - 1;
    lw_node *n;
    if (lw_unlikely(!d || t->slow || f->region != id || !(n = f->node)))
        return 0;
    uint64_t dt = now > f->start ? now - f->start : 0;
    lw_node_account(n, dt, f->child);
    if (d > 1)
        f[-1].child += dt;
    t->depth = d - 1;
    return 1;
}

/* Exit from region `id`: 0 done (or nothing to record), -1 the full path is
 * needed (lw_exit_full). */
static inline __attribute__((always_inline)) int lw_exit_fast(int32_t id)
{
    if (lw_unlikely(LW_LOAD(lw_state) != 1))
        return 0;
    lw_thread *t = lw_tls.self;
    if (lw_unlikely(!t || LW_LOAD(lw_tls.guard)))
        return 0;
    if (lw_unlikely(!lw_timer_tsc || t->slow || t->listen))
        return -1;
    if (!lw_guard_take())
        return 0;
    int closed = lw_close_known(t, id, lw_rdtsc());
    LW_GUARD_CLEAR();
    return closed ? 0 : -1;
}

/* The full paths, in profile.c: everything the fast ones leave out. */
int lw_enter_full(int32_t id, void *frame);
void lw_exit_full(int32_t id);

#pragma GCC visibility pop

#endif /* LIBWRAP_RUNTIME_HOT_H */
