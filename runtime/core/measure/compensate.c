/*
 * compensate.c - the measurement's own cost, calibrated once and taken
 * out of the profile's times (LIBWRAP_COMPENSATE, docs/runtime.md).
 *
 * A measured call's interval runs from the timestamp its entry takes to the
 * one its exit takes. Some of the wrapper's and the runtime's own work lies
 * inside it (`inside`: from the entry timestamp to the original's first
 * instruction, and from the original's return to the exit timestamp), and
 * the whole of it (`total`) lies inside the caller's interval. For the tiny
 * functions that libwrap is made for, both are larger than the function.
 *
 * Calibration runs the path the run takes, with the run's timer, on a
 * private thread state (it never reaches the profile, the listeners or the
 * experiment directory): an empty function is called plainly, through a
 * typed wrapper written as the generator writes them, and (x86-64) through
 * the ABI trampoline with a private table entry. In rounds of a few hundred
 * calls, the best round of each: `total` is the wrapped call's cost less the
 * plain call's, `inside` the mean interval recorded less the plain call's,
 * `fastest` the shortest interval of one call less the plain call's.
 * Until the bests settle (LW_CALIB_SETTLED rounds in a row lower none of
 * them by more than 1/256), at most LW_CALIB_ROUNDS rounds: some 5,000
 * to 12,000 calls, 18,000 at most, well under a millisecond with the
 * TSC.
 *
 * Not calibrated, so not compensated: runs with SYNC metrics (reading them
 * costs more than the rest and varies), and the calls of listeners that
 * take each call (their cost is theirs). The slow paths (a thread's or a
 * call path's first call, a growing stack, a full event buffer) are charged
 * the common path's cost.
 */
#include "core/measure/hot.h"
#include "core/base/json.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/mman.h>


lw_cost lw_costs[LW_NKINDS];
uint64_t lw_cost_ticks[LW_NKINDS];
uint64_t lw_cost_untimed[2];

static struct {
    int done;       /* calibrated: lw_costs hold the figures */
    const char *why_not; /* when LIBWRAP_COMPENSATE=true but nothing is compensated */
    const char *mode;    /* "profile", "trace" (buffered events), "listeners" */
    double plain;        /* ticks of a plain call of the empty function */
} lw_cal;

/* The empty function: what a trivial library function costs when called. */
static __attribute__((noinline)) int lw_calib_empty(int x)
{
    __asm__ volatile("");
    return x + 1;
}

/* Read through a volatile pointer, as a wrapper reads its original: the
 * compiler cannot inline or drop the calls. */
static int (*volatile lw_calib_orig)(int) = lw_calib_empty;
static volatile int lw_calib_sink;

static libwrap_region lw_calib_region = {"libwrap_calibration", "libwrap_calibration", "", 0,
                                         LW_CALIB_ID};

/* The typed wrapper's body as templates/wrappers.c.in writes it. */
static __attribute__((noinline)) int lw_calib_typed(int x)
{
    int (*f)(int) = lw_calib_orig;
    int32_t id = libwrap_region_id(&lw_calib_region);
    if (id < 0)
        return f(x);
    int recorded = libwrap_enter(id, __builtin_frame_address(0));
    int r = f(x);
    if (recorded)
        libwrap_exit(id);
    return r;
}


int lw_compensating(void)
{
    return lw_cal.done;
}

void lw_compensate_not_yet(const char *why)
{
    if (!lw_cal.done)
        lw_cal.why_not = why;
}

/* One round: ticks for `n` calls of fn. */
static uint64_t lw_calib_round(int (*fn)(int), unsigned n)
{
    int sum = 0;
    uint64_t t0 = lw_ticks();
    for (unsigned i = 0; i < n; i++)
        sum += fn((int)i);
    uint64_t t1 = lw_ticks();
    lw_calib_sink += sum;
    return t1 > t0 ? t1 - t0 : 0;
}

uint64_t lw_calib_ticks(uint64_t (*round)(void *ctx), void *ctx)
{
    double best = INFINITY;
    for (unsigned r = 0; r < LW_CALIB_ROUNDS; r++) {
        uint64_t t0 = lw_ticks();
        uint64_t aside = round(ctx);
        uint64_t t1 = lw_ticks();
        if (t1 > t0 + aside && (double)(t1 - t0 - aside) / LW_CALIB_CALLS < best)
            best = (double)(t1 - t0 - aside) / LW_CALIB_CALLS;
    }
    return isfinite(best) ? (uint64_t)(best + 0.5) : 0;
}

