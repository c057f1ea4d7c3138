/*
 * abi.c - the hooks of the ABI trampoline (abi_x86_64.S, docs/abi.md).
 *
 * Built with -mgeneral-regs-only: the common case touches no vector or x87
 * register, so the trampoline keeps the caller's vector arguments and the
 * original's vector and x87 results in place without saving them. Every
 * other case goes through lw_abi_call_saving, which saves that state first.
 * The common case makes no call at all (tests/abi checks the object file).
 */
#include "core/abi/abi.h"
#include "core/arguments/arguments.h"
#include "core/measure/hot.h"
#include "core/measure/lane.h"

#include <stddef.h>

uint32_t lw_abi_xsave_size, lw_abi_xsave, lw_abi_vec, lw_abi_xinuse;

#if defined(__x86_64__)
static inline void lw_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    __asm__("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(sub));
}

/* What lw_abi_call_saving saves, from CPUID and the components the OS
 * enabled (XCR0): the vector width, whether XGETBV tells the components in
 * use, XSAVE's area (or FXSAVE's 512 bytes) with the 64-byte alignment
 * slack. */
void lw_abi_cpu_init(void)
{
    uint32_t r[4], leaf1[4];
    lw_cpuid(1, 0, leaf1);
    uint32_t size = 512, xsave = 0, vec = 0, xinuse = 0;
    if (leaf1[2] & (1u << 27)) { /* OSXSAVE */
        uint32_t xcr0, xcr0_hi;
        __asm__("xgetbv" : "=a"(xcr0), "=d"(xcr0_hi) : "c"(0));
        lw_cpuid(0xd, 0, r);
        if (r[1] >= 576) {
            size = r[1];
            xsave = 1;
        }
        lw_cpuid(0xd, 1, r);
        xinuse = (r[0] >> 2) & 1;
        if ((leaf1[2] & (1u << 28)) && (xcr0 & 0x6) == 0x6) /* AVX */
            vec = 1;
        lw_cpuid(0, 0, r);
        if (vec && r[0] >= 7) {
            lw_cpuid(7, 0, r);
            if ((r[1] & (1u << 16)) && (xcr0 & 0xe6) == 0xe6) /* AVX-512F */
                vec = r[1] & (1u << 30) ? 3 : 2;          /* AVX-512BW: 64-bit masks */
        }
    }
    __atomic_store_n(&lw_abi_xsave, xsave, __ATOMIC_RELAXED);
    __atomic_store_n(&lw_abi_vec, vec, __ATOMIC_RELAXED);
    __atomic_store_n(&lw_abi_xinuse, xinuse, __ATOMIC_RELAXED);
    __atomic_store_n(&lw_abi_xsave_size, (size + 63) & ~63u, __ATOMIC_RELEASE);
}

static inline uintptr_t lw_abi_gate(uintptr_t (*fn)(uintptr_t, uintptr_t), uintptr_t a, uintptr_t b)
{
    if (lw_unlikely(!__atomic_load_n(&lw_abi_xsave_size, __ATOMIC_ACQUIRE)))
        lw_abi_cpu_init();
    return lw_abi_call_saving(fn, a, b);
}
#else
/* AArch64 (abi_aarch64.S): the gate keeps q0-q31, FPCR and FPSR, whatever
 * the CPU. */
void lw_abi_cpu_init(void)
{
}

static inline uintptr_t lw_abi_gate(uintptr_t (*fn)(uintptr_t, uintptr_t), uintptr_t a, uintptr_t b)
{
    return lw_abi_call_saving(fn, a, b);
}
#endif

/* The offsets the trampoline's assembly uses (abi.h). */
#define LW_AT(type, field, off) _Static_assert(offsetof(type, field) == (off), #type "." #field)
LW_AT(libwrap_abi_entry, orig, LW_E_ORIG);
LW_AT(libwrap_abi_entry, dispatch, LW_E_DISPATCH);
_Static_assert(LW_E_DISPATCH == LIBWRAP_ABI_DISPATCH, "LIBWRAP_ABI_DISPATCH");
LW_AT(libwrap_abi_entry, flags, LW_E_FLAGS);
LW_AT(libwrap_abi_entry, state, LW_E_STATE);
_Static_assert(LW_E_NO_VECTOR == LIBWRAP_ABI_NO_VECTOR, "LIBWRAP_ABI_NO_VECTOR");
_Static_assert(LW_E_RECORD_RESULT == LIBWRAP_ABI_RECORD_RESULT, "LIBWRAP_ABI_RECORD_RESULT");
_Static_assert(offsetof(libwrap_abi_entry, region) + offsetof(libwrap_region, id) == LW_E_ID,
               "libwrap_abi_entry.region.id");
