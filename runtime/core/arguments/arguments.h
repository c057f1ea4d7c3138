/*
 * arguments.h - argument recording inside the runtime (LIBWRAP_ARGUMENTS,
 * docs/arguments.md).
 *
 *   arguments_select.c  the rules, matched when a region registers; the
 *                       warnings for names that match nothing
 *   arguments.c         recording: per thread and call path, no lock
 *   arguments_write.c   the "arguments" of profile.json and profile.txt,
 *                       merged over threads and call paths
 *   safe_copy.c         copying a string the program passed, never faulting
 *
 * The common case of recording, integers into a block that exists with no
 * trace, is the inline lw_args_fast_from below: it uses general registers
 * only and calls nothing outside its own object (lw_args_reduce is static),
 * so the ABI trampoline's hooks (abi.c, built with -mgeneral-regs-only)
 * use it too. Everything else is lw_args_params.
 */
#ifndef LIBWRAP_RUNTIME_ARGUMENTS_H
#define LIBWRAP_RUNTIME_ARGUMENTS_H

#include "core/measure/hot.h"
#include "libwrap/plugin.h"

#pragma GCC visibility push(hidden)

#define LW_ARG_BUCKETS 64     /* log2 histogram: buckets per sign */
#define LW_ARG_TOP 32         /* values counted per string or enum argument */
#define LW_ARG_STRING_MAX 256 /* bytes of a string kept; longer ones end in "..." */
#define LW_ARG_STRING_BUF (LW_ARG_STRING_MAX + 4)

/*
 * A number: count, sum, min, max and a log2 histogram of the magnitude,
 * one for values >= 0 (`pos`) and one for values < 0 (`neg`). Integers:
 * bucket 0 holds 0, bucket k (1..62) |v| in [2^(k-1), 2^k - 1], bucket 63
 * |v| >= 2^62. Doubles: bucket 0 holds |v| < 2^-31 (0 included), bucket k
 * |v| in [2^(k-32), 2^(k-31)), bucket 63 |v| >= 2^31 and infinities; NaNs
 * are only counted (`nan`).
 */
typedef struct lw_argnum {
    uint64_t count, nan;
    union {
        __int128 i;
        unsigned __int128 u;
        double d;
    } sum;
    union {
        int64_t i;
        uint64_t u;
        double d;
    } min, max;
    uint64_t pos[LW_ARG_BUCKETS], neg[LW_ARG_BUCKETS];
} lw_argnum;

/*
 * The most frequent values of a string or an enum: a Space-Saving table
 * (Metwally et al.). Each distinct value has an exact count until the table
 * is full; then a new value takes the place of the least counted one,
 * inheriting its count as `err` (the most by which its count can exceed
 * the truth). A value more frequent than count / LW_ARG_TOP is always in
 * the table.
 */
typedef struct lw_argtop_entry {
    uint64_t key;   /* the enum's value; a string's hash */
    uint64_t count; /* calls with it, at most `err` too many */
    uint64_t err;
    char *s;        /* the string (LW_ARG_STRING_BUF bytes of the thread's arena) */
} lw_argtop_entry;

typedef struct lw_argtop {
    uint64_t count; /* all values */
    uint32_t used, pad;
    lw_argtop_entry e[LW_ARG_TOP];
} lw_argtop;

typedef union lw_argagg {
    lw_argnum num;
    lw_argtop top;
} lw_argagg;

/* Integers the common case sets aside per thread before they enter their
 * slots' statistics (lw_args_add). */
#define LW_ARG_PEND 512

/* A recorded entry of a function's params, with what the common case
 * needs of its description at hand. */
typedef struct lw_argslot {
    uint8_t index;  /* in params->param */
    uint8_t shift;  /* 64 - 8 * width: extension by two shifts */
    uint8_t sign;   /* sign-extended */
    uint8_t result; /* the result (recorded at the exit) */
    int16_t at;     /* where an ABI-level call passes it (lw_slot_value) */
    lw_argagg agg;
} lw_argslot;

/* The recorded arguments of one call path node (or, merged, of one
 * function): a slot per selected entry of `params`, in the order of the
 * bits of `mask`. */
