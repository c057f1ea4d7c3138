/*
 * profile.c - the hot path (libwrap_enter, libwrap_exit) and the per-thread
 * call-path tree it updates.
 *
 * On entry, in this order: the global state (stopped?), the thread's state,
 * the recursion guard; then one timestamp. No lock, no system call: a thread
 * only touches its own tree, stack and counters. Memory is taken only when
 * the tree or the stack grows.
 *
 * Times are kept in ticks and converted when the profile is written.
 * Exclusive time = inclusive time - inclusive time of the callees, with both
 * measured by the same timestamps, so the two always add up; it is derived
 * when the profile is written, the hot path keeps inclusive time only.
 *
 * errno: the fast paths do not touch it; the full paths save and restore it
 * (lw_enter_full_keep_errno, lw_exit_full_keep_errno), so that a wrapper
 * need not (libwrap.h).
 */
#include "core/measure/hot.h"
#include "core/measure/lane.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#define LW_ARENA_CHUNK ((size_t)256 << 10)
#define LW_ARENA_FIRST ((size_t)16 << 10)
#define LW_HASH_INITIAL 1024

lw_node lw_node_none; /* region 0: no lookup ever matches it */

static uint8_t lw_region_flag[LW_REGION_TABLE];

uint8_t lw_region_flags(int32_t id, uint8_t set)
{
    if (id <= 0 || id >= LW_REGION_TABLE)
        return LW_REGION_CALLS;
    return set ? __atomic_fetch_or(&lw_region_flag[id], set, __ATOMIC_ACQ_REL)
               : __atomic_load_n(&lw_region_flag[id], __ATOMIC_ACQUIRE);
}

static size_t lw_node_bytes(void)
{
    return (sizeof(lw_node) + lw_nmetrics * sizeof(uint64_t) + 15) & ~(size_t)15;
}

static lw_node *lw_node_new(lw_tree *tree, lw_node *parent, int32_t region)
{
    size_t bytes = lw_node_bytes();
    if ((size_t)(tree->arena.end - tree->arena.cur) < bytes) {
        /* 16 KiB first, then as much as the tree has, up to 256 KiB a
         * chunk: a thread that makes a few calls (a server's thread a
         * request) keeps a few pages for its tree, not 256 KiB. */
        size_t size = tree->arena.total < LW_ARENA_FIRST ? LW_ARENA_FIRST
                      : tree->arena.total < LW_ARENA_CHUNK ? tree->arena.total
                                                           : LW_ARENA_CHUNK;
        char *chunk = lw_map(size);
        if (!chunk)
            return NULL;
        tree->arena.cur = chunk;
        tree->arena.end = chunk + size;
        tree->arena.total += size;
    }
    lw_node *n = (lw_node *)tree->arena.cur;
    tree->arena.cur += bytes;
    n->region = region;
    n->parent = parent;
    for (int k = 0; k < LW_LAST_HITS; k++) {
        n->last_hit[k] = &lw_node_none;
        n->last_region[k] = 0;
    }
    n->min = UINT64_MAX;
    if (parent) {
        lw_region_flags(parent->region, LW_REGION_CALLS);
        n->next_sibling = parent->first_child;
        /* Published complete: the finaliser may walk a running thread's tree. */
        __atomic_store_n(&parent->first_child, n, __ATOMIC_RELEASE);
    }
    return n;
}

int lw_tree_init(lw_tree *tree)
{
    memset(tree, 0, sizeof *tree);
    tree->hash = lw_map(LW_HASH_INITIAL * sizeof *tree->hash);
    if (!tree->hash)
        return -1;
    tree->hash_mask = LW_HASH_INITIAL - 1;
    tree->root = lw_node_new(tree, NULL, 0);
    return tree->root ? 0 : -1;
}