LW_AT(lw_tls_block, hot, LW_T_HOT);
LW_AT(lw_tls_block, guard, LW_T_GUARD);
LW_AT(lw_tls_block, ra_top, LW_T_RA_TOP);
LW_AT(lw_tls_block, ra_end, LW_T_RA_END);
LW_AT(lw_tls_block, hot_ev, LW_T_HOT_EV);
LW_AT(lw_thread, stack, LW_TH_STACK);
LW_AT(lw_thread, depth, LW_TH_DEPTH);
LW_AT(lw_thread, cap, LW_TH_CAP);
LW_AT(lw_thread, ev_pos, LW_TH_EV_POS);
LW_AT(lw_thread, ev_end, LW_TH_EV_END);
LW_AT(lw_thread, overhead, LW_TH_OVERHEAD);
LW_AT(lw_thread, tree.hash, LW_TH_HASH);
LW_AT(lw_thread, tree.hash_mask, LW_TH_HASH_MASK);
LW_AT(lw_node, parent, LW_N_PARENT);
LW_AT(lw_node, args, LW_N_ARGS);
LW_AT(lw_thread, listen, LW_TH_LISTEN);
LW_AT(lw_thread, args.blocks, LW_TH_ARG_BLOCKS);
LW_AT(lw_argblock, ints, LW_B_INTS);
LW_AT(lw_argblock, nslots, LW_B_NSLOTS);
LW_AT(lw_argblock, slot, LW_B_SLOT);
LW_AT(lw_argslot, shift, LW_S_SHIFT);
LW_AT(lw_argslot, sign, LW_S_SIGN);
LW_AT(lw_argslot, result, LW_S_RESULT);
LW_AT(lw_argslot, at, LW_S_AT);
LW_AT(lw_thread, args.pend_slot, LW_TH_PEND_SLOT);
LW_AT(lw_thread, args.npend, LW_TH_NPEND);
_Static_assert(LW_ARG_PEND_ASM == LW_ARG_PEND, "LW_ARG_PEND");
#if defined(__x86_64__)
_Static_assert(LW_ABI_GPR_AT == -LW_ABI_GPRS_BELOW, "the argument registers' `at`");
#endif
_Static_assert(sizeof(((lw_node *)0)->args) == 4 && sizeof(((lw_thread *)0)->listen) == 4 &&
                   sizeof(((lw_argblock *)0)->ints) == 4 && sizeof(((lw_argblock *)0)->nslots) == 4 &&
                   sizeof(((lw_thread *)0)->args.npend) == 4 && sizeof(((lw_argslot *)0)->at) == 2,
               "the recording path reads them at these widths");
