/*
 * measure.h - threads, call trees and regions (core/measure/README.md):
 *
 *   thread.c      per-thread state, registry of threads, TSD destructor
 *   profile.c     the typed wrappers' entry points and the call tree
 *   region.c      region registry and the runtime filter
 *   lane.c        calls of signal handlers (lane.h)
 *   compensate.c  the measurement's own cost, calibrated once
 *   listen.c      the metric sources and listeners (listen.h)
 *   hooks.h       the layers above, told of threads and regions
 *
 * The hot path itself is hot.h.
 */
#ifndef LIBWRAP_RUNTIME_CORE_MEASURE_H
#define LIBWRAP_RUNTIME_CORE_MEASURE_H

#include "core/base/base.h"
#include "filter.h"

/* Internal to the runtime's shared object: hidden, so that -fPIC code
 * reaches it directly instead of through the GOT. */
#pragma GCC visibility push(hidden)

/* Leaving the runtime on the hot path. A release store (a plain store on
 * x86): the finaliser's acquire load of the guard that finds it clear then
 * sees everything the thread wrote to its stack and tree before, which is
 * what lets it close that thread's frames (lw_finish). */
#define LW_GUARD_CLEAR() __atomic_store_n(&lw_tls.guard, 0, __ATOMIC_RELEASE)
/* lw_tls.guard: bit 0 the runtime runs on this thread; bit 1 (with it) a
 * signal handler interrupted it, and the handler's wrapped calls go to the
 * thread's lane (lane.h, signal.c). The same value as abi.h's. */
#define LW_GUARD_SIGNAL 2
/* The guard of a thread whose signal handler left the runtime by longjmp
 * (signal.c): held for good, and not waited for by the finaliser. */
#define LW_GUARD_ABANDONED 5

/* ---- profile.c: the call tree ----------------------------------------- */

/* The layouts of lw_node, lw_frame, lw_thread and lw_tls_block are read by
 * the ABI trampoline's assembly too (abi.h lists the offsets it uses; abi.c
 * checks them at compile time). */
#define LW_LAST_HITS 4
typedef struct lw_node {
    int32_t region; /* 0 for the root */
    uint32_t args;  /* its recorded arguments: lw_thread.args.blocks[args - 1]; 0 none */
    struct lw_node *parent, *first_child, *next_sibling;
    /* The children found by the last LW_LAST_HITS lookups, the latest
     * first: a parent that calls a few children in turn (a lock, a free,
     * an unlock) finds them here. lw_node_none until there is one. Their
     * regions beside them (0 for none, never a match): a lookup compares
     * the region from the parent and takes the child at once, with no load
     * of the child's own region waiting for the child's address. */
    struct lw_node *last_hit[LW_LAST_HITS];
    int32_t last_region[LW_LAST_HITS];
    /* Ticks on the thread's measurement clock (lw_thread.overhead): each
     * call's interval less the measurement's cost of the calls below it. */
    uint64_t visits, incl, min, max;
    /* Visits counted without timing: the region is throttled (throttle.c);
     * incl, min and max are those of the other, sampled, visits. */
    uint64_t unmeasured;
    /* Filled in when the profile is written (profile_write.c): the times as
     * measured (raw: incl plus the cost of the calls below), exclusive =
     * inclusive minus the callees' inclusive time; and both with the
     * call's own measurement cost taken out too (compensate.c). */
    uint64_t incl_raw, excl, incl_c, excl_c;
    uint64_t metrics[];   /* lw_nmetrics inclusive sums */
} lw_node;

extern lw_node lw_node_none;

#define LW_FRAME_UNTIMED UINT64_MAX

/* A frame of the call stack: 32 bytes. stack[-1], below every thread's
 * first frame, is a sentinel: the root of the tree as its node, the highest
 * frame address (nothing below it is ever abandoned) and region 0 (no exit
 * matches it), so the hot path needs no test for an empty stack. */
typedef struct lw_frame {
    lw_node *node;  /* never NULL: a call whose node cannot be had is not recorded */
    uint64_t start; /* on the measurement clock; LW_FRAME_UNTIMED: a throttled call not timed */
    void *frame;    /* the wrapper's frame address */
    int32_t region;
    int inherited;  /* entered before fork(): not counted in the child */
} lw_frame;