static int lw_hash_grow(lw_tree *tree)
{
    size_t size = (tree->hash_mask + 1) * 2;
    lw_node **hash = lw_map(size * sizeof *hash);
    if (!hash)
        return -1;
    for (size_t i = 0; i <= tree->hash_mask; i++) {
        lw_node *n = tree->hash[i];
        if (!n)
            continue;
        size_t j = lw_hash(n->parent, n->region) & (size - 1);
        while (hash[j])
            j = (j + 1) & (size - 1);
        hash[j] = n;
    }
    munmap(tree->hash, (tree->hash_mask + 1) * sizeof *hash);
    tree->hash = hash;
    tree->hash_mask = size - 1;
    return 0;
}

int lw_tree_grew;

int lw_measured_here(void)
{
    return LW_LOAD(lw_tree_grew);
}

lw_node *lw_tree_child(lw_tree *tree, lw_node *parent, int32_t region)
{
    int saved = errno;
    lw_node *found = lw_tree_find(tree, parent, region);
    if (found)
        return found;
    size_t i = lw_hash(parent, region) & tree->hash_mask;
    while (tree->hash[i])
        i = (i + 1) & tree->hash_mask;
    if ((tree->hash_used + 1) * 2 > tree->hash_mask + 1) {
        if (lw_hash_grow(tree) < 0)
            goto fail;
        i = lw_hash(parent, region) & tree->hash_mask;
        while (tree->hash[i])
            i = (i + 1) & tree->hash_mask;
    }
    lw_node *n = lw_node_new(tree, parent, region);
    if (!n)
        goto fail;
    tree->hash[i] = n;
    tree->hash_used++;
    if (!LW_LOAD(lw_tree_grew))
        LW_STORE(lw_tree_grew, 1);
    return n;
fail:
    errno = saved;
    return NULL;
}

/* Closes the top frame at `now`; `mnow` holds the current metric values. */
static void lw_pop(lw_thread *t, uint64_t now, const uint64_t *mnow)
{
    uint32_t d = t->depth - 1;
    lw_depth_set(t, d);
    lw_frame *f = &t->stack[d];
    lw_node *n = f->node;
    if (!f->inherited) {
        lw_frame_close(t, f, now, lw_cost_ticks[lw_region_kind(f->region)], 1);
        const uint64_t *mstart = t->mstack + (size_t)d * lw_nmetrics;
        for (size_t i = 0; i < lw_nmetrics; i++) {
            if (lw_unlikely(lw_metric_absolute & (1u << i))) {
                /* A level: the highest seen at the call's entry or exit. */
                uint64_t hi = mnow[i] > mstart[i] ? mnow[i] : mstart[i];
                if (hi > n->metrics[i])
                    n->metrics[i] = hi;
            } else {
                n->metrics[i] += mnow[i] - mstart[i];
            }
        }
    }
    if (t->listen && !f->inherited) /* a call entered before fork() was not the child's */
        lw_listen_exit(t, f->region, now, mnow);
}

static const uint64_t *lw_read_metrics(lw_thread *t)
{
    if (lw_nmetrics)
        lw_metrics_read(t, t->scratch);
    return t->scratch;
}

void lw_thread_close_from(lw_thread *t, uint32_t index, uint64_t now)
{
    const uint64_t *m = lw_read_metrics(t);
    while (t->depth > index)
        lw_pop(t, now, m);
}

void lw_thread_close_frames(lw_thread *t, uint64_t now)
{
    /* Handler calls still waiting go under the frames they interrupted. */
    lw_lane_merge(t);
    const uint64_t *m = lw_read_metrics(t);
    while (t->depth)
        lw_pop(t, now, m);
}

/*
 * Frames abandoned by longjmp (or an exception through C frames): a frame
 * still on our stack whose wrapper frame lies at or below the new wrapper's
 * frame cannot be live, since the stack grows down. They are closed now.
 * Only done when `frame` is on the thread's own stack: a handler on a
 * sigaltstack or a coroutine stack says nothing about the frames below.
 */
static void lw_unwind_abandoned(lw_thread *t, void *frame, uint64_t now)
{
    uintptr_t fa = (uintptr_t)frame;
    if (fa < t->stack_lo || fa >= t->stack_hi)
        return;
    const uint64_t *m = lw_read_metrics(t);
    while (t->depth && (uintptr_t)t->stack[t->depth - 1].frame <= fa)
        lw_pop(t, now, m);
}