_Static_assert(LW_KIND_ABI * sizeof(uint64_t) == LW_COST_ABI, "lw_cost_ticks[LW_KIND_ABI]");
_Static_assert(LW_UNTIMED_LEAF * sizeof(uint64_t) == LW_COST_UNTIMED_LEAF, "lw_cost_untimed[LEAF]");
_Static_assert(LW_UNTIMED_FRAMED * sizeof(uint64_t) == LW_COST_UNTIMED_FRAMED, "lw_cost_untimed[FRAMED]");
_Static_assert(sizeof(libwrap_event) == 16, "libwrap_event size");
LW_AT(lw_frame, node, LW_F_NODE);
LW_AT(lw_frame, start, LW_F_START);
LW_AT(lw_frame, frame, LW_F_FRAME);
LW_AT(lw_frame, region, LW_F_REGION);
LW_AT(lw_frame, inherited, LW_F_REGION + 4);
_Static_assert(sizeof(lw_frame) == LW_F_SIZE, "lw_frame size");
_Static_assert((uint64_t)LW_F_UNTIMED == LW_FRAME_UNTIMED, "LW_F_UNTIMED");
LW_AT(lw_node, region, LW_N_REGION);
LW_AT(lw_node, last_hit, LW_N_LAST_HIT);
LW_AT(lw_node, last_region, LW_N_LAST_REGION);
_Static_assert(LW_LAST_HITS == 4, "the trampoline tries 4 last hits");
LW_AT(lw_node, visits, LW_N_VISITS);
LW_AT(lw_node, incl, LW_N_INCL);
LW_AT(lw_node, min, LW_N_MIN);
LW_AT(lw_node, max, LW_N_MAX);
LW_AT(lw_node, unmeasured, LW_N_UNMEASURED);
LW_AT(lw_ra, ra, LW_RA_RA);
LW_AT(lw_ra, rbx, LW_RA_RBX);
LW_AT(lw_ra, entry, LW_RA_ENTRY);
LW_AT(lw_ra, sp, LW_RA_SP);
LW_AT(lw_ra, frame, LW_RA_FRAME);
LW_AT(lw_ra, depth, LW_RA_DEPTH);
_Static_assert(sizeof(lw_ra) == LW_RA_SIZE, "lw_ra size");

/*
 * A free return slot for a call at `sp` when the common case holds, else
 * NULL; *frame gets the call's identity for the measured frames. The
 * common case: no slot at or below this frame, or a tail call made by a
 * measured original through this wrapper (its return address is the
 * trampoline's return point, and the newest slots are at `sp`: the new
 * call is nested in them, its identity just below, as lw_abi_slot says).
 * Any other slot at or below this frame was abandoned (longjmp): the slow
 * path takes it back. ra_base[-1] is a sentinel above every frame.
 */
static inline __attribute__((always_inline)) lw_ra *lw_abi_free_slot(void **sp, void **frame)
{
    lw_ra *top = lw_tls.ra_top;
    if (lw_unlikely(top == lw_tls.ra_end))
        return NULL;
    uintptr_t prev = (uintptr_t)top[-1].sp;
    /* Stack-copying mode (abi.h): the top one, whatever lies below. */
    if (lw_likely(prev > (uintptr_t)sp) ||
        (lw_unlikely(__atomic_load_n(&lw_abi_copying, __ATOMIC_RELAXED)) && prev != (uintptr_t)sp)) {
        *frame = sp;
        return top;
    }
    if (prev == (uintptr_t)sp && lw_abi_is_return_point(*sp)) {
        unsigned chain = 0;
        for (const lw_ra *s = top; chain < LW_RA_TAIL_MAX && s > lw_tls.ra_base && s[-1].sp == sp; s--)
            chain++;
        *frame = (char *)sp - chain;
        return top;
    }
    return NULL;
}

/*
 * The common case of a measured entry: the frame opened and a return slot
 * taken under one hold of the guard, the slot claimed before it is filled
 * (a signal handler that interrupts takes the next one: lane.h). Returns
 * the slot, or 0 when the full path is needed (nothing done). Its exit takes
 * the trampoline's fast path unless `slow_exit` (a result to record).
 */
static inline __attribute__((always_inline)) uintptr_t lw_abi_enter_fast(libwrap_abi_entry *e, void **sp,
                                                                         int32_t id, int slow_exit)
{
    lw_thread *t = lw_guard_take_fast();
    if (lw_unlikely(!t))
        return 0;
    void *frame;
    lw_ra *top = lw_abi_free_slot(sp, &frame);
    uintptr_t r = 0;
    if (lw_likely(top != NULL)) {
        LW_STORE(lw_tls.ra_top, top + 1);
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        if (lw_likely(lw_enter_known(t, id, frame))) {
            top->entry = e;
            top->sp = sp;
            top->depth = slow_exit || __atomic_load_n(&lw_abi_copying, __ATOMIC_RELAXED) ? LW_RA_NO_FAST_EXIT
                                                                                        : t->depth - 1;
            top->frame = t->stack + (t->depth - 1);
            r = (uintptr_t)top;
        } else {
            LW_STORE(lw_tls.ra_top, top);
        }
    }
    LW_GUARD_CLEAR();
    return r;
}

