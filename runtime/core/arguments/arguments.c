/*
 * arguments.c - recording argument values (LIBWRAP_ARGUMENTS,
 * docs/arguments.md): the wrappers' entry points libwrap_record_params and
 * libwrap_record_result, and the full path behind lw_args_fast_from.
 *
 * Values are aggregated per thread and per call path node, without a lock:
 * a node that records for the first time gets a block (lw_argblock) in its
 * thread's arena, found afterwards through lw_node.args. The finaliser
 * merges the blocks over nodes and threads when it writes the profile
 * (arguments_write.c); it reads them only once every thread has left the
 * runtime, as it does the trees.
 */
#include "core/arguments/arguments.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#define LW_ARGS_CHUNK ((size_t)256 << 10)

uint64_t lw_cost_record;

/* Slot `s` for parameter `d`: how its value is extended and where an
 * ABI-level wrapper finds it, and its extremes at the type's limits
 * (lw_argnum_add_ints tests no count). */
static void lw_argslot_init(lw_argslot *s, const libwrap_param *d)
{
    s->shift = (uint8_t)(d->width && d->width < 8 ? 64 - 8 * d->width : 0);
    s->sign = d->kind == LIBWRAP_PARAM_SIGNED;
    s->result = (d->flags & LIBWRAP_PARAM_RESULT) != 0;
    /* An ABI-level call's value (lw_slot_value): a register the selection
     * allows (lw_args_select: a location known on this machine), or the
     * stack. */
    unsigned loc = lw_param_loc(d), n = loc & 0xffu;
    if ((loc & ~0xffu) == LIBWRAP_PARAM_ABI_STACK(0))
        s->at = (int16_t)(1 + n);
    else
        s->at = (int16_t)((n < LW_ABI_NGPR ? (int)n : 0) - LW_ABI_GPRS_BELOW);
    lw_argnum_limits(&s->agg.num, d->kind);
}

/* Thread `a`'s integers set aside (lw_args_add), in LW_ARGS_PEND_BYTES at
 * `p`: the values LW_ARG_PEND entries after their slots, where the x86-64
 * trampoline's recording path stores them (abi_x86_64.S, RECORD). */
static void lw_args_pend_at(lw_args_thread *a, void *p)
{
    a->pend_slot = p;
    a->pend_val = (uint64_t *)(a->pend_slot + LW_ARG_PEND);
    a->npend = 0;
}

lw_argblock *lw_args_calib_block(unsigned abi, lw_thread *t)
{
    lw_argblock *b = lw_map(LW_ARGS_CALIB_BLOCK);
    if (!b)
        return NULL;
    lw_args_pend_at(&t->args, (char *)b + sizeof(lw_argblock) + sizeof(lw_argslot));
    /* One int, as lw_args_new_block makes it. */
    b->nslots = 1;
    b->ints = 1;
    libwrap_param d = {0};
    d.kind = LIBWRAP_PARAM_SIGNED;
    d.width = sizeof(int);
    d.abi = d.abi_a64 = (uint16_t)abi;
    lw_argslot_init(&b->slot[0], &d);
    return b;
}

#if LW_CLOCK_KEPT
/* A round of the typed wrappers' recording (lw_calib_ticks). */
static lw_thread lw_args_calib_thread;

static uint64_t lw_args_calib_round(void *block)
{
    lw_thread *t = &lw_args_calib_thread;
    uint64_t before = t->overhead;
    for (unsigned i = 0; i < LW_CALIB_CALLS; i++) {
        uint64_t v[1] = {i * 2654435761u};
        __asm__ volatile("" : : "r"(v) : "memory");
        lw_args_add(t, block, LW_VALUES_ARRAY, v, 0);
    }
    return t->overhead - before;
}
#endif

void lw_args_calibrate(void)
{
#if LW_CLOCK_KEPT /* the recording's cost leaves the clock (libwrap_enter_params) */
    if (!lw_cfg.arguments || !lw_compensating())
        return;
    /* As a typed wrapper hands it over. */
    lw_argblock *b = lw_args_calib_block(0, &lw_args_calib_thread);
    if (!b)
        return;
    lw_cost_record = lw_calib_ticks(lw_args_calib_round, b);
    munmap(b, LW_ARGS_CALIB_BLOCK);
    lw_log(LW_LOG_TIMER, "compensation: recording an integer %llu ticks", (unsigned long long)lw_cost_record);
#endif
}

/* Zeroed memory of the thread's arena, never freed before the end. */
static void *lw_args_alloc(lw_args_thread *a, size_t bytes)
{
    bytes = (bytes + 15) & ~(size_t)15;
    if ((size_t)(a->arena.end - a->arena.cur) < bytes) {
        size_t size = bytes > LW_ARGS_CHUNK ? bytes : LW_ARGS_CHUNK;
        char *chunk = lw_map(size);
        if (!chunk)
            return NULL;
        a->arena.cur = chunk;
        a->arena.end = chunk + size;
        a->arena.total += size;
    }
    void *p = a->arena.cur;
    a->arena.cur += bytes;
    return p;
}