static __attribute__((noinline)) int lw_enter_first(int32_t id, void *frame);

/* The runtime's one-time work since `since` (a function's first call, a
 * new call path, a larger stack) leaves the program's times: the thread's
 * measurement clock moves on by it, so the open calls leave it out, and
 * the new call starts at `now`. Returns `now`. Not on AArch64, whose
 * trampoline reads no measurement clock: there it must stay at 0. */
static inline uint64_t lw_clock_skip(lw_thread *t, uint64_t since, uint64_t now)
{
#if LW_CLOCK_KEPT
    if (now > since)
        t->overhead += now - since;
#else
    (void)t;
    (void)since;
#endif
    return now;
}

/* Everything but the common case: abandoned frames, a growing stack or
 * tree, metrics, tracing. Kept out of line so that the fast path needs few
 * registers. */
static __attribute__((noinline)) int lw_enter_slow(lw_thread *t, int32_t id, void *frame,
                                                   uint64_t now)
{
    uint32_t d = t->depth;
    if (d && (uintptr_t)t->stack[d - 1].frame <= (uintptr_t)frame) {
        lw_unwind_abandoned(t, frame, now);
        d = t->depth;
    }
    int grew = 0;
    if (d == t->cap) {
        if (lw_thread_grow_stack(t) < 0) {
            LW_GUARD_CLEAR();
            return 0;
        }
        grew = 1;
    }
    lw_node *parent = (t->stack + d)[-1].node; /* the root under the sentinel */
    lw_node *n = lw_last_hit(parent, id);
    if (!n) {
        n = lw_tree_find(&t->tree, parent, id);
        if (!n) {
            n = lw_tree_child(&t->tree, parent, id);
            if (!n) { /* out of memory: this call is not recorded */
                LW_GUARD_CLEAR();
                return 0;
            }
            grew = 1;
        }
        lw_note_hit(parent, n);
        /* The first callee seen of a function throttled as one that has
         * none (this call of it is a timed one): its calls keep their
         * frames from now on, so that their callees stay on their paths. */
        if (lw_unlikely(lw_region_flags(parent->region, 0) & LW_REGION_LEAF) && !n->visits)
            lw_hook->throttled_callee(parent->region);
    }
    if (grew)
        now = lw_clock_skip(t, now, lw_ticks());
    lw_frame *f = &t->stack[d];
    lw_frame_open(t, f, n, id, now, frame);
    const uint64_t *m = t->scratch;
    if (lw_nmetrics) {
        m = lw_read_metrics(t);
        memcpy(t->mstack + (size_t)d * lw_nmetrics, m, lw_nmetrics * sizeof *m);
    }
    lw_depth_set(t, d + 1);
    if (t->listen)
        lw_listen_enter(t, id, now, m);
    LW_GUARD_CLEAR();
    return 1;
}

/* Listeners (the trace), out of line and reached by a tail call: the fast path itself
 * makes no call and needs no saved registers. */
static __attribute__((noinline)) int lw_enter_listen(lw_thread *t, int32_t id, uint64_t now)
{
    lw_listen_enter(t, id, now, t->scratch);
    LW_GUARD_CLEAR();
    return 1;
}

static __attribute__((noinline)) void lw_exit_listen(lw_thread *t, int32_t id, uint64_t now)
{
    lw_listen_exit(t, id, now, t->scratch);
    LW_GUARD_CLEAR();
}

/* The clock_gettime timer takes the slow paths: a call on the fast path
 * would make it save registers in every call. */
static __attribute__((noinline)) int lw_enter_clock(lw_thread *t, int32_t id, void *frame, uint64_t since)
{
    uint64_t now = lw_ticks();
    if (lw_unlikely(since))
        now = lw_clock_skip(t, since, now);
    return lw_enter_slow(t, id, frame, now);
}

/* The full entry: everything lw_enter_fast (hot.h) leaves out. `since`:
 * the ticks at which one-time work for this call began (a function's
 * first call), kept out of the times, or 0. */