typedef struct lw_best {
    double total, inside; /* ticks per call, best round */
    double fastest;       /* ticks of the shortest call, any round */
} lw_best;

/* `v` into `*best` when lower: 1 when lower by more than 1/256, or the
 * first figure at all (the calibration has not settled yet). */
static int lw_calib_lower(double *best, double v)
{
    int much = v < *best && (isinf(*best) || v < *best - *best / 256);
    if (v < *best)
        *best = v;
    return much;
}

/* A round through a wrapper: its cost, the mean interval recorded, and the
 * shortest one (its node's minimum, restarted for the round). Returns 1
 * when it lowered the best cost or interval by more than 1/256. */
static int lw_calib_wrapped(lw_thread *t, int (*fn)(int), lw_best *best)
{
    lw_node *n = t->tree.root->last_hit[0];
    uint64_t v0 = n->visits, i0 = n->incl;
    if (n->region == LW_CALIB_ID) /* else lw_node_none: the round makes it */
        n->min = UINT64_MAX;
    if (t->ev_base)
        t->ev_pos = t->ev_base;
    double total = (double)lw_calib_round(fn, LW_CALIB_CALLS) / LW_CALIB_CALLS;
    n = t->tree.root->last_hit[0];
    if (n->region != LW_CALIB_ID || n->visits - v0 != LW_CALIB_CALLS)
        return 0; /* a call took a path that did not record it: not a clean round */
    double inside = (double)(n->incl - i0) / LW_CALIB_CALLS;
    if ((double)n->min < best->fastest)
        best->fastest = (double)n->min;
    int lower = lw_calib_lower(&best->total, total);
    return lw_calib_lower(&best->inside, inside) | lower;
}

/* The private thread state: as a real thread's on the path the run takes,
 * but calling no listener and reading no metric. */
static lw_thread *lw_calib_thread(void)
{
    lw_thread *t = lw_map(sizeof *t);
    if (!t || lw_tree_init(&t->tree) < 0 || lw_thread_grow_stack(t) < 0)
        return NULL;
    t->tid = UINT32_MAX;
    t->guard = &lw_tls.guard;
    t->fastp = &lw_tls.fast;
    t->hotp = &lw_tls.hot;
    t->hot_evp = &lw_tls.hot_ev;
    if (lw_events_buffered) {
        /* Room for a round's events: the buffer never fills here. */
        size_t n = 2 * LW_CALIB_CALLS + 16;
        t->ev_base = lw_map(n * sizeof *t->ev_base);
        if (!t->ev_base)
            return NULL;
        t->ev_pos = t->ev_base;
        t->ev_end = t->ev_base + n;
    }
    return t;
}

/* The mean ticks per call of `fn`, a throttled calibration wrapper: one
 * call in `sample` of it is timed, so the untimed calls' own mean is had
 * from the mix and the timed calls' `timed`. Less `plain`; 0 when no
 * round was clean (every call counted on the calibration's node). */
static double lw_calib_untimed(lw_thread *t, int (*fn)(int), int sample, double timed, double plain)
{
    double best = INFINITY;
    for (unsigned r = 0; r < LW_CALIB_ROUNDS; r++) {
        lw_node *n = t->tree.root->last_hit[0];
        uint64_t v0 = n->visits;
        double mix = (double)lw_calib_round(fn, LW_CALIB_CALLS) / LW_CALIB_CALLS;
        n = t->tree.root->last_hit[0];
        if (n->region == LW_CALIB_ID && n->visits - v0 == LW_CALIB_CALLS && mix < best)
            best = mix;
    }
    if (!isfinite(best))
        return 0;
    double untimed = (best * sample - timed) / (sample - 1) - plain;
    return untimed > 0 ? untimed : 0;
}