typedef struct lw_argblock {
    int32_t region;
    uint32_t nslots;
    const libwrap_params *params;
    uint64_t mask;
    uint32_t ints; /* every slot an integer: lw_args_fast_from records them all */
    lw_argslot slot[];
} lw_argblock;

/* Where an ABI-level wrapper finds param `d` on this machine
 * (LIBWRAP_PARAM_ABI_*; 0 unknown). */
static inline unsigned lw_param_loc(const libwrap_param *d)
{
#if defined(__aarch64__)
    return d->abi_a64;
#else
    return d->abi;
#endif
}

/* The argument registers as the trampoline's C hooks save them, the first
 * LW_ABI_GPRS_BELOW eightbytes below where the return address is (abi.h,
 * LW_ABI_SAVED_GPRS): %rdi..%r9, or x0..x7. */
#if defined(__aarch64__)
#define LW_ABI_NGPR 8
#define LW_ABI_GPRS_BELOW 21
#else
#define LW_ABI_NGPR 6
#define LW_ABI_GPRS_BELOW 11
#endif

/* ---- arguments_select.c ---------------------------------------------- */

/* Reads LIBWRAP_ARGUMENTS (lw_cfg.arguments); malformed rules warn. */
void lw_args_init(void);
/* Which entries of `params` to record for `region` (its record mask), as
 * the rules say; `abi`: the ABI-level wrapper reads them (a parameter
 * whose location is unknown cannot be recorded). Region lock held. */
uint64_t lw_args_select(int32_t id, const libwrap_region *region, const libwrap_params *params, int abi);
/* At the end of a process that measured: one warning for each rule whose
 * names matched nothing, or only what cannot be recorded. */
void lw_args_warn_unmatched(void);

/* ---- safe_copy.c ------------------------------------------------------ */

/* The string at `p` copied into buf (LW_ARG_STRING_BUF bytes), at most
 * LW_ARG_STRING_MAX bytes of it (then "..." follows); "(null)" for NULL,
 * "(unreadable)" when its memory cannot be read. Never faults; errno is
 * kept. Returns buf or one of those constants. */
const char *lw_safe_string(uint64_t p, char *buf);

/* ---- arguments.c ------------------------------------------------------ */

/* What recording an integer costs the call it is made in, in ticks: typed
 * wrappers record after the entry's timestamp (libwrap_enter_params) and
 * move the thread's measurement clock on by it. Calibrated at start
 * (lw_args_calibrate) when LIBWRAP_ARGUMENTS is set and the run
 * compensates; 0 otherwise, and on AArch64. */
extern uint64_t lw_cost_record;
void lw_args_calibrate(void);
/* The block of one int found at ABI location `abi` (LIBWRAP_PARAM_ABI_*,
 * 0 for a typed wrapper's) that the calibrations record into, for thread
 * state `t` (its integers set aside in the same memory): mapped,
 * LW_ARGS_CALIB_BLOCK bytes; NULL without memory. */
#define LW_ARGS_PEND_BYTES (LW_ARG_PEND * (sizeof(struct lw_argslot *) + sizeof(uint64_t)))
#define LW_ARGS_CALIB_BLOCK (sizeof(lw_argblock) + sizeof(lw_argslot) + LW_ARGS_PEND_BYTES)
lw_argblock *lw_args_calib_block(unsigned abi, lw_thread *t);

/* The full paths: every kind, creating the node's block, the trace. */
void lw_args_params(int32_t id, const libwrap_params *p, uint64_t mask, const uint64_t *values);
void lw_args_result(int32_t id, const libwrap_params *p, uint64_t value);
/* The one place where a recorded value leaves the runtime: the trace now,
 * event listeners later (plugin.h). The thread's guard is held. */
void lw_argument_event(lw_thread *t, int32_t region, const libwrap_argument *a);

/* A value as the ABI passed it, extended from its `width` bytes. */
static inline __attribute__((always_inline)) uint64_t lw_arg_extend(const libwrap_param *d, uint64_t v)
{
    unsigned bits = d->width * 8u;
    if (bits == 0 || bits >= 64)
        return v;
    if (d->kind == LIBWRAP_PARAM_DOUBLE) /* a float: its bits, as they are */
        return v & ((1ull << bits) - 1);
    int sign = d->kind == LIBWRAP_PARAM_SIGNED ||
               (d->kind == LIBWRAP_PARAM_ENUM && !(d->flags & LIBWRAP_PARAM_ZEXT));
    uint64_t m = (1ull << bits) - 1;
    v &= m;
    if (sign && (v >> (bits - 1)))
        v |= ~m;
    return v;
}

