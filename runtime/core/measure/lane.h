/*
 * lane.h - calls made by signal handlers while the runtime is busy on the
 * same thread (docs/runtime.md, "Signal handlers").
 *
 * A signal may arrive while the thread is inside the runtime (its guard is
 * set: an entry or exit half done, a tree growing, an event buffer being
 * delivered). The handler's wrapped calls cannot touch that state, and
 * cannot wait for it. The signal dispatcher (signal.c) marks the guard with
 * LW_GUARD_SIGNAL for the time of the handler, and such calls are recorded
 * in the thread's lane instead: a stack of entry times and a list of
 * finished calls (who, lane depth, ticks), in post-order. The next full
 * entry or exit of the thread, or the end of the thread or of measurement,
 * merges them into the call tree under the frame then on top
 * (lw_lane_merge): visits are exact, times are the calls' own.
 *
 * Everything here is reentrant without a lock: a signal handler runs to
 * its end before the code it interrupted goes on, so every push is claimed
 * (the index stored) before it is filled, and every pop reads before it
 * gives back. These functions use general-purpose registers only and call
 * nothing: the ABI trampoline's hooks (abi.c) use them.
 */
#ifndef LIBWRAP_RUNTIME_LANE_H
#define LIBWRAP_RUNTIME_LANE_H

#include "core/measure/measure.h"

#pragma GCC visibility push(hidden)

#define LW_LANE_DEPTH 64u   /* handler calls nested in each other */
#define LW_LANE_CALLS 4096u /* finished calls waiting for a merge */

typedef struct lw_lane_call {
    /* A libwrap_abi_entry (its region may not be registered yet); a typed
     * wrapper's region id as (id << 1) | 1; or, as (address | 2), the
     * libwrap_region of a typed wrapper called for the first time, whose
     * parameters are `params` (lw_lane_first_call). */
    uintptr_t who;
    void *params;
    uint32_t depth; /* 0: made by the handler itself */
    uint32_t lost;  /* lw_lane_merge: not recordable */
    uint64_t ticks;
    struct lw_node *node; /* lw_lane_merge: its node, or NULL */
} lw_lane_call;

typedef struct lw_lane {
    uint32_t n;     /* finished calls */
    uint32_t depth; /* calls open */
    /* The calls below it are in the tree, or lost (lw_lane_merge): a merge
     * that a handler left by longjmp leaves the mark, and the last merge
     * goes on from it, so that no call is counted twice. */
    uint32_t done;
    uint32_t reserved;
    uint64_t start[LW_LANE_DEPTH];
    lw_lane_call call[LW_LANE_CALLS];
} lw_lane;

/* Handler calls that could not be recorded (no lane yet on the thread, one
 * full, nested too deep, a region that could not be registered); said at
 * the end (lw_lane_report). */
extern uint64_t lw_lane_lost;

static inline void lw_lane_lose(void)
{
    __atomic_fetch_add(&lw_lane_lost, 1, __ATOMIC_RELAXED);
}

/* Opens a lane call that started at `now`: 1, or 0 when it cannot be
 * recorded (counted as lost). */
static inline __attribute__((always_inline)) int lw_lane_push(lw_lane *l, uint64_t now)
{
    uint32_t d = l->depth;
    if (lw_unlikely(d >= LW_LANE_DEPTH)) {
        lw_lane_lose();
        return 0;
    }
    LW_STORE(l->depth, d + 1);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    l->start[d] = now;
    return 1;
}

/* Closes the innermost lane call at `now` as a call of `who`. The thread's
 * fast paths are turned off until the merge (lw_lane_merge turns them on
 * again): the next entry or exit takes the full path, which merges. */
static inline __attribute__((always_inline)) void lw_lane_pop(lw_lane *l, uintptr_t who, uint64_t now)
{
    uint32_t d = l->depth - 1;
    uint64_t start = l->start[d];
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    LW_STORE(l->depth, d);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    uint32_t i = l->n;
    if (lw_unlikely(i >= LW_LANE_CALLS)) {
        lw_lane_lose();
        return;
    }
    LW_STORE(l->n, i + 1);
    /* A call below the merge's mark: the lane was emptied since. */
    if (lw_unlikely(LW_LOAD(l->done) > i))
        LW_STORE(l->done, i);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    l->call[i].who = who;
    l->call[i].params = NULL;
    l->call[i].depth = d;
    l->call[i].ticks = now > start ? now - start : 0;
    lw_thread_paths_off();
}

static inline uintptr_t lw_lane_typed(int32_t id)
{
    return ((uintptr_t)(uint32_t)id << 1) | 1;
}

/* A typed wrapper's first call made in a handler while the runtime is busy
 * (its region cannot be registered there): its visit, with no time. */
void lw_lane_first_call(libwrap_region *region, libwrap_params *params);

/* Calls are waiting in t's lane. */
static inline int lw_lane_pending(const lw_thread *t)
{
    return t->lane && LW_LOAD(t->lane->n) != 0;
}

/* Merges t's lane on its own thread, from a full entry or exit, guard not
 * held: registers the regions of its ABI entries first, then takes the
 * guard, merges and turns the fast paths on again. */
void lw_lane_settle(lw_thread *t);
/* Merges t's lane with the guard held (thread end, end of measurement). */
void lw_lane_merge(lw_thread *t);
/* The calling thread's lane, made if it has none (mmap: also from a
 * signal handler). */
void lw_lane_ensure(void);
/* The calling thread's lane for its state `t` (thread.c), or none. */
void lw_lane_attach(lw_thread *t);
/* In a fork child: the parent's waiting calls are not the child's. */
void lw_lane_after_fork_child(lw_thread *t);
/* One warning at the end when handler calls were lost. */
void lw_lane_report(void);

#pragma GCC visibility pop

#endif /* LIBWRAP_RUNTIME_LANE_H */