/* Memory for one thread's tree: mmap'ed chunks, never freed before exit,
 * so the finaliser can read a running thread's tree without a lock. */
typedef struct lw_arena {
    char *cur, *end;
    size_t total;
} lw_arena;

typedef struct lw_tree {
    lw_node *root;
    lw_arena arena;
    lw_node **hash; /* (parent, region) -> node; open addressing */
    size_t hash_mask, hash_used;
} lw_tree;


int lw_tree_init(lw_tree *tree);
/* The child of `parent` for `region`, made when there is none (NULL
 * without memory). Making one marks parent's region LW_REGION_CALLS. */
lw_node *lw_tree_child(lw_tree *tree, lw_node *parent, int32_t region);
/* 1 once a call path was made in this process, since its start or its
 * fork (a measured call's first visit makes one): the process has
 * measured. A fork child's own, apart from its parent's (lw_tree_grew, set
 * to 0 in the child). */
extern int lw_tree_grew;
int lw_measured_here(void);

/* The wrapped functions (region ids below this) that per-function tables
 * hold: lw_region_flags here, the throttle's counts (throttle.c). */
#define LW_REGION_TABLE 65536

/* What is known of a wrapped function (a region id) on every call path and
 * thread: LW_REGION_CALLS once a node of it has a child (it calls wrapped
 * functions), LW_REGION_LEAF once it is throttled with no callee on the
 * path checked (throttle.c: without a frame unless LW_REGION_CALLS; a
 * callee seen from then on gives it its frames). lw_region_flags adds
 * `set` and returns the flags before it; a region beyond the table reads
 * LW_REGION_CALLS, which keeps it off the throttled path without a frame. */
#define LW_REGION_CALLS 1
#define LW_REGION_LEAF 2
uint8_t lw_region_flags(int32_t id, uint8_t set);

/* ---- thread.c ---------------------------------------------------------- */

/* A thread's recorded arguments (arguments.c): one block per call path
 * node that recorded any, found through lw_node.args, in memory of its own
 * that is never freed before the end (the finaliser reads it); and the
 * integers the common case set aside, not yet in their slots' statistics
 * (lw_args_add). */
typedef struct lw_args_thread {
    struct lw_argblock **blocks;
    uint32_t n, cap;
    lw_arena arena;
    struct lw_argslot **pend_slot; /* LW_ARG_PEND each, with the first block */
    uint64_t *pend_val;
    uint32_t npend;
} lw_args_thread;

typedef struct lw_thread {
    lw_frame *stack;        /* stack[-1] is the sentinel frame */
    uint32_t depth, cap;
    uint32_t tid;           /* dense, 0 = first thread measured (main) */
    int alive;              /* cleared when the thread has ended */
    int *guard;             /* the thread's lw_tls.guard, read by the finaliser */
    struct lw_thread **fastp; /* the thread's lw_tls.fast, .hot and .hot_ev, */
    struct lw_thread **hotp;  /* cleared by the finaliser */
    struct lw_thread **hot_evp;
    int slow;               /* metrics, or frames inherited at fork: slow path */
    int listen;             /* listeners are loaded (lw_listen_*); those that take
                             * each call (lw_listeners_percall) keep the typed
                             * wrappers on the slow path (lw_thread_paths) */
    /* The event buffer (listeners with `events`, no SYNC metrics): the fast
     * paths append a record per entry and exit; full, it is delivered
     * (lw_events_flush). NULL when events are not buffered. */
    libwrap_event *ev_pos, *ev_end, *ev_base;
    /* The measurement clock: the ticks the calls this thread finished cost
     * to measure (lw_cost_ticks each). A frame's start and a call's end
     * are read on it (the timer's ticks less this), so a call's interval
     * holds no measurement cost of the calls below it: every call's time,
     * min and max included, is its own (docs/runtime.md). */
    uint64_t overhead;
    lw_tree tree;
    uint64_t *mstack;       /* lw_nmetrics values per frame */
    uintptr_t stack_lo, stack_hi; /* the thread's stack, for longjmp detection */
    int *errnop;            /* the thread's errno (__errno_location), kept by the
                             * per-call listeners' deliveries */
    uint64_t scratch[LW_MAX_METRICS];
    void *metric_handle[LW_MAX_PLUGINS];   /* per metric source (lw_msources) */
    void *listener_handle[LW_MAX_PLUGINS]; /* per listener (lw_listeners) */
    lw_args_thread args;
    struct lw_lane *lane;   /* calls of signal handlers waiting for a merge (lane.h) */
    int busy_at_end;        /* still inside the runtime when measurement ended */
    int tsd_round;          /* the rounds of TSD destructors seen (thread.c) */
    struct lw_thread *next;
} lw_thread;