/* The histogram's bucket of an integer's magnitude (lw_argnum), without
 * a branch; `lz`: through LZCNT, which counts 64 for 0 (only where
 * lw_cpu_lzcnt says the CPU has it: elsewhere its encoding runs as BSR). */
#if defined(__x86_64__)
extern int lw_cpu_lzcnt;
#endif
static inline __attribute__((always_inline)) unsigned lw_arg_bucket_by(uint64_t magnitude, int lz)
{
    unsigned b;
#if defined(__x86_64__)
    if (lz) {
        uint64_t zeros;
        __asm__("lzcnt %1, %0" : "=r"(zeros) : "rm"(magnitude) : "cc");
        b = 64u - (unsigned)zeros;
    } else
#endif
    {
        (void)lz;
        b = 63u - (unsigned)__builtin_clzll(magnitude | 1) + (magnitude != 0);
    }
    return b - (b >> 6); /* 64 (magnitude >= 2^63) into the last bucket */
}

/* The extremes of empty statistics `a` of a `kind` integer
 * (LIBWRAP_PARAM_*) at the type's limits: lw_argnum_add_ints tests no
 * count. */
static inline void lw_argnum_limits(lw_argnum *a, unsigned kind)
{
    if (kind == LIBWRAP_PARAM_SIGNED) {
        a->min.i = INT64_MAX;
        a->max.i = INT64_MIN;
    } else if (kind == LIBWRAP_PARAM_UNSIGNED) {
        a->min.u = UINT64_MAX;
    }
}

/* `n` integers (extended) into statistics `a`, whose extremes start at
 * the type's limits (lw_argnum_limits): no test of the count. The
 * extremes, sum and count stay in registers over them, the histogram in
 * memory; `lz`: its buckets through LZCNT (lw_arg_bucket_by). */
static inline __attribute__((always_inline)) void lw_argnum_add_ints_by(lw_argnum *a, const uint64_t *v,
                                                                         unsigned n, int is_signed, int lz)
{
    if (!n)
        return;
    if (is_signed) {
        int64_t lo = a->min.i, hi = a->max.i;
        __int128 sum = a->sum.i;
        for (unsigned i = 0; i < n; i++) {
            int64_t x = (int64_t)v[i];
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
            sum += x;
            uint64_t *h = x < 0 ? a->neg : a->pos;
            h[lw_arg_bucket_by(x < 0 ? -v[i] : v[i], lz)]++;
        }
        a->min.i = lo;
        a->max.i = hi;
        a->sum.i = sum;
    } else {
        uint64_t lo = a->min.u, hi = a->max.u;
        unsigned __int128 sum = a->sum.u;
        for (unsigned i = 0; i < n; i++) {
            lo = v[i] < lo ? v[i] : lo;
            hi = v[i] > hi ? v[i] : hi;
            sum += v[i];
            a->pos[lw_arg_bucket_by(v[i], lz)]++;
        }
        a->min.u = lo;
        a->max.u = hi;
        a->sum.u = sum;
    }
    a->count += n;
}

static inline __attribute__((always_inline)) void lw_argnum_add_ints(lw_argnum *a, const uint64_t *v,
                                                                      unsigned n, int is_signed)
{
#if defined(__x86_64__)
    if (lw_cpu_lzcnt) {
        lw_argnum_add_ints_by(a, v, n, is_signed, 1);
        return;
    }
#endif
    lw_argnum_add_ints_by(a, v, n, is_signed, 0);
}

/* The integers thread `t` set aside (lw_args_add) into their slots'
 * statistics, a run of one slot at a time, out of the thread's
 * measurement clock (its calls' times leave them out). Out of line: once
 * in LW_ARG_PEND values. */