void lw_compensate_calibrate(const lw_calib_abi *abi_fns)
{
    int (*abi_fn)(int) = abi_fns ? abi_fns->measured : NULL;
    lw_cal.done = 0;
    lw_cal.why_not = NULL;
    for (int k = 0; k < LW_NKINDS; k++) {
        lw_costs[k] = (lw_cost){0, 0, 0};
        lw_cost_ticks[k] = 0;
    }
    lw_cost_untimed[LW_UNTIMED_LEAF] = lw_cost_untimed[LW_UNTIMED_FRAMED] = 0;
    lw_cal.mode = lw_nlisteners && lw_listeners_percall ? "listeners"
                  : lw_events_buffered                  ? "trace"
                                                        : "profile";
    if (!lw_cfg.compensate || !lw_cfg.profiling)
        return;
    if (lw_nmetrics) {
        lw_cal.why_not = "SYNC metrics are measured";
        return;
    }
    lw_thread *t = lw_calib_thread();
    if (!t) {
        lw_cal.why_not = "out of memory";
        return;
    }
    int saved_errno = errno;
    lw_tls_block saved = lw_tls;
    int guard = LW_LOAD(lw_tls.guard);
    lw_tls.self = t;
    /* The paths a real thread of this run takes (lw_thread_set_paths). */
    lw_tls_block paths;
    lw_thread_paths(t, lw_nlisteners && lw_listeners_percall, &paths);
    lw_thread *fast = paths.fast;
    lw_tls.fast = fast;
    lw_tls.hot = paths.hot;
    lw_tls.hot_ev = paths.hot_ev;
    LW_STORE(lw_tls.guard, 0);

    struct timespec m0, m1;
    lw_clock_gettime(CLOCK_MONOTONIC, &m0);
    /* A first round of each kind creates the node and the ABI return
     * slots (the slow paths); then the measured rounds, interleaved. */
    lw_best typed = {INFINITY, INFINITY, INFINITY}, abi = typed, skip = typed;
    double plain = INFINITY;
    lw_calib_wrapped(t, lw_calib_typed, &skip);
    if (abi_fn)
        lw_calib_wrapped(t, abi_fn, &skip);
    unsigned settled = 0, rounds = 0;
    while (rounds < LW_CALIB_ROUNDS && settled < LW_CALIB_SETTLED) {
        double p = (double)lw_calib_round(lw_calib_orig, LW_CALIB_CALLS) / LW_CALIB_CALLS;
        int lower = lw_calib_lower(&plain, p);
        lower |= lw_calib_wrapped(t, lw_calib_typed, &typed);
        if (abi_fn)
            lower |= lw_calib_wrapped(t, abi_fn, &abi);
        /* A best still infinite (no clean round yet) is never settled. */
        settled = lower || !isfinite(typed.total) || (abi_fn && !isfinite(abi.total)) ? 0 : settled + 1;
        rounds++;
    }
    /* Throttled calls, when the run throttles (never with events). */
    double untimed[2] = {0, 0};
    if (abi_fn && abi_fns->throttled && abi_fns->framed && abi_fns->sample > 1 && lw_cfg.throttle_calls &&
        !t->ev_base && fast && isfinite(abi.total) && isfinite(plain)) {
        int s = abi_fns->sample;
        untimed[LW_UNTIMED_LEAF] = lw_calib_untimed(t, abi_fns->throttled, s, abi.total, plain);
        untimed[LW_UNTIMED_FRAMED] = lw_calib_untimed(t, abi_fns->framed, s, abi.total, plain);
    }
    lw_clock_gettime(CLOCK_MONOTONIC, &m1);

    LW_STORE(lw_tls.guard, guard);
    lw_tls.self = saved.self;
    lw_tls.fast = saved.fast;
    lw_tls.hot = saved.hot;
    lw_tls.hot_ev = saved.hot_ev;
    errno = saved_errno;

    if (!abi_fn)
        abi = typed; /* no ABI wrappers here */
    if (!isfinite(plain) || !isfinite(typed.total) || !isfinite(abi.total)) {
        lw_cal.why_not = "the calibration's calls were not recorded";
        return;
    }
    const lw_best *b[LW_NKINDS] = {[LW_KIND_TYPED] = &typed, [LW_KIND_ABI] = &abi};
    for (int k = 0; k < LW_NKINDS; k++) {
        double inside = b[k]->inside - plain, total = b[k]->total - plain;
        double fastest = b[k]->fastest - plain;
        inside = inside > 0 ? inside : 0;
        fastest = fastest < 0 ? 0 : fastest < inside ? fastest : inside;
        lw_costs[k] = (lw_cost){inside, total > inside ? total : inside, fastest};
#if LW_CLOCK_KEPT /* else callees are compensated at the mean (base.h) */
        lw_cost_ticks[k] = (uint64_t)(lw_costs[k].total + 0.5);
#endif
    }
    /* An untimed call costs its caller at most what a timed one does. */
    for (int u = 0; u < 2; u++) {
        double c = untimed[u] < lw_costs[LW_KIND_ABI].total ? untimed[u] : lw_costs[LW_KIND_ABI].total;
        lw_cost_untimed[u] = (uint64_t)(c + 0.5);
    }
    lw_cal.plain = plain;
    double ns = (double)(m1.tv_sec - m0.tv_sec) * 1e9 + (double)(m1.tv_nsec - m0.tv_nsec);
    lw_cal.done = 1;
    lw_log(LW_LOG_TIMER,
           "compensation (%s, %s): plain call %.1f ticks; ABI wrapper %.1f inside (%.1f at the "
           "fastest), %.1f in all; typed %.1f (%.1f), %.1f; throttled and not timed %llu, keeping "
           "its frame %llu (%u rounds, %.2f ms)",
           lw_timer_name(), lw_cal.mode, plain, lw_costs[LW_KIND_ABI].inside, lw_costs[LW_KIND_ABI].fastest,
           lw_costs[LW_KIND_ABI].total, lw_costs[LW_KIND_TYPED].inside, lw_costs[LW_KIND_TYPED].fastest,
           lw_costs[LW_KIND_TYPED].total, (unsigned long long)lw_cost_untimed[LW_UNTIMED_LEAF],
           (unsigned long long)lw_cost_untimed[LW_UNTIMED_FRAMED], rounds, ns / 1e6);
}