int lw_enter_full_since(int32_t id, void *frame, uint64_t since)
{
    if (lw_unlikely(LW_LOAD(lw_state) != 1))
        return 0;
    lw_thread *t = lw_tls.self;
    if (lw_unlikely(!t))
        return lw_enter_first(id, frame);
    if (lw_unlikely(LW_LOAD(lw_tls.guard)))
        return 0;
    if (lw_unlikely(LW_LOAD(lw_tls.switched)) && !lw_context_resume())
        return 0;
    if (lw_unlikely(lw_lane_pending(t)))
        lw_lane_settle(t);
    if (!lw_guard_take())
        return 0;
    if (lw_unlikely(!lw_timer_tsc))
        return lw_enter_clock(t, id, frame, since);
    uint64_t now = lw_rdtsc();
    if (lw_unlikely(since))
        now = lw_clock_skip(t, since, now);
    lw_node *n;
    if (lw_likely(t->listen && !t->slow) && (n = lw_known_child(t, id, frame))) {
        /* The common case with listeners: a known child, nothing else to do. */
        uint32_t d = t->depth;
        lw_frame_open(t, t->stack + d, n, id, now, frame);
        lw_depth_set(t, d + 1);
        return lw_enter_listen(t, id, now);
    }
    return lw_enter_slow(t, id, frame, now);
}

static __attribute__((noinline)) int lw_enter_full_keep_errno(int32_t id, void *frame)
{
    int saved = errno;
    int r = lw_enter_full(id, frame);
    errno = saved;
    return r;
}

/* A call made while the thread's guard is held: by the runtime itself (not
 * measured, 0), or by a signal handler that interrupted the runtime (the
 * thread's lane, lane.h: 1 when it is recorded there). */
static __attribute__((noinline)) int lw_enter_busy(int32_t id)
{
    lw_lane *l = LW_LOAD(lw_tls.lane);
    if (!(LW_LOAD(lw_tls.guard) & LW_GUARD_SIGNAL) || id <= 0)
        return 0;
    if (!l) {
        lw_lane_lose();
        return 0;
    }
    return lw_lane_push(l, lw_ticks());
}

static __attribute__((noinline)) void lw_exit_busy(int32_t id)
{
    lw_lane *l = LW_LOAD(lw_tls.lane);
    if ((LW_LOAD(lw_tls.guard) & LW_GUARD_SIGNAL) && l && l->depth)
        lw_lane_pop(l, lw_lane_typed(id), lw_ticks());
}

int libwrap_enter(int32_t id, void *frame)
{
#ifdef LIBWRAP_NOP
    (void)id;
    (void)frame;
    (void)lw_enter_first;
    (void)lw_enter_slow;
    (void)lw_enter_listen;
    (void)lw_enter_clock;
    (void)lw_enter_full_keep_errno;
    (void)lw_enter_busy;
    return 0;
#else
    if (lw_unlikely(LW_LOAD(lw_tls.guard)))
        return lw_enter_busy(id);
    int r = lw_enter_fast(id, frame);
    return lw_likely(r >= 0) ? r : lw_enter_full_keep_errno(id, frame);
#endif
}

static __attribute__((noinline)) int lw_enter_first(int32_t id, void *frame)
{
    if (LW_LOAD(lw_tls.guard))
        return 0;
    int saved = errno;
    LW_STORE(lw_tls.guard, 1);
    lw_thread *t = lw_thread_attach();
    LW_GUARD_CLEAR();
    errno = saved;
    return t ? lw_enter_full(id, frame) : 0;
}

static __attribute__((noinline)) void lw_exit_full_keep_errno(int32_t id)
{
    int saved = errno;
    lw_exit_full(id);
    errno = saved;
}

/* The depth (index plus 1) of thread t's innermost frame of region `id`,
 * 0 for none: the frame that an exit of `id` closes, with any above it that
 * a longjmp left (lw_exit_mismatch, lw_exit_abandoned). */
static uint32_t lw_frame_of(const lw_thread *t, int32_t id)
{
    uint32_t d = t->depth;
    while (d && t->stack[d - 1].region != id)
        d--;
    return d;
}