static __attribute__((noinline, unused)) void lw_args_reduce(lw_thread *t)
{
#if LW_CLOCK_KEPT
    uint64_t t0 = lw_timer_tsc ? lw_rdtsc() : 0;
#endif
    lw_args_thread *a = &t->args;
    for (uint32_t i = 0, j; i < a->npend; i = j) {
        lw_argslot *s = a->pend_slot[i];
        for (j = i + 1; j < a->npend && a->pend_slot[j] == s; j++)
            ;
        lw_argnum_add_ints(&s->agg.num, a->pend_val + i, j - i, s->sign);
    }
    __atomic_store_n(&a->npend, 0, __ATOMIC_RELEASE);
#if LW_CLOCK_KEPT
    if (t0)
        t->overhead += lw_rdtsc() - t0;
#endif
}

/* The block of the node of the thread's innermost frame, which must be
 * region `id`'s; NULL when there is none yet (or no such frame). */
static inline __attribute__((always_inline)) lw_argblock *lw_args_top_block(const lw_thread *t, int32_t id,
                                                                           lw_node **node)
{
    uint32_t d = t->depth;
    if (!d || t->stack[d - 1].region != id || !(*node = t->stack[d - 1].node))
        return NULL;
    /* Set only by this thread, to a block it made (lw_args_new_block). */
    uint32_t k = (*node)->args;
    return k ? t->args.blocks[k - 1] : NULL;
}

/* Where lw_args_fast_from takes values from: an array indexed by entry
 * (typed wrappers), or the general registers and stack of an ABI-level
 * call whose return address is at `src` (integers are never in vector
 * registers): the slot's `at` eightbytes from there, below it the
 * trampoline's saved registers (LW_ABI_SAVED_GPRS, abi.h), above it the
 * stack arguments (lw_argslot_init). */
enum { LW_VALUES_ARRAY, LW_VALUES_ABI };

static inline __attribute__((always_inline)) uint64_t lw_slot_value(int from, const void *src,
                                                                    const lw_argslot *s)
{
    return ((const uint64_t *)src)[from == LW_VALUES_ARRAY ? s->index : s->at];
}
/* Node n's block of thread `t` when the common path can record into it:
 * there is one (the node's first recorded call makes it), its values are
 * all integers, and no listener takes them (listeners get every value
 * through the full path). NULL otherwise. */
static inline __attribute__((always_inline)) lw_argblock *lw_args_int_block(const lw_thread *t,
                                                                           const lw_node *n)
{
    uint32_t k = n->args;
    if (lw_unlikely(!k || t->listen))
        return NULL;
    lw_argblock *b = t->args.blocks[k - 1];
    return lw_likely(b->ints) ? b : NULL;
}

/* The integers of block `b` (b->ints) of thread `t` that the call passes
 * (its parameters, or with `result` its result), from `src`
 * (lw_slot_value). Each is set aside with its slot, two stores; LW_ARG_PEND
 * of them enter the statistics together (lw_args_reduce), so that a call
 * adds no chain of loads and stores to the time around it. Readers take
 * them with the statistics (arguments_write.c). */
static inline __attribute__((always_inline)) void lw_args_add_one(lw_thread *t, lw_argslot *s, uint64_t v)
{
    v <<= s->shift;
    v = s->sign ? (uint64_t)((int64_t)v >> s->shift) : v >> s->shift;
#if LW_CLOCK_KEPT
    lw_args_thread *a = &t->args;
    uint32_t n = a->npend;
    a->pend_slot[n] = s;
    a->pend_val[n] = v;
    /* After the value: a reader in another thread takes `npend` first. */
    __atomic_store_n(&a->npend, n + 1, __ATOMIC_RELEASE);
    if (lw_unlikely(n + 1 == LW_ARG_PEND))
        lw_args_reduce(t);
#else
    /* No measurement clock to leave a reduction out of the call's time
     * (AArch64): each integer into the statistics at once. */
    (void)t;
    lw_argnum_add_ints(&s->agg.num, &v, 1, s->sign);
#endif
}

static inline __attribute__((always_inline)) void lw_args_add(lw_thread *t, lw_argblock *b, int from,
                                                             const void *src, int result)
{
    lw_argslot *s = b->slot;
    if (lw_likely(b->nslots == 1)) { /* the common case, without the loop */
        if (s->result == result)
            lw_args_add_one(t, s, lw_slot_value(from, src, s));
        return;
    }
    for (lw_argslot *end = s + b->nslots; s < end; s++)
        if (s->result == result)
            lw_args_add_one(t, s, lw_slot_value(from, src, s));
}