/*
 * The hot path's thread-local data, in one initial-exec TLS block: one
 * offset load, then %fs-relative accesses. `guard` is the recursion guard,
 * set while the thread runs runtime code; it lives here, not in lw_thread,
 * because it is needed before the thread state exists.
 *
 * `fast` is the thread's state when its calls may take the fast paths
 * (lw_enter_fast, lw_exit_fast: the TSC timer, no metrics, no listener that
 * wants each call, no frames inherited at fork), else NULL; `hot` the same
 * when, besides, no event is buffered, and `hot_ev` when events are: the
 * ABI trampoline's own assembly fast paths, with and without events; else
 * &lw_thread_none, never NULL, so that the assembly needs no test for them.
 * They are read after the guard is set, which makes them the check that
 * measurement still runs: the finaliser clears them for every thread before
 * its membarrier (lw_finish), so a thread either sees them cleared or is
 * seen holding its guard.
 */
typedef struct lw_tls_block {
    lw_thread *self;
    lw_thread *fast;
    lw_thread *hot;
    int guard;
    /* The thread switched execution contexts (swapcontext, setcontext)
     * while a measured call was open: nothing is measured until every such
     * call has returned (lw_context_resume). */
    int switched;
    struct lw_ra *ra_top, *ra_base, *ra_end; /* the ABI trampolines' return slots (abi.c) */
    lw_thread *hot_ev;
    struct lw_lane *lane; /* self->lane, for signal handlers (lane.h) */
    uintptr_t busy_pc;    /* where a signal interrupted the runtime (signal.c) */
    /* The plugin callback the thread is in (lw_plugin_mark), for the
     * fatal-signal handler: LW_IN_SOURCE or LW_IN_LISTENER + its slot, 0
     * outside plugins. */
    int plugin_at;
    const char *plugin_cb;
} lw_tls_block;
extern __thread lw_tls_block lw_tls __attribute__((tls_model("initial-exec")));

/* "No thread" for lw_tls.hot: its depth (UINT32_MAX) and cap (0) fail the
 * trampoline's checks. */
extern lw_thread lw_thread_none;

/* The calling thread's fast paths off (lw_tls.fast, .hot, .hot_ev): its
 * calls take the C hooks (lw_thread_set_paths turns them on). */
static inline void lw_thread_paths_off(void)
{
    LW_STORE(lw_tls.fast, NULL);
    LW_STORE(lw_tls.hot, &lw_thread_none);
    LW_STORE(lw_tls.hot_ev, &lw_thread_none);
}

/* Whether the calling thread has a measured call open: a return slot
 * taken, or a frame. Loads only (the ABI hooks' general registers). */
static inline int lw_calls_open(void)
{
    return LW_LOAD(lw_tls.ra_top) != lw_tls.ra_base || (lw_tls.self && lw_tls.self->depth);
}

/* Whether a call open at a context switch of this thread (lw_tls.switched)
 * is still open. */
static inline int lw_context_open(void)
{
    return LW_LOAD(lw_tls.switched) && lw_calls_open();
}

/* After a context switch inside a measured call (lw_tls.switched): 1 when
 * every call open then has returned, measurement taken up again; 0 while
 * one is open (the call is not measured). thread.c. */
int lw_context_resume(void);