static uintptr_t lw_abi_lane_ticks(uintptr_t unused_a, uintptr_t unused_b)
{
    (void)unused_a;
    (void)unused_b;
    return (uintptr_t)lw_ticks();
}

/* The clock for the lane: the TSC here, clock_gettime through the gate
 * (ordinary C may change vector registers). */
static inline uint64_t lw_abi_lane_now(void)
{
    return lw_timer_tsc ? lw_rdtsc() : (uint64_t)lw_abi_gate(lw_abi_lane_ticks, 0, 0);
}

/*
 * A call made while the thread's guard is held. The runtime calling the
 * function itself: forwarded unmeasured. A signal handler that interrupted
 * the runtime (LW_GUARD_SIGNAL): the call goes to the thread's lane
 * (lane.h) with a return slot of its own, taken before it is filled.
 */
__attribute__((noinline)) uintptr_t lw_abi_enter_busy(libwrap_abi_entry *e, void **sp)
{
#ifndef LIBWRAP_NOP
    if (!(LW_LOAD(lw_tls.guard) & LW_GUARD_SIGNAL) ||
        __atomic_load_n(&e->region.id, __ATOMIC_ACQUIRE) < 0)
        return LW_ABI_PASS;
    lw_lane *l = LW_LOAD(lw_tls.lane);
    lw_ra *slot = lw_tls.ra_top;
    if (!l || !slot || slot == lw_tls.ra_end) {
        lw_lane_lose();
        return LW_ABI_PASS;
    }
    uint64_t now = lw_abi_lane_now();
    if (LW_LOAD(e->flags) & LIBWRAP_ABI_NORETURN) {
        /* Its visit; no exit will come. */
        if (lw_lane_push(l, now))
            lw_lane_pop(l, (uintptr_t)e, now);
        return LW_ABI_PASS;
    }
    LW_STORE(lw_tls.ra_top, slot + 1);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    slot->entry = e;
    slot->sp = sp;
    slot->frame = NULL;
    slot->depth = LW_RA_LANE;
    if (!lw_lane_push(l, now)) {
        LW_STORE(lw_tls.ra_top, slot);
        return LW_ABI_PASS;
    }
    return (uintptr_t)slot;
#else
    (void)e;
    (void)sp;
    (void)lw_abi_lane_now;
    return LW_ABI_PASS;
#endif
}

/* Records the parameters selected in `mask` of the call just entered:
 * integers from the saved registers and the stack here, anything else
 * through the gate. The vector registers still hold the caller's
 * arguments: nothing touched them since the trampoline was entered. */
static __attribute__((noinline)) void lw_abi_record_slow(int32_t id, const libwrap_params *p, void **sp)
{
    uint64_t mask = LW_LOAD(p->record);
    int res = lw_args_result_index(p);
    if (res >= 0)
        mask &= ~(1ull << res);
    uint64_t values[LIBWRAP_PARAMS_MAX], xmm[8];
    lw_abi_save_xmm(xmm);
    lw_abi_values(p, mask, sp, xmm, values);
    lw_abi_args a = {id, p, mask, values};
    (void)lw_abi_gate(lw_abi_args_slow, (uintptr_t)&a, 0);
}

/*
 * Everything but the common entry: a function whose arguments or result
 * are recorded, and, through the gate, first calls, tracing, metrics. The
 * vector registers are read first, while they hold the caller's arguments.
 */
static __attribute__((noinline)) uintptr_t lw_abi_enter_other(libwrap_abi_entry *e, void **sp)
{
#ifndef LIBWRAP_NOP
    uint32_t flags = LW_LOAD(e->flags);
    int32_t id = __atomic_load_n(&e->region.id, __ATOMIC_ACQUIRE);
    uintptr_t slot;
    if (!(flags & (LIBWRAP_ABI_NORETURN | LW_ABI_MPI_MASK)) && (flags & (LIBWRAP_ABI_RECORD | LIBWRAP_ABI_RECORD_RESULT)) &&
        id > 0 && __atomic_load_n(&e->orig, __ATOMIC_ACQUIRE) != NULL &&
        (slot = lw_abi_enter_fast(e, sp, id, (flags & LIBWRAP_ABI_RECORD_RESULT) != 0))) {
        if ((flags & LIBWRAP_ABI_RECORD) && lw_unlikely(lw_args_fast_from(LW_VALUES_ABI, id, 0, sp) < 0))
            lw_abi_record_slow(id, lw_abi_params(e), sp);
        return slot;
    }
#else
    (void)lw_abi_record_slow;
    (void)lw_abi_enter_fast;
#endif
    lw_abi_call c;
    c.e = e;
    c.sp = sp;
    lw_abi_save_xmm(c.xmm);
    return lw_abi_gate(lw_abi_enter_slow, (uintptr_t)&c, 0);
}