static lw_argblock *lw_args_new_block(lw_thread *t, lw_node *n, int32_t id, const libwrap_params *p)
{
    lw_args_thread *a = &t->args;
    uint64_t mask = LW_LOAD(p->record);
    uint32_t nslots = (uint32_t)__builtin_popcountll(mask);
    if (a->n == a->cap) {
        /* The old table stays mapped, as a thread's old stacks do. */
        uint32_t cap = a->cap ? a->cap * 2 : 256;
        lw_argblock **blocks = lw_map(cap * sizeof *blocks);
        if (!blocks)
            return NULL;
        if (a->n)
            memcpy(blocks, a->blocks, a->n * sizeof *blocks);
        a->blocks = blocks;
        a->cap = cap;
    }
    if (!a->pend_slot) {
        void *p = lw_args_alloc(a, LW_ARGS_PEND_BYTES);
        if (!p)
            return NULL;
        lw_args_pend_at(a, p);
    }
    lw_argblock *b = lw_args_alloc(a, sizeof *b + nslots * sizeof(lw_argslot));
    if (!b)
        return NULL;
    b->region = id;
    b->nslots = nslots;
    b->params = p;
    b->mask = mask;
    b->ints = 1;
    uint32_t k = 0;
    for (uint64_t m = mask; m; m &= m - 1, k++) {
        unsigned i = (unsigned)__builtin_ctzll(m);
        const libwrap_param *d = &p->param[i];
        lw_argslot *s = &b->slot[k];
        s->index = (uint8_t)i;
        lw_argslot_init(s, d);
        b->ints &= d->kind == LIBWRAP_PARAM_SIGNED || d->kind == LIBWRAP_PARAM_UNSIGNED;
    }
    a->blocks[a->n++] = b;
    n->args = a->n;
    return b;
}

static uint64_t lw_hash_string(const char *s)
{
    uint64_t h = 14695981039346656037u; /* FNV-1a */
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211u;
    return h;
}

/* One value into a Space-Saving table (arguments.h); `s` the string, or
 * NULL for an enum's value `key`. */
static void lw_argtop_add(lw_args_thread *a, lw_argtop *tp, uint64_t key, const char *s)
{
    tp->count++;
    for (uint32_t i = 0; i < tp->used; i++) {
        lw_argtop_entry *e = &tp->e[i];
        if (e->key == key && (!s || strcmp(e->s, s) == 0)) {
            e->count++;
            return;
        }
    }
    lw_argtop_entry *e;
    if (tp->used < LW_ARG_TOP) {
        e = &tp->e[tp->used];
        /* Without memory for the copy the value is counted only in the
         * total: it shows as "other". */
        if (s && !e->s && !(e->s = lw_args_alloc(a, LW_ARG_STRING_BUF)))
            return;
        tp->used++;
        e->count = 1;
        e->err = 0;
    } else {
        e = &tp->e[0];
        for (uint32_t i = 1; i < LW_ARG_TOP; i++)
            if (tp->e[i].count < e->count)
                e = &tp->e[i];
        e->err = e->count;
        e->count++;
    }
    e->key = key;
    if (s) {
        size_t len = strnlen(s, LW_ARG_STRING_BUF - 1);
        memcpy(e->s, s, len);
        e->s[len] = '\0';
    }
}

static void lw_argnum_add_double(lw_argnum *a, double x)
{
    if (x != x) { /* NaN */
        a->count++;
        a->nan++;
        return;
    }
    int first = a->count == a->nan;
    if (first || x < a->min.d)
        a->min.d = x;
    if (first || x > a->max.d)
        a->max.d = x;
    a->sum.d += x;
    double m = x < 0 ? -x : x;
    unsigned b = 0;
    if (m >= 0x1p31) {
        b = LW_ARG_BUCKETS - 1;
    } else if (m >= 0x1p-31) {
        /* floor(log2 m) from the exponent bits (m is normal here). */
        uint64_t bits;
        memcpy(&bits, &m, sizeof bits);
        b = (unsigned)((int)((bits >> 52) & 0x7ff) - 1023 + 32);
    }
    if (x < 0)
        a->neg[b]++;
    else
        a->pos[b]++;
    a->count++;
}