void *lw_map(size_t bytes); /* zeroed anonymous memory, NULL on failure */
lw_thread *lw_thread_attach(void);
int lw_thread_grow_stack(lw_thread *t);
/* The paths the calls of `t` may take, into to->fast, ->hot and ->hot_ev.
 * `percall`: listeners take each call (lw_listeners_percall), from a
 * buffer of one record (listen.h). The typed wrappers' fast paths would
 * store it and leave it there: only the trampoline's, which delivers it at
 * once, is taken then. */
void lw_thread_paths(lw_thread *t, int percall, lw_tls_block *to);
/* Sets the calling thread's lw_tls.fast, .hot and .hot_ev from t's flags
 * (its own thread only, measurement running). */
void lw_thread_set_paths(lw_thread *t);
/* Closes the open frames of `t` at `now` (thread end, finalisation). */
void lw_thread_close_frames(lw_thread *t, uint64_t now);
/* Closes the frames of `t` from stack[index] up at `now`, the guard held
 * (a call that returned on another thread: core/abi/abi_slow.c). */
void lw_thread_close_from(lw_thread *t, uint32_t index, uint64_t now);
/*
 * The runtime's locks, and the one order in which a thread may hold several
 * of them (outermost first); a path that needs two takes them in this order
 * or a fork() racing with finalisation deadlocks:
 *
 *   1. the region table       lw_region_lock            region.c
 *   2. the thread registry    lw_thread_registry_lock   thread.c
 *   3. the experiment dir     lw_dir_mutex              jobs/directory.c
 *   4. the plugins' own locks (the otf2 listener's thread list, OTF2's)
 *
 * lw_finish takes 1, 2, then 3 and 4 through lw_experiment_dir and the
 * trace writer; the atfork prepare handler takes 1, 2, 3 and holds them
 * across fork(); thread start and end take 2 (then 4). The resolver's
 * warn-once list (resolve.c) is a leaf: nothing is taken under it. None of
 * them is taken on the hot path (libwrap_enter/exit). Every holder sets the
 * thread's guard (lw_tls.guard) before it allocates, so the allocator may be
 * wrapped: its wrappers, called under these locks, take none of them
 * (libwrap_region_register and libwrap_enter return "not measured").
 */
void lw_thread_registry_lock(void);
void lw_thread_registry_unlock(void);
lw_thread *lw_thread_first(void); /* under the registry lock */
void lw_thread_init_process(void);
/* In a fork child: only the calling thread remains, with an empty tree. */
void lw_thread_after_fork_child(void);

/* ---- region.c ---------------------------------------------------------- */

void lw_region_init(void); /* loads LIBWRAP_FILTERING_FILE */
/* The arguments to record of a region that registers, as region `id`
 * (arguments_select.c's lw_args_select, set by lw_args_init): 0 none. */
extern uint64_t (*lw_region_args_select)(int32_t id, const libwrap_region *r, const libwrap_params *p,
                                         int abi);
/* The entry that is the result, or -1. */
static inline int lw_args_result_index(const libwrap_params *p)
{
    return p->n && (p->param[p->n - 1].flags & LIBWRAP_PARAM_RESULT) ? (int)p->n - 1 : -1;
}
/* libwrap_region_register for an ABI-level entry, with its parameter table
 * when it has one (LIBWRAP_ABI_PARAMS). */
int32_t lw_region_register_abi(libwrap_abi_entry *e);
size_t lw_region_count(void);
const libwrap_region *lw_region_get(int32_t id);
/* A region's display name, fixed once at its registration: its `name`,
 * else (NULL or empty) its `symbol`; "?" for no region. Every writer of
 * the runtime names a region with it. */
const char *lw_region_name(int32_t id);
/* Stable snapshot of the region table for the trace writer. */
const libwrap_region *const *lw_region_table(size_t *n);
void lw_region_lock(void); /* lock 1 of the order given at lw_thread_registry_lock */
void lw_region_unlock(void);
void lw_region_after_fork_child(void);
/* How a region's calls are forwarded: the wrapper kind whose measurement
 * cost is compensated (compensate.c). Typed unless the ABI path said so. */