void lw_compensate_config_write(FILE *out)
{
    fprintf(out, "LIBWRAP_COMPENSATE=%s\n", lw_cal.done ? "true" : "false");
    if (lw_cfg.compensate && !lw_cal.done)
        fprintf(out, "# LIBWRAP_COMPENSATE as set: true (not applied: %s)\n",
                lw_cal.why_not ? lw_cal.why_not : "profiling is off");
    if (!lw_cal.done)
        return;
    double s = lw_timer_ns_per_tick();
    fprintf(out,
            "# LIBWRAP_COMPENSATE calibration: timer=%s mode=%s plain_ns=%.2f abi_inside_ns=%.2f "
            "abi_total_ns=%.2f abi_fastest_ns=%.2f typed_inside_ns=%.2f typed_total_ns=%.2f "
            "typed_fastest_ns=%.2f\n",
            lw_timer_name(), lw_cal.mode, lw_cal.plain * s, lw_costs[LW_KIND_ABI].inside * s,
            lw_costs[LW_KIND_ABI].total * s, lw_costs[LW_KIND_ABI].fastest * s,
            lw_costs[LW_KIND_TYPED].inside * s, lw_costs[LW_KIND_TYPED].total * s,
            lw_costs[LW_KIND_TYPED].fastest * s);
}

static void lw_json_cost(lw_json *j, const char *name, const lw_cost *c)
{
    double s = lw_timer_ns_per_tick();
    lw_json_object(j, name);
    lw_json_double(j, "inside_ns", c->inside * s);
    lw_json_double(j, "total_ns", c->total * s);
    lw_json_double(j, "fastest_ns", c->fastest * s);
    lw_json_end(j);
}

void lw_compensate_json(lw_json *j)
{
    lw_json_object(j, "compensation");
    lw_json_bool(j, "enabled", lw_cal.done);
    if (lw_cal.done) {
        lw_json_string(j, "mode", lw_cal.mode);
        lw_json_double(j, "plain_ns", lw_cal.plain * lw_timer_ns_per_tick());
        lw_json_cost(j, "abi", &lw_costs[LW_KIND_ABI]);
        lw_json_cost(j, "typed", &lw_costs[LW_KIND_TYPED]);
    }
    lw_json_end(j);
}

void lw_compensate_txt(FILE *f)
{
    if (!lw_cal.done)
        return;
    double s = lw_timer_ns_per_tick();
    fprintf(f,
            "times without the measurement's own cost (LIBWRAP_COMPENSATE): per call %.1f ns "
            "(ABI wrapper), %.1f ns (typed) of its own time, %.1f and %.1f ns of its caller's\n\n",
            lw_costs[LW_KIND_ABI].inside * s, lw_costs[LW_KIND_TYPED].inside * s,
            lw_costs[LW_KIND_ABI].total * s, lw_costs[LW_KIND_TYPED].total * s);
}
