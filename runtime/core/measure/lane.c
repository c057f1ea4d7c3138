/*
 * lane.c - merging the calls that signal handlers made while the runtime
 * was busy (lane.h) into the thread's call tree.
 */
#include "core/measure/lane.h"

#include "core/measure/hot.h"

uint64_t lw_lane_lost;

void lw_lane_ensure(void)
{
    if (!lw_tls.lane)
        LW_STORE(lw_tls.lane, (lw_lane *)lw_map(sizeof(lw_lane)));
}

void lw_lane_attach(lw_thread *t)
{
    /* The thread's lane may exist already: a handler made it while the
     * thread's first call was on its way (signal.c). Else the dispatcher
     * makes it when a handler first interrupts the runtime on this thread:
     * 160 KiB of address space that a thread whose handlers never do (most
     * threads) does not take. */
    t->lane = lw_tls.lane;
}

void lw_lane_after_fork_child(lw_thread *t)
{
    if (t && t->lane) {
        t->lane->n = 0;
        t->lane->depth = 0;
        t->lane->done = 0;
    }
}

void lw_lane_first_call(libwrap_region *region, libwrap_params *params)
{
    lw_lane *l = LW_LOAD(lw_tls.lane);
    if (!l) {
        lw_lane_lose();
        return;
    }
    uint64_t now = lw_ticks();
    if (!lw_lane_push(l, now))
        return;
    uint32_t i = l->n;
    lw_lane_pop(l, (uintptr_t)region | 2, now);
    if (i < LW_LANE_CALLS)
        l->call[i].params = params;
}

/* The region a lane call names: the typed wrapper's or the ABI entry's. */
static libwrap_region *lw_lane_named(uintptr_t who)
{
    if ((who & 3) == 2)
        return (libwrap_region *)(who & ~(uintptr_t)3);
    if (!(who & 1))
        return &((libwrap_abi_entry *)who)->region;
    return NULL;
}

static int32_t lw_lane_region(uintptr_t who)
{
    libwrap_region *r = lw_lane_named(who);
    if (!r)
        return (int32_t)(uint32_t)(who >> 1);
    return __atomic_load_n(&r->id, __ATOMIC_ACQUIRE);
}

/*
 * Merges the calls [from, to), a sequence of whole handler calls in
 * post-order (a handler ends before the code it interrupted goes on), under
 * the frame on top. Read backwards, every call comes after its caller: the
 * callers of the current depth are kept in `up`. A call whose caller is
 * missing (its handler left it by longjmp) goes under the deepest one known.
 *
 * The nodes are found first (and made: the tree grows, nothing is
 * counted), then the calls are counted in order, each after the lane's
 * mark `done` passed it. A handler that interrupts the merge and leaves
 * it by longjmp (the thread then records nothing more, signal.c) leaves
 * the mark, and the last merge, at the end, goes on from it: the calls
 * after the mark find their callers again, which come after them. At
 * most the call being counted is lost, none is counted twice. A handler
 * that appends a call below the mark (the lane was emptied, the mark not
 * yet reset) moves the mark down to it (lw_lane_pop).
 */
static void lw_lane_merge_range(lw_thread *t, lw_lane *l, uint32_t from, uint32_t to)
{
    lw_node *top = (t->stack + t->depth)[-1].node; /* the root under the sentinel */
    lw_node *up[LW_LANE_DEPTH];
    uint32_t known = 0;
    for (uint32_t i = to; i-- > from;) {
        lw_lane_call *c = &l->call[i];
        uint32_t d = c->depth < known ? c->depth : known;
        lw_node *parent = d ? up[d - 1] : top;
        int32_t id = lw_lane_region(c->who);
        lw_node *n = id > 0 ? lw_tree_child(&t->tree, parent, id) : NULL;
        c->node = n;
        c->lost = id == 0 || (id > 0 && !n);
        /* A call not measured (excluded) leaves its callees to its caller. */
        up[d] = n ? n : parent;
        known = d + 1;
    }
    for (uint32_t i = from; i < to; i++) {
        const lw_lane_call *c = &l->call[i];
        LW_STORE(l->done, i + 1);
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        if (c->node)
            lw_node_account(c->node, c->ticks);
        else if (c->lost)
            lw_lane_lose();
    }
}

void lw_lane_merge(lw_thread *t)
{
    lw_lane *l = t->lane;
    if (!l)
        return;
    uint32_t from = LW_LOAD(l->done);
    for (;;) {
        uint32_t n = LW_LOAD(l->n);
        if (n == from) {
            /* Handlers that interrupt the merge append after `n`: the
             * lane empties only when none did. */
            if (__atomic_compare_exchange_n(&l->n, &n, 0, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
                LW_STORE(l->done, 0);
                return;
            }
            continue;
        }
        lw_lane_merge_range(t, l, from, n);
        from = n;
    }
}

void lw_lane_settle(lw_thread *t)
{
    lw_lane *l = t->lane;
    /* Regions seen first in a handler are registered now, outside the
     * guard (registration takes the region lock). */
    uint32_t n = LW_LOAD(l->n);
    for (uint32_t i = 0; i < n; i++) {
        uintptr_t who = l->call[i].who;
        libwrap_region *r = lw_lane_named(who);
        if (!r || __atomic_load_n(&r->id, __ATOMIC_ACQUIRE))
            continue;
        if (who & 2)
            (void)libwrap_region_register_params(r, l->call[i].params);
        else
            (void)lw_region_register_abi((libwrap_abi_entry *)who);
    }
    if (!lw_guard_take())
        return;
    lw_lane_merge(t);
    lw_thread_set_paths(t);
    LW_GUARD_CLEAR();
}

void lw_lane_report(void)
{
    uint64_t lost = LW_LOAD(lw_lane_lost);
    if (lost)
        lw_warn("%llu calls made by signal handlers while the runtime was busy could not be "
                "recorded (a handler nested more than %u calls deep, more than %u calls before "
                "the thread's next measured call, or a thread's first call in a handler)",
                (unsigned long long)lost, LW_LANE_DEPTH, LW_LANE_CALLS);
}