/*
 * The common case: integers of the call the thread has just entered (its
 * parameters, or with `result` its result), into its node's block, no
 * listener (the trace is one); the values from `src` (see lw_slot_value). 1 done, 0 nothing to
 * record (runtime stopped, inside the runtime, not the innermost call), -1
 * the full path is needed (lw_args_params).
 */
static inline __attribute__((always_inline)) int lw_args_fast_from(int from, int32_t id, int result,
                                                                  const void *src)
{
    if (lw_unlikely(LW_LOAD(lw_state) != 1))
        return 0;
    lw_thread *t = lw_tls.self;
    if (lw_unlikely(!t || LW_LOAD(lw_tls.guard)))
        return 0;
    if (lw_unlikely(t->listen)) /* listeners get every value: the full path */
        return -1;
    if (!lw_guard_take())
        return 0;
    lw_node *n = NULL;
    lw_argblock *b = lw_args_top_block(t, id, &n);
    if (lw_unlikely(!b || !b->ints)) {
        LW_GUARD_CLEAR();
        return n ? -1 : 0;
    }
    lw_args_add(t, b, from, src, result);
    LW_GUARD_CLEAR();
    return 1;
}

/* ---- arguments_write.c ------------------------------------------------ */

struct lw_json;

/* A recorded argument merged over blocks (threads, call paths) or, in a
 * job's reduced profile, over ranks (jobs/profile_reduce.c): the number's
 * statistics, or a string's or enum's values with their counts. */
typedef struct lw_valcount {
    uint64_t key, count, err; /* err: the counts' overcount (Space-Saving) */
    const char *s;            /* the string; NULL for an enum's value `key` */
} lw_valcount;

typedef struct lw_argout {
    const libwrap_param *d;
    lw_argnum num;
    uint64_t count; /* strings and enums: all values */
    lw_valcount *vals;
    size_t nvals, cap;
    int owned; /* the strings of `vals` are the argout's own (strdup) */
} lw_argout;

/* Adds `from` to `to`, numbers of `kind` (LIBWRAP_PARAM_*): counts, sums,
 * the smaller minimum, the larger maximum, histogram buckets. */
void lw_argnum_merge(lw_argnum *to, const lw_argnum *from, unsigned kind);
/* `count` calls (`err` of them perhaps others') with the value `key`, or
 * the string `s`, into o's values (not into o->count); -1 without memory. */
int lw_argout_value(lw_argout *o, uint64_t key, const char *s, uint64_t count, uint64_t err);
/* Keeps the LW_ARG_TOP most frequent values, as profile.json lists them:
 * the rest count as "other" (o->count less the values kept). */
void lw_argout_keep_top(lw_argout *o);
void lw_argout_free(lw_argout *o, uint32_t n);
/* Region `region`'s arguments merged over threads and call paths (*n of
 * them), or of one call path node; NULL when none were recorded. */
lw_argout *lw_arguments_collect(int32_t region, uint32_t *n);
lw_argout *lw_arguments_node(const lw_thread *t, const lw_node *n, uint32_t *nslots);
/* "arguments": [...] of `n` merged arguments. */
void lw_argouts_json(struct lw_json *j, lw_argout *o, uint32_t n);
/* Their lines in profile.txt under `function`, the section's heading
 * first unless *header. */
void lw_argouts_txt(FILE *f, int *header, const char *function, lw_argout *o, uint32_t n);
/* Whether region `region` recorded arguments on any thread. */
int lw_arguments_has(int32_t region);
/* "arguments": [...] of the region's entry in "functions", merged over
 * threads and call paths; nothing when it recorded none. */
void lw_arguments_json(struct lw_json *j, int32_t region);
/* The same for one call path node of thread `t` (its "callpath" entry). */
void lw_arguments_json_node(struct lw_json *j, const lw_thread *t, const lw_node *n);
/* The arguments section of profile.txt (nothing when none was recorded). */
void lw_arguments_txt(FILE *f);

#pragma GCC visibility pop

#endif /* LIBWRAP_RUNTIME_ARGUMENTS_H */
