/*
 * hot.h - the common case of entering and leaving a region, as inline
 * functions shared by the typed wrappers' entry points (profile.c:
 * libwrap_enter, libwrap_exit) and the ABI trampoline's hooks (abi.c).
 *
 * These functions use general-purpose registers only and call nothing: abi.c
 * is compiled with -mgeneral-regs-only, so that a trampoline need not save
 * the vector and x87 registers around them. Neither touches errno. Everything
 * else (first call of a thread, a growing tree or stack, metrics, listeners
 * that take each call, a full event buffer, abandoned frames, the
 * clock_gettime timer) is the full path's: they return -1 and leave the
 * thread as they found it, and the caller takes the full path. The ABI
 * trampoline's assembly (abi_x86_64.S) has its own copy of the common case
 * without events; keep the two alike.
 */
#ifndef LIBWRAP_RUNTIME_HOT_H
#define LIBWRAP_RUNTIME_HOT_H

#include "core/measure/listen.h"
#include "core/measure/hooks.h"

#include <string.h>

#pragma GCC visibility push(hidden)

/* The depth of t's frame stack set to `d`, in this order as a signal
 * handler sees it: after a new frame is filled, before a closed one is
 * counted. A handler that leaves a runtime step by longjmp leaves no
 * half-made frame on the stack and no counted one: the end, which closes
 * the frames left, counts no call twice (signal.c). */
static inline __attribute__((always_inline)) void lw_depth_set(lw_thread *t, uint32_t d)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    LW_STORE(t->depth, d);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/* Fills a new top frame of thread `t`, entered at `now` (the timer's
 * ticks): the one definition for the fast and full entries. The start is
 * read on the thread's measurement clock (lw_thread.overhead). */
static inline __attribute__((always_inline)) void lw_frame_open(const lw_thread *t, lw_frame *f, lw_node *n,
                                                                 int32_t id, uint64_t now, void *frame)
{
    f->node = n;
    f->start = now - t->overhead;
    f->frame = frame;
    /* region and inherited (0) in one store: adjacent, little-endian (the
     * trampoline does the same; abi.c checks the layout). */
    uint64_t region_word = (uint32_t)id;
    memcpy(&f->region, &region_word, sizeof region_word);
}

/* Adds one visit of `dt` ticks to `n`: the one place that defines the
 * statistics, shared by the fast and full exits (and the trampoline's
 * assembly, which does the same). The extremes first, then the visit and
 * its time: a signal handler that interrupts this and leaves by longjmp
 * leaves min <= mean <= max but between those two stores (the x86-64
 * trampoline closes that one too: abi.h, lw_abi_exit_time). */
static inline __attribute__((always_inline)) void lw_node_account(lw_node *n, uint64_t dt)
{
    if (dt < n->min)
        n->min = dt;
    if (dt > n->max)
        n->max = dt;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    n->visits++;
    n->incl += dt;
}

/* The child of `parent` for region `id` among those found last, or NULL. */
static inline __attribute__((always_inline)) lw_node *lw_last_hit(const lw_node *parent, int32_t id)
{
    for (int k = 0; k < LW_LAST_HITS; k++)
        if (parent->last_region[k] == id)
            return parent->last_hit[k];
    return NULL;
}

/* Place `to` of the parent's last children set to `n` and its region:
 * the region 0 first (no lookup matches it), then the child, then the
 * region, each store in that order (the signal fences), so that a lookup
 * finds a region only beside its own child at every step, as the
 * trampolines' PROBE leaves them (abi_x86_64.S, abi_aarch64.S). */
