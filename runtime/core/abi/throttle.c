/*
 * throttle.c - exact visits for tiny hot functions at almost no cost
 * (LIBWRAP_THROTTLE=CALLS:NS, docs/runtime.md "Throttling").
 *
 * Every 4,096th visit of a call path, the trampoline's fast exit asks
 * lw_throttle_check whether the path's region may be throttled: called
 * CALLS times or more, on all its call paths and threads together (counted
 * 4,096 at a time, at these checks), with a mean time per call under NS on
 * the path checked (its own, less its measurement's). The region's ABI
 * entry then says, when no call of it on any path or thread has had a
 * wrapped callee (lw_region_flags), LW_ABI_STATE_THROTTLED: its calls
 * count a visit on the call path under the top frame and jump to the
 * original, with no timestamp, frame or return slot; when it calls
 * wrapped functions, LW_ABI_STATE_THROTTLED_FRAMED: its calls keep their
 * frame and return slot, so that the calls below them stay on their call
 * paths, and take no timestamp (abi_x86_64.S, abi_aarch64.S). One call in
 * LW_THROTTLE_SAMPLE is timed either way. The profile estimates the times
 * from the timed calls (lw_throttle_estimate). A region throttled as a
 * leaf that turns out to call wrapped functions keeps its frames from then
 * on: the first node made below one of its nodes, by a timed call of it,
 * switches it (lw_throttle_callee). Typed wrappers are not throttled.
 */
#include "core/abi/abi.h"
#include "core/measure/hot.h"

#include <stddef.h>

#define LW_THROTTLED_MAX 4096

/* The regions throttled, and their calls counted when it was decided. */
static struct {
    int32_t id;
    uint64_t after;
} lw_throttled[LW_THROTTLED_MAX];
static uint32_t lw_nthrottled;

/* The calls of each region counted by the checks so far, indexed by
 * region id, LW_THROTTLE_CHECK at a check: a function called from many
 * call paths, none of them CALLS times, is throttled once they add up to
 * CALLS. Its pages are touched only when throttling is on; a region
 * beyond the table counts the visits of the path checked alone. */
#define LW_THROTTLE_CHECK 4096 /* the exits' `testl $0xfff`, `tst x10, #0xfff` */
static uint64_t lw_throttle_counted[LW_REGION_TABLE];

/* Region `id`'s calls counted with this check of path `n`. */
static uint64_t lw_throttle_count(const lw_node *n)
{
    if (n->region >= LW_REGION_TABLE)
        return n->visits;
    uint64_t calls =
        __atomic_add_fetch(&lw_throttle_counted[n->region], LW_THROTTLE_CHECK, __ATOMIC_RELAXED);
    return calls > n->visits ? calls : n->visits;
}

#if LW_ABI_THROTTLES
/* The ABI entry of region `id`, or NULL for a typed wrapper's. Region
 * lock held. */
static libwrap_abi_entry *lw_throttle_entry(int32_t id)
{
    if (lw_region_kind(id) != LW_KIND_ABI)
        return NULL;
    const libwrap_region *r = lw_region_get(id);
    return r ? (libwrap_abi_entry *)((char *)r - offsetof(libwrap_abi_entry, region)) : NULL;
}
#endif

/* A node's inclusive ticks over all its visits: those of its timed calls,
 * scaled to every visit when some were not timed (0 when none was). */
static double lw_throttle_incl(const lw_node *n)
{
    uint64_t timed = n->visits - n->unmeasured;
    if (!n->unmeasured)
        return (double)n->incl;
    return timed ? (double)n->incl * (double)n->visits / (double)timed : 0;
}

#if LW_ABI_THROTTLES
/* Why this run's calls cannot be throttled, or NULL. Throttling is the
 * trampoline's fast paths': the TSC timer and no metric read at every call
 * (lw_thread_paths), and no listener, which needs every call's events. */
static const char *lw_throttle_unapplied(void)
{
    return !lw_timer_tsc ? "the clock_gettime timer (LIBWRAP_TIMER, or no usable TSC)"
           : lw_nmetrics ? "metrics read at every call (LIBWRAP_METRIC_*)"
           : lw_nlisteners ? "a listener (tracing, a plugin), which needs every call"
                           : NULL;
}
#endif