enum lw_wrapper_kind { LW_KIND_TYPED, LW_KIND_ABI, LW_NKINDS };
void lw_region_set_kind(int32_t id, enum lw_wrapper_kind kind);
enum lw_wrapper_kind lw_region_kind(int32_t id);

/* ---- compensate.c: the measurement's own cost ------------------------- */

/*
 * Calibrated once, before the first measured call (lw_compensate_calibrate,
 * from lw_abi_calibrate, after the plugins are loaded) for the timer and
 * the path the run uses, per wrapper kind, in ticks per call: `inside`
 * lands in the measured call's own interval (from its entry timestamp to
 * the original's first instruction, and from the original's return to the
 * exit timestamp),
 * `total` is the whole cost a call adds to its caller's interval,
 * `fastest` the least that lands in a call's interval (the fastest
 * calibration call's, at most `inside`): what a call's shortest time
 * loses (lw_call_c). All 0 when compensation is off
 * (LIBWRAP_COMPENSATE=false, or not calibrated).
 */
typedef struct lw_cost {
    double inside, total, fastest;
} lw_cost;
extern lw_cost lw_costs[LW_NKINDS];
/* `total` in whole ticks, what each finished call adds to its thread's
 * measurement clock (lw_thread.overhead); 0 when compensation is off, and
 * on AArch64, whose trampoline keeps no clock. The x86-64 trampoline's
 * assembly reads lw_cost_ticks[LW_KIND_ABI]. */
extern uint64_t lw_cost_ticks[LW_NKINDS];
/* The same for a throttled ABI-level call that was not timed
 * (LIBWRAP_THROTTLE): [LW_UNTIMED_LEAF] one counted and jumped to,
 * [LW_UNTIMED_FRAMED] one that kept its frame. The assembly reads both. */
enum { LW_UNTIMED_LEAF, LW_UNTIMED_FRAMED };
extern uint64_t lw_cost_untimed[2];
/* The wrappers the calibration calls, like generated ABI-level ones of an
 * empty function (core/abi's lw_abi_calib_stub), in the states the runtime
 * gives them: measured, throttled, throttled keeping frames (one call in
 * `sample` of these timed). NULL where there is no ABI forwarding, or
 * where the untimed calls' cost is not taken out (AArch64, whose
 * trampoline keeps no measurement clock). */
typedef struct lw_calib_abi {
    int (*measured)(int), (*throttled)(int), (*framed)(int);
    int sample;
} lw_calib_abi;
void lw_compensate_calibrate(const lw_calib_abi *abi);
/* Not calibrated yet, and why, should it stay so (config.txt). */
void lw_compensate_not_yet(const char *why);
/* The calibration's region: no real region has this id, and its node lives
 * in the private thread's tree only. */
#define LW_CALIB_ID INT32_MAX
/* Each calibration takes the best of LW_CALIB_ROUNDS rounds of
 * LW_CALIB_CALLS calls (compensate.c, and the recordings',
 * lw_calib_ticks). The start's own (lw_compensate_calibrate) stops
 * sooner once LW_CALIB_SETTLED rounds in a row have made none of its
 * bests lower by more than 1/256: a quiet machine settles in a few
 * rounds, a busy one takes all of them. */
#define LW_CALIB_CALLS 256u
#define LW_CALIB_ROUNDS 24u
#define LW_CALIB_SETTLED 4u
/* The ticks per call of the best of LW_CALIB_ROUNDS rounds of
 * `round(ctx)`, which makes LW_CALIB_CALLS calls and returns the ticks
 * of its own that the measurement clock left out (arguments set aside
 * entering their statistics, lw_args_reduce), rounded; 0 when no
 * round took time. */
uint64_t lw_calib_ticks(uint64_t (*round)(void *ctx), void *ctx);
int lw_compensating(void);
/* config.txt's lines, profile.json's "compensation", profile.txt's note. */
void lw_compensate_config_write(FILE *out);
void lw_compensate_json(struct lw_json *j);
void lw_compensate_txt(FILE *f);

#pragma GCC visibility pop

#endif /* LIBWRAP_RUNTIME_CORE_MEASURE_H */