static inline __attribute__((always_inline)) void lw_last_set(lw_node *parent, int to, lw_node *n,
                                                              int32_t region)
{
    parent->last_region[to] = 0;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    parent->last_hit[to] = n;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    parent->last_region[to] = region;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/* `n` found by a lookup under `parent`: the latest of those found last,
 * the others one place older. Written out, not as a loop: a compiler
 * turns such a loop into a call of memmove, whose vector registers the
 * trampoline's hooks must not touch (abi.c; tests/abi/hooks_calls.sh). */
static inline __attribute__((always_inline)) void lw_note_hit(lw_node *parent, lw_node *n)
{
    _Static_assert(LW_LAST_HITS == 4, "four last hits");
    lw_last_set(parent, 3, parent->last_hit[2], parent->last_region[2]);
    lw_last_set(parent, 2, parent->last_hit[1], parent->last_region[1]);
    lw_last_set(parent, 1, parent->last_hit[0], parent->last_region[0]);
    lw_last_set(parent, 0, n, n->region);
}

/* The slot of (parent, region) in a tree's hash table. */
static inline __attribute__((always_inline)) size_t lw_hash(const lw_node *parent, int32_t region)
{
    uint64_t h = ((uint64_t)(uintptr_t)parent >> 4) ^ ((uint64_t)(uint32_t)region * 0x9e3779b97f4a7c15ull);
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    return (size_t)h;
}

/* The node of `region` under `parent` when the tree has it, else NULL: a
 * lookup that allocates nothing and calls nothing. */
static inline __attribute__((always_inline)) lw_node *lw_tree_find(const lw_tree *tree, const lw_node *parent,
                                                                   int32_t region)
{
    size_t i = lw_hash(parent, region) & tree->hash_mask;
    for (lw_node *n; (n = tree->hash[i]); i = (i + 1) & tree->hash_mask)
        if (n->parent == parent && n->region == region)
            return n;
    return NULL;
}

/* The node of region `id` under the top frame when the call path exists
 * already, nothing else needs doing and the stack has room: the common
 * case of an entry. The children found last are tried first, then the
 * tree's table (the child found there becomes the latest): any child of
 * any parent, not only the one called last. NULL otherwise, also when a frame
 * at or below `frame` was abandoned (longjmp). The sentinel frame
 * stack[-1] makes an empty stack no special case. */
static inline __attribute__((always_inline)) lw_node *lw_known_child(const lw_thread *t, int32_t id,
                                                                     void *frame)
{
    uint32_t d = t->depth;
    const lw_frame *f = t->stack + d;
    lw_node *parent = f[-1].node;
    if (lw_unlikely((uintptr_t)f[-1].frame <= (uintptr_t)frame || d == t->cap))
        return NULL;
    lw_node *n = lw_last_hit(parent, id);
    if (lw_unlikely(!n)) {
        n = lw_tree_find(&t->tree, parent, id);
        if (!n)
            return NULL;
        lw_note_hit(parent, n);
    }
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

/* The fast paths' version of it: with the guard set, the thread's fast
 * state (lw_tls.fast), which the finaliser clears before its membarrier:
 * one check for "measurement runs" and "this thread may take the fast
 * path". NULL: the guard is given back. */
static inline __attribute__((always_inline)) lw_thread *lw_guard_take_fast(void)
{
    LW_STORE(lw_tls.guard, 1);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    lw_thread *t = LW_LOAD(lw_tls.fast);
    if (lw_unlikely(!t))
        LW_GUARD_CLEAR();
    return t;
}

/* Whether `t` can open a frame of node `n` (lw_known_child's) now: there
 * is one, and room for its event when events are buffered. */
static inline __attribute__((always_inline)) int lw_enter_can(const lw_thread *t, const lw_node *n)
{
    return n && !(t->ev_pos && t->ev_pos == t->ev_end);
}

/* Opens the frame of node `n` of region `id`, its timestamp last
 * (lw_enter_can holds). */
static inline __attribute__((always_inline)) void lw_enter_node(lw_thread *t, int32_t id, void *frame,
                                                                lw_node *n)
{
    uint64_t now = lw_rdtsc();
    if (t->ev_pos)
        lw_event_store(t, id, now);
    uint32_t d = t->depth;
    lw_frame_open(t, t->stack + d, n, id, now, frame);
    lw_depth_set(t, d + 1);
}

/* With the guard held and `t` the thread's fast state: opens the frame of
 * region `id` when the common case holds (1), else does nothing (0). */
static inline __attribute__((always_inline)) int lw_enter_known(lw_thread *t, int32_t id, void *frame)
{
    lw_node *n = lw_known_child(t, id, frame);
    if (lw_unlikely(!lw_enter_can(t, n)))
        return 0;
    lw_enter_node(t, id, frame, n);
    return 1;
}

/*
 * Entry into region `id` (> 0): 1 recorded (libwrap_exit must follow), 0 not
 * recorded (the thread is inside the runtime), -1 the full path is needed
 * (lw_enter_full: also for a stopped runtime, which it answers with 0).
 */
static inline __attribute__((always_inline)) int lw_enter_fast(int32_t id, void *frame)
{
    if (lw_unlikely(LW_LOAD(lw_tls.guard)))
        return 0;
    lw_thread *t = lw_guard_take_fast();
    if (lw_unlikely(!t))
        return -1;
    int r = lw_enter_known(t, id, frame) ? 1 : -1;
    LW_GUARD_CLEAR();
    return r;
}

/* Closes frame `f` of thread `t` at `now` (the timer's ticks): the call's
 * time on the thread's measurement clock, then the clock moves on by the
 * call's own measurement cost `cost`, which its callers' times leave out.
 * `untimed`: the frame may be a throttled call's that took no timestamp
 * (an ABI-level wrapper's; typed wrappers are not throttled). */
static inline __attribute__((always_inline)) void lw_frame_close(lw_thread *t, const lw_frame *f, uint64_t now,
                                                                  uint64_t cost, int untimed)
{
    uint64_t end = now - t->overhead;
    if (untimed && lw_unlikely(f->start == LW_FRAME_UNTIMED)) {
        /* A throttled call that was not timed (the trampoline's): a visit. */
        f->node->visits++;
        f->node->unmeasured++;
        cost = lw_cost_untimed[LW_UNTIMED_FRAMED];
    } else {
        lw_node_account(f->node, end > f->start ? end - f->start : 0);
    }
    t->overhead += cost;
}

/* Exit from region `id`, a call of a `kind` wrapper: 0 done (or nothing to
 * record), -1 the full path is needed (lw_exit_full). A top frame that is
 * not region `id`'s (the sentinel's region is 0) is the full path's. */
static inline __attribute__((always_inline)) int lw_exit_fast(int32_t id, enum lw_wrapper_kind kind)
{
    if (lw_unlikely(LW_LOAD(lw_tls.guard)))
        return 0;
    lw_thread *t = lw_guard_take_fast();
    if (lw_unlikely(!t))
        return -1;
    uint32_t d = t->depth;
    lw_frame *f = t->stack + d - 1;
    if (lw_unlikely(f->region != id || (t->ev_pos && t->ev_pos == t->ev_end))) {
        LW_GUARD_CLEAR();
        return -1;
    }
    uint64_t now = lw_rdtsc();
    if (t->ev_pos)
        lw_event_store(t, -id, now);
    lw_depth_set(t, d - 1);
    lw_frame_close(t, f, now, lw_cost_ticks[kind], kind == LW_KIND_ABI);
    LW_GUARD_CLEAR();
    return 0;
}

/* The full paths, in profile.c: everything the fast ones leave out. */
int lw_enter_full_since(int32_t id, void *frame, uint64_t since);
static inline int lw_enter_full(int32_t id, void *frame)
{
    return lw_enter_full_since(id, frame, 0);
}
void lw_exit_full(int32_t id);
/* Before the result of region `id` is recorded: the frames that a longjmp
 * left above its innermost frame closed (profile.c). */
void lw_exit_abandoned(int32_t id);

#pragma GCC visibility pop

#endif /* LIBWRAP_RUNTIME_HOT_H */