/*
 * Entry, when the trampoline's own fast path did not take the call.
 * Returns a return slot (the entry was recorded: the trampoline calls the
 * original, then lw_abi_exit), LW_ABI_PASS (forward as a tail jump) or
 * LW_ABI_MISSING.
 */
uintptr_t lw_abi_enter(libwrap_abi_entry *e, void **sp)
{
    if (lw_likely(__atomic_load_n(&e->orig, __ATOMIC_ACQUIRE) != NULL)) {
        if (lw_unlikely(LW_LOAD(lw_tls.guard)))
            return lw_abi_enter_busy(e, sp);
#ifdef LIBWRAP_NOP
        /* Nothing is measured: the wrapper jumps straight from now on. */
        lw_abi_set_state(e, LW_ABI_STATE_EXCLUDED);
        return LW_ABI_PASS;
#else
        /* After a context switch inside a measured call: forwarded until
         * that call has returned (its slot and frame stay its own), here
         * or on another thread (its slot then free at the top). */
        if (lw_unlikely(lw_context_open())) {
            lw_ra *top = LW_LOAD(lw_tls.ra_top);
            if (!top || top == lw_tls.ra_base || top[-1].sp != NULL || lw_abi_gate(lw_abi_reclaim, 0, 0))
                return LW_ABI_PASS;
        }
        int32_t id = __atomic_load_n(&e->region.id, __ATOMIC_ACQUIRE);
        if (lw_unlikely(id < 0))
            return LW_ABI_PASS;
        uintptr_t slot;
        /* Recorded arguments take the other path: one flag test, with the
         * one for noreturn functions. */
        if (lw_likely(id > 0 &&
                      !(LW_LOAD(e->flags) & (LIBWRAP_ABI_NORETURN | LIBWRAP_ABI_RECORD |
                                             LIBWRAP_ABI_RECORD_RESULT | LW_ABI_MPI_MASK)) &&
                      (slot = lw_abi_enter_fast(e, sp, id, 0))))
            return slot;
#endif
    }
    return lw_abi_enter_other(e, sp);
}

#if defined(__aarch64__)
/*
 * The AArch64 trampoline's recording path (LW_ABI_STATE_RECORD,
 * abi_aarch64.S): the integer parameters of the call about to enter node
 * `n` of thread `t`, the guard held, from the registers saved below its
 * return address at `sp` (LW_ABI_SAVED_GPRS) and its stack arguments.
 * Returns n, or NULL when the C hooks must take the call, nothing done
 * (lw_args_int_block). Makes no call.
 */
lw_node *lw_abi_record_hot(lw_thread *t, lw_node *n, void **sp)
{
    lw_argblock *b = lw_args_int_block(t, n);
    if (!b)
        return NULL;
    lw_args_add(t, b, LW_VALUES_ABI, sp, 0);
    return n;
}
#else
/* The x86-64 trampoline's recording path (abi_x86_64.S): the same, into
 * the block of thread `t` that the trampoline checked (lw_args_int_block),
 * after the entry's timestamp. */
void lw_abi_record_add(lw_argblock *b, void **sp, lw_thread *t)
{
    lw_args_add(t, b, LW_VALUES_ABI, sp, 0);
}

void lw_abi_record_reduce(lw_thread *t)
{
    lw_args_reduce(t);
}
#endif

/* The result of a call whose arguments are recorded, from %rax or %xmm0
 * as the original left them. */