static double lw_bits_double(uint64_t v, unsigned width)
{
    if (width == 4) {
        uint32_t u = (uint32_t)v;
        float f;
        memcpy(&f, &u, sizeof f);
        return f;
    }
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

/* The listeners (the trace) get every recorded value, in the order of the
 * thread's events: after its call's entry, before its exit. */
void lw_argument_event(lw_thread *t, int32_t region, const libwrap_argument *a)
{
    if (t->listen)
        lw_listen_argument(t, region, lw_ticks(), a);
}

static void lw_record(lw_thread *t, int32_t id, lw_argagg *agg, uint32_t slot, const libwrap_param *d,
                      uint64_t raw)
{
    char buf[LW_ARG_STRING_BUF];
    libwrap_argument a = {d->name, d->type, LIBWRAP_ARG_SIGNED, slot, {0}};
    uint64_t v = lw_arg_extend(d, raw);
    switch (d->kind) {
    case LIBWRAP_PARAM_SIGNED:
        lw_argnum_add_ints(&agg->num, &v, 1, 1);
        a.value.i = (int64_t)v;
        break;
    case LIBWRAP_PARAM_UNSIGNED:
        lw_argnum_add_ints(&agg->num, &v, 1, 0);
        a.kind = LIBWRAP_ARG_UNSIGNED;
        a.value.u = v;
        break;
    case LIBWRAP_PARAM_DOUBLE:
        a.kind = LIBWRAP_ARG_DOUBLE;
        a.value.d = lw_bits_double(v, d->width);
        lw_argnum_add_double(&agg->num, a.value.d);
        break;
    case LIBWRAP_PARAM_ENUM:
        lw_argtop_add(&t->args, &agg->top, v, NULL);
        if (d->flags & LIBWRAP_PARAM_ZEXT) {
            a.kind = LIBWRAP_ARG_UNSIGNED;
            a.value.u = v;
        } else {
            a.value.i = (int64_t)v;
        }
        break;
    case LIBWRAP_PARAM_STRING: {
        const char *s = lw_safe_string(raw, buf);
        lw_argtop_add(&t->args, &agg->top, lw_hash_string(s), s);
        a.kind = LIBWRAP_ARG_STRING;
        a.value.s = s;
        break;
    }
    default:
        return;
    }
    lw_argument_event(t, id, &a);
}

void lw_args_params(int32_t id, const libwrap_params *p, uint64_t mask, const uint64_t *values)
{
    if (LW_LOAD(lw_state) != 1)
        return;
    lw_thread *t = lw_tls.self;
    if (!t || LW_LOAD(lw_tls.guard) || !lw_guard_take())
        return;
    int saved = errno;
    lw_node *n = NULL;
    lw_argblock *b = lw_args_top_block(t, id, &n);
    if (!b && n)
        b = lw_args_new_block(t, n, id, p);
    for (uint32_t k = 0; b && k < b->nslots; k++) {
        unsigned i = b->slot[k].index;
        if ((mask >> i) & 1)
            lw_record(t, id, &b->slot[k].agg, k, &p->param[i], values[i]);
    }
    errno = saved;
    LW_GUARD_CLEAR();
}

void lw_args_result(int32_t id, const libwrap_params *p, uint64_t value)
{
    int r = lw_args_result_index(p);
    if (r < 0)
        return;
    /* values[] as lw_args_params reads it: only entry r is read. */
    uint64_t values[LIBWRAP_PARAMS_MAX];
    values[r] = value;
    lw_args_params(id, p, 1ull << r, values);
}

void libwrap_record_params(int32_t id, libwrap_params *params, const uint64_t *values)
{
#ifdef LIBWRAP_NOP
    (void)id;
    (void)params;
    (void)values;
#else
    if (lw_args_fast_from(LW_VALUES_ARRAY, id, 0, values) >= 0)
        return;
    uint64_t mask = LW_LOAD(params->record);
    int r = lw_args_result_index(params);
    if (r >= 0)
        mask &= ~(1ull << r);
    if (mask)
        lw_args_params(id, params, mask, values);
#endif
}

void libwrap_record_result(int32_t id, libwrap_params *params, uint64_t value)
{
#ifdef LIBWRAP_NOP
    (void)id;
    (void)params;
    (void)value;
#else
    int r = lw_args_result_index(params);
    if (r < 0 || !((LW_LOAD(params->record) >> r) & 1))
        return;
    lw_exit_abandoned(id);
    uint64_t values[LIBWRAP_PARAMS_MAX];
    values[r] = value;
    if (lw_args_fast_from(LW_VALUES_ARRAY, id, 1, values) < 0)
        lw_args_params(id, params, 1ull << r, values);
#endif
}

int libwrap_enter_params(int32_t id, void *frame, libwrap_params *params, const uint64_t *values)
{
#ifdef LIBWRAP_NOP
    (void)id;
    (void)frame;
    (void)params;
    (void)values;
    return 0;
#else
    /* The common case: the call's node known with its block of integers,
     * no listener: the frame, then the values, whose recording the
     * thread's measurement clock leaves out (lw_cost_record). Recorded
     * before the timestamp instead, their chain of loads and stores would
     * hold up its read: 5 ns more per call on AMD EPYC. */
    if (lw_likely(!LW_LOAD(lw_tls.guard))) {
        lw_thread *t = lw_guard_take_fast();
        if (lw_likely(t != NULL)) {
            lw_node *n = lw_known_child(t, id, frame);
            lw_argblock *b = n ? lw_args_int_block(t, n) : NULL;
            int done = 0;
            if (lw_likely(b && lw_enter_can(t, n))) {
                lw_enter_node(t, id, frame, n);
                lw_args_add(t, b, LW_VALUES_ARRAY, values, 0);
                t->overhead += lw_cost_record;
                done = 1;
            }
            LW_GUARD_CLEAR();
            if (done)
                return 1;
        }
    }
    /* Everything else: entered, then recorded, as two calls would. */
    int r = libwrap_enter(id, frame);
    if (r > 0)
        libwrap_record_params(id, params, values);
    return r;
#endif
}