/* The top frame is not `id`: frames above the matching one were abandoned
 * (longjmp past their wrappers); close them, then the matching one. An exit
 * with no matching frame (its frame was already closed) records nothing. */
static void lw_exit_mismatch(lw_thread *t, int32_t id, uint64_t now)
{
    uint32_t i = lw_frame_of(t, id);
    if (!i)
        return;
    const uint64_t *m = lw_read_metrics(t);
    while (t->depth >= i)
        lw_pop(t, now, m);
}

static __attribute__((noinline)) void lw_exit_slow(lw_thread *t, int32_t id, uint64_t now)
{
    uint32_t d = t->depth;
    if (d && t->stack[d - 1].region == id)
        lw_pop(t, now, lw_read_metrics(t));
    else
        lw_exit_mismatch(t, id, now);
    LW_GUARD_CLEAR();
}

static __attribute__((noinline)) void lw_exit_clock(lw_thread *t, int32_t id)
{
    lw_exit_slow(t, id, lw_ticks());
}

/* Closes the top frame at `now` when it is region `id`'s and needs no more
 * than the statistics (no metrics, not inherited): 0 when it is not so,
 * and nothing was done. */
static inline int lw_close_known(lw_thread *t, int32_t id, uint64_t now)
{
    uint32_t d = t->depth;
    lw_frame *f = t->stack + d - 1;
    if (lw_unlikely(t->slow || f->region != id))
        return 0;
    lw_depth_set(t, d - 1);
    lw_frame_close(t, f, now, lw_cost_ticks[lw_region_kind(id)], 1);
    return 1;
}

/* Frames that a longjmp left above region `id`'s innermost frame (a
 * luaL_error under lua_pcall) closed at the exit of `id` before its result
 * is recorded: the result belongs to `id`'s call, in the profile and in
 * the trace, where it follows their ends. */
void lw_exit_abandoned(int32_t id)
{
    if (LW_LOAD(lw_state) != 1)
        return;
    lw_thread *t = lw_tls.self;
    if (!t || LW_LOAD(lw_tls.guard) || !t->depth || t->stack[t->depth - 1].region == id)
        return;
    if (lw_unlikely(lw_lane_pending(t)))
        lw_lane_settle(t);
    if (!lw_guard_take())
        return;
    uint32_t i = lw_frame_of(t, id);
    if (i) {
        uint64_t now = lw_ticks();
        const uint64_t *m = lw_read_metrics(t);
        while (t->depth > i)
            lw_pop(t, now, m);
    }
    LW_GUARD_CLEAR();
}

/* The full exit: everything lw_exit_fast (hot.h) leaves out. */
void lw_exit_full(int32_t id)
{
    if (lw_unlikely(LW_LOAD(lw_state) != 1))
        return;
    lw_thread *t = lw_tls.self;
    if (lw_unlikely(!t || LW_LOAD(lw_tls.guard)))
        return;
    if (lw_unlikely(lw_lane_pending(t)))
        lw_lane_settle(t);
    if (!lw_guard_take())
        return;
    if (lw_unlikely(!lw_timer_tsc)) {
        lw_exit_clock(t, id);
        return;
    }
    uint64_t now = lw_rdtsc();
    if (!lw_close_known(t, id, now)) {
        lw_exit_slow(t, id, now);
        return;
    }
    if (t->listen) {
        lw_exit_listen(t, id, now);
        return;
    }
    LW_GUARD_CLEAR();
}

void libwrap_exit(int32_t id)
{
#ifdef LIBWRAP_NOP
    (void)id;
    (void)lw_exit_slow;
    (void)lw_exit_listen;
    (void)lw_exit_clock;
    (void)lw_exit_full_keep_errno;
    (void)lw_exit_busy;
#else
    if (lw_unlikely(LW_LOAD(lw_tls.guard))) {
        lw_exit_busy(id);
        return;
    }
    if (lw_unlikely(lw_exit_fast(id, LW_KIND_TYPED) < 0))
        lw_exit_full_keep_errno(id);
#endif
}