static __attribute__((noinline)) void lw_abi_exit_record(const libwrap_abi_entry *e, void **sp, int32_t id)
{
    const libwrap_params *p = lw_abi_params(e);
    int res = lw_args_result_index(p);
    if (res < 0 || !((LW_LOAD(p->record) >> res) & 1))
        return;
    uint64_t values[LIBWRAP_PARAMS_MAX];
    if ((lw_param_loc(&p->param[res]) & ~0xffu) == LIBWRAP_PARAM_ABI_SSE(0)) {
        uint64_t xmm[8];
        lw_abi_save_xmm(xmm);
        values[res] = xmm[0];
    } else {
        values[res] = LW_ABI_SAVED_GPRS(sp)[LW_ABI_SAVED_RAX];
    }
    uint64_t mask = 1ull << res;
    if (lw_args_fast_from(LW_VALUES_ARRAY, id, 1, values) < 0) {
        lw_abi_args a = {id, p, mask, values};
        (void)lw_abi_gate(lw_abi_args_slow, (uintptr_t)&a, 0);
    }
}

/* The exit of a call of a signal handler's lane (lw_abi_enter_busy). */
static __attribute__((noinline)) void lw_abi_exit_lane(lw_ra *slot)
{
#ifndef LIBWRAP_NOP
    uintptr_t who = (uintptr_t)slot->entry;
    uint64_t now = lw_abi_lane_now();
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    lw_abi_release(slot);
    lw_lane *l = LW_LOAD(lw_tls.lane);
    if (l && l->depth)
        lw_lane_pop(l, who, now);
#else
    lw_abi_release(slot);
#endif
}

/* Exit of the call that `slot` holds; the trampoline has taken the caller's
 * return address and %rbx out of it already, and the slot is still taken:
 * it is freed here once everything is read from it. */
void lw_abi_exit(lw_ra *slot)
{
    if (lw_unlikely(slot->depth == LW_RA_LANE)) {
        lw_abi_exit_lane(slot);
        return;
    }
    /* A call that another thread began: a coroutine switched out inside it
     * there and resumed here (context.c sent its exit to this hook). The
     * slot is that thread's: marked free, and this thread's own are left
     * alone; the call is not measured here. */
    if (lw_unlikely(slot < lw_tls.ra_base || slot >= lw_tls.ra_end)) {
        /* Its identity where the caller's return address was (read out
         * already): the thread that began the call closes its frame. */
        slot->ra = (void *)slot->sp;
        __atomic_store_n(&slot->depth, LW_RA_ELSEWHERE, __ATOMIC_RELAXED);
        __atomic_store_n(&slot->sp, NULL, __ATOMIC_RELEASE);
        return;
    }
    const libwrap_abi_entry *e = slot->entry;
    int32_t id = e->region.id;
    /* The result first, the call still the innermost: the frames that a
     * longjmp left above its own (a luaL_error under lua_pcall) closed
     * before. */
    if (lw_unlikely(LW_LOAD(e->flags) & LIBWRAP_ABI_RECORD_RESULT)) {
        lw_thread *t = lw_tls.self;
        if (t && t->depth && t->stack[t->depth - 1].region != id)
            (void)lw_abi_gate(lw_abi_exit_slow, (uintptr_t)(uint32_t)id, 1);
        lw_abi_exit_record(e, slot->sp, id);
    }
    /* MPI_Init's step once it returned (the C binding's result 0; the
     * Fortran one's error code is behind a pointer: the step finds MPI
     * not initialised where it failed). Read before the slot is freed. */
    int mpi_init = lw_unlikely((LW_LOAD(e->flags) & LW_ABI_MPI_MASK) == LW_ABI_MPI_INIT) &&
                   (e->region.symbol[0] == 'm' || LW_ABI_SAVED_GPRS(slot->sp)[LW_ABI_SAVED_RAX] == 0);
    /* Frees the slot and any slot above it left by a longjmp. Before the
     * exit is recorded: a signal handler may reuse it from here on. */
    lw_abi_release(slot);
    if (lw_unlikely(lw_exit_fast(id, LW_KIND_ABI) < 0))
        (void)lw_abi_gate(lw_abi_exit_slow, (uintptr_t)(uint32_t)id, 0);
    if (mpi_init)
        (void)lw_abi_gate(lw_abi_mpi_init_slow, 0, 0);
}