uintptr_t lw_throttle_check(uintptr_t node, uintptr_t unused)
{
    (void)unused;
#if LW_ABI_THROTTLES
    lw_node *n = (lw_node *)node;
    uint64_t timed = n->visits - n->unmeasured;
    if (!lw_cfg.throttle_calls || !timed || n->region <= 0 || lw_throttle_unapplied())
        return 0;
    uint64_t calls = lw_throttle_count(n);
    if (calls < lw_cfg.throttle_calls)
        return 0;
    /* The call's own time: less its callees' (their timed calls' mean
     * over all their visits) and its measurement's cost inside it. */
    double excl = (double)n->incl;
    for (const lw_node *c = n->first_child; c; c = c->next_sibling)
        excl -= lw_throttle_incl(c);
    double mean_ns = (excl / (double)timed - lw_costs[LW_KIND_ABI].inside) * lw_timer_ns_per_tick();
    /* Below 0 where its callees' estimates (throttled themselves) take
     * more than its time: as little as can be measured. */
    if (mean_ns < 0)
        mean_ns = 0;
    if (mean_ns >= lw_cfg.throttle_ns)
        return 0;
    lw_region_lock();
    libwrap_abi_entry *e = lw_throttle_entry(n->region);
    if (e && __atomic_load_n(&e->state, __ATOMIC_RELAXED) == LW_ABI_STATE_FAST &&
        lw_nthrottled < LW_THROTTLED_MAX) {
        lw_throttled[lw_nthrottled].id = n->region;
        lw_throttled[lw_nthrottled].after = calls;
        __atomic_store_n(&lw_nthrottled, lw_nthrottled + 1, __ATOMIC_RELEASE);
        /* Without a frame only when no call of it on any path or thread
         * has called a wrapped function: its other paths' callees would
         * be counted on its callers' paths. A callee seen later switches
         * it (lw_throttle_callee, from the tree's first node under it). */
        int callees =
            n->first_child || (lw_region_flags(n->region, LW_REGION_LEAF) & LW_REGION_CALLS);
        lw_abi_set_state(e, callees ? LW_ABI_STATE_THROTTLED_FRAMED : LW_ABI_STATE_THROTTLED);
        lw_log(LW_LOG_PROFILE,
               "%s throttled after %llu calls (mean %.1f ns%s): one call in %d timed",
               e->region.symbol, (unsigned long long)calls, mean_ns,
               callees ? ", with wrapped callees" : "", LW_THROTTLE_SAMPLE);
    }
    lw_region_unlock();
#else
    (void)node;
#endif
    return 0;
}

void lw_throttle_start(void)
{
#if LW_ABI_THROTTLES
    const char *why = lw_cfg.throttle_calls ? lw_throttle_unapplied() : NULL;
    lw_cfg.throttle_unapplied = why;
    if (why)
        lw_warn("LIBWRAP_THROTTLE: not applied with %s: every call is timed, visits exact", why);
#endif
}

uint64_t lw_throttled_after(int32_t id)
{
    uint32_t n = __atomic_load_n(&lw_nthrottled, __ATOMIC_ACQUIRE);
    for (uint32_t i = 0; i < n; i++)
        if (lw_throttled[i].id == id)
            return lw_throttled[i].after;
    return 0;
}

void lw_throttle_callee(int32_t parent)
{
#if LW_ABI_THROTTLES
    if (!lw_throttled_after(parent))
        return;
    lw_region_lock();
    libwrap_abi_entry *e = lw_throttle_entry(parent);
    if (e && __atomic_load_n(&e->state, __ATOMIC_RELAXED) == LW_ABI_STATE_THROTTLED) {
        lw_abi_set_state(e, LW_ABI_STATE_THROTTLED_FRAMED);
        lw_log(LW_LOG_PROFILE, "%s calls wrapped functions: its calls keep their frames", e->region.symbol);
    }
    lw_region_unlock();
#else
    (void)parent;
#endif
}

/* The timed visits of each region's call paths, summed as the profile is
 * written, for its log line (lw_throttle_log): its pages are touched only
 * with LIBWRAP_VERBOSE=profile and something throttled. */
static uint64_t lw_throttle_timed[LW_REGION_TABLE];

void lw_throttle_estimate(lw_node *n)
{
    if ((lw_cfg.verbose & LW_LOG_PROFILE) && lw_nthrottled && n->region > 0 && n->region < LW_REGION_TABLE)
        lw_throttle_timed[n->region] += n->visits - n->unmeasured;
    if (n->unmeasured && n->visits > n->unmeasured)
        n->incl = (uint64_t)(lw_throttle_incl(n) + 0.5);
    n->unmeasured = 0;
}

void lw_throttle_log(int32_t id, uint64_t visits, uint64_t after)
{
    if (!(lw_cfg.verbose & LW_LOG_PROFILE) || id <= 0 || id >= LW_REGION_TABLE)
        return;
    lw_log(LW_LOG_PROFILE, "%s: %llu visits, %llu of them timed (throttled after %llu calls: one in %d timed)",
           lw_region_name(id), (unsigned long long)visits, (unsigned long long)lw_throttle_timed[id],
           (unsigned long long)after, lw_throttle_sample());
    lw_throttle_timed[id] = 0;
}

int lw_throttle_sample(void)
{
#if LW_ABI_THROTTLES
    return LW_THROTTLE_SAMPLE;
#else
    return 1;
#endif
}
