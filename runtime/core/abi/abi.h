/*
 * abi.h - the ABI trampoline's interface inside the runtime (docs/abi.md).
 *
 *   abi_x86_64.S  libwrap_trampoline (the forwarding code every generated
 *                 wrapper jumps to) and lw_abi_call_saving (the full-state
 *                 gate to the slow paths)
 *   abi.c         the hooks the trampoline calls, general-purpose registers
 *                 only (built with -mgeneral-regs-only)
 *   abi_slow.c    what they hand over: resolving originals, registration,
 *                 a thread's first call, tracing and metrics, exceptions
 */
#ifndef LIBWRAP_RUNTIME_ABI_H
#define LIBWRAP_RUNTIME_ABI_H

/* libwrap_abi_entry.state, owned by the runtime (abi_slow.c sets it). */
#define LW_ABI_STATE_UNKNOWN 0  /* the C hooks decide */
#define LW_ABI_STATE_MISSING 1  /* the original cannot be found */
#define LW_ABI_STATE_FAST 2     /* original known, region measured, returns: the
                                 * trampoline's own fast path may take the call */
#define LW_ABI_STATE_EXCLUDED 3 /* original known, region excluded: a straight jump */
#define LW_ABI_STATE_SLOW 4     /* region measured, every call through the C hooks */
#define LW_ABI_STATE_THROTTLED 5 /* as FAST, but only one call in LW_THROTTLE_SAMPLE is
                                  * timed; the others count a visit (throttle.c) */
#define LW_ABI_STATE_THROTTLED_FRAMED 6 /* THROTTLED for a region that calls wrapped
                                         * functions: the others keep their frame */
#define LW_ABI_STATE_RECORD 7   /* as FAST, and its parameters or result are recorded:
                                 * the trampoline's recording path (lw_abi_record_add,
                                 * on AArch64 lw_abi_record_hot) */
#define LW_THROTTLE_SAMPLE 64

/*
 * What the trampoline's assembly reads and writes, by offset (abi.c checks
 * each against the C layout at compile time). Its fast path is the common
 * case of lw_enter_fast and lw_exit_fast (hot.h) without events.
 */
#define LW_E_ORIG 0        /* libwrap_abi_entry */
#define LW_E_DISPATCH 16   /* LIBWRAP_ABI_DISPATCH */
#define LW_E_FLAGS 24
#define LW_E_STATE 28
#define LW_E_NO_VECTOR 0x20 /* LIBWRAP_ABI_NO_VECTOR */
/* Runtime-owned flags (bits 6 and 7, below LIBWRAP_ABI_INDEX_SHIFT), set
 * at a region's first call: the function is the MPI library's MPI_Init
 * (or MPI_Init_thread, mpi_init_, mpi_init_thread_), MPI_Finalize or
 * MPI_Abort (C or Fortran), whose calls take the C hooks (abi_slow.c). */
#define LW_ABI_MPI_INIT 0x40u
#define LW_ABI_MPI_FINALIZE 0x80u
#define LW_ABI_MPI_ABORT 0xc0u
#define LW_ABI_MPI_MASK 0xc0u
#define LW_E_RECORD_RESULT_BIT 4 /* LIBWRAP_ABI_RECORD_RESULT's bit */
#define LW_E_RECORD_RESULT (1 << LW_E_RECORD_RESULT_BIT)
#define LW_E_ID 60         /* region.id */
#define LW_T_HOT 16        /* lw_tls_block */
#define LW_T_GUARD 24
#define LW_T_RA_TOP 32
#define LW_T_RA_END 48
#define LW_T_HOT_EV 56
#define LW_TH_STACK 0      /* lw_thread */
#define LW_TH_DEPTH 8
#define LW_TH_CAP 12
#define LW_TH_LISTEN 60    /* listen, an int */
#define LW_TH_EV_POS 64
#define LW_TH_EV_END 72
#define LW_TH_OVERHEAD 88
#define LW_TH_HASH 128     /* tree.hash */
#define LW_TH_HASH_MASK 136 /* tree.hash_mask */
#define LW_TH_ARG_BLOCKS 568 /* args.blocks */
#define LW_TH_PEND_SLOT 608 /* args.pend_slot */
#define LW_TH_NPEND 624    /* args.npend, 4 bytes */
#define LW_COST_ABI 8      /* lw_cost_ticks[LW_KIND_ABI] */
#define LW_COST_UNTIMED_LEAF 0   /* lw_cost_untimed[LW_UNTIMED_LEAF] */
#define LW_COST_UNTIMED_FRAMED 8 /* lw_cost_untimed[LW_UNTIMED_FRAMED] */
#define LW_F_NODE 0        /* lw_frame */
#define LW_F_START 8
#define LW_F_FRAME 16
#define LW_F_REGION 24     /* and `inherited`, 0, in the same 8 bytes */
#define LW_F_SIZE 32
#define LW_F_UNTIMED (-1)   /* lw_frame.start: LW_FRAME_UNTIMED */
#define LW_N_REGION 0      /* lw_node */
#define LW_N_PARENT 8
#define LW_N_LAST_HIT 32  /* 4 of them */
#define LW_N_LAST_REGION 64 /* and their regions, 4 bytes each */
#define LW_N_VISITS 80
#define LW_N_INCL 88
#define LW_N_MIN 96
#define LW_N_MAX 104
#define LW_N_UNMEASURED 112
#define LW_N_ARGS 4        /* args: a block's number, 0 none */
#define LW_B_NSLOTS 4      /* lw_argblock.nslots, 4 bytes */
#define LW_B_INTS 24       /* lw_argblock.ints */
#define LW_B_SLOT 32       /* slot[0] */
#define LW_S_SHIFT 1       /* lw_argslot, a byte each */
#define LW_S_SIGN 2
#define LW_S_RESULT 3
#define LW_S_AT 4          /* 2 bytes, signed */
#define LW_ARG_PEND_ASM 512 /* LW_ARG_PEND */
#define LW_ABI_GPR_AT (-11) /* lw_argslot.at of the first argument register (-LW_ABI_GPRS_BELOW) */
#define LW_RA_RA 0         /* lw_ra */
#define LW_RA_RBX 8
#define LW_RA_ENTRY 16
#define LW_RA_SP 24
#define LW_RA_FRAME 32
#define LW_RA_DEPTH 40
#define LW_RA_SIZE 48
/* Tail calls nested in one another get identities 1 to LW_RA_TAIL_MAX
 * below their stack pointer (lw_abi_slot). */
#define LW_RA_TAIL_MAX 7
/* lw_ra.depth of a slot whose exit must take the C hook: no depth - 1 the
 * exit's fast path computes equals it (lw_thread_none's is UINT32_MAX - 1). */
#define LW_RA_NO_FAST_EXIT 0x80000000 /* unsigned int, as LW_RA_LANE */
/* lw_ra.depth of a call of a signal handler's lane (lane.h): its exit is the
 * lane's. */
#define LW_RA_LANE 0xc0000000
/* lw_ra.depth of a free slot whose call returned on another thread (a
 * coroutine resumed there): its frame is closed by the thread that began
 * it (lw_abi_reclaim), which finds the call's identity in lw_ra.ra. */
#define LW_RA_ELSEWHERE 0xa0000000
/* lw_tls.guard's bit for "a signal handler interrupted the runtime", as in
 * core/measure/measure.h. */
#define LW_GUARD_SIGNAL 2

#ifndef __ASSEMBLER__

#include "core/measure/listen.h"
#include "core/measure/hooks.h"
#include "core/arguments/arguments.h"

#pragma GCC visibility push(hidden)

/*
 * A return slot: while a measured original runs, its caller's return
 * address and %rbx wait here, and %rbx points here (the trampoline's CFI
 * says so, so that unwinders find the caller). The layout is the
 * trampoline's: do not reorder. ra_base[-3..-1] are sentinels whose `sp`
 * is the highest address, so the newest slot always has a predecessor, and
 * the trampoline's CFI reads three slots below any (CFI_CALL_FRAME).
 */
#define LW_RA_SENTINELS 3
typedef struct lw_ra {
    void *ra;                 /* 0: the caller's return address */
    void *rbx;                /* 8: the caller's %rbx */
    libwrap_abi_entry *entry; /* 16 */
    void **sp;                /* 24: where the return address was: the frame's identity */
    /* The frame this call opened, stack[depth] of its thread: the exit's
     * fast path closes it when it is still the top one. depth is
     * LW_RA_NO_FAST_EXIT when the exit must take the C hook. */
    lw_frame *frame;          /* 32 */
    uint32_t depth;           /* 40 */
    uint32_t reserved;
} lw_ra;

#define LW_RA_SLOTS 32768u

/*
 * Stack-copying coroutines (greenlet, under gevent and SQLAlchemy's
 * asyncio): a switch copies the running coroutine's stack out and another
 * one's in, at the same addresses. A coroutine suspended inside a wrapped
 * call (a callback that switches) then holds a return slot that looks
 * abandoned, by longjmp, to the calls the other coroutines make, which
 * would take it back, and the suspended call would return through another
 * call's slot when resumed. Once such a library is loaded (process/dl.c),
 * lw_abi_copying is 1: every call takes the C hooks (LW_ABI_STATE_SLOW,
 * lw_abi_set_state), whose exit marks its slot free (sp NULL) and gives
 * back only the free slots at the top (lw_abi_release); a slot is taken
 * back as abandoned only when the thread has none left.
 */
extern int lw_abi_copying;
void lw_abi_copying_on(void);

/* A slot freed with slots above it (abi_slow.c): those that a longjmp
 * left are freed with it, those of calls still open on other stacks kept. */
void lw_abi_release_nested(lw_ra *slot);
/* The free slots at the top given back, the frames of calls that returned
 * on another thread closed (abi_slow.c; ordinary C: through the gate). 1
 * while a call of this thread is still open. */
uintptr_t lw_abi_reclaim(uintptr_t unused_a, uintptr_t unused_b);

/* `top` less the free slots just below it (sp NULL): the thread's top once
 * they are given back. */
static inline lw_ra *lw_abi_free_top(lw_ra *top)
{
    while (top > lw_tls.ra_base && top[-1].sp == NULL)
        top--;
    return top;
}

/* The exit's end with a return slot: freed, with any slot above it that a
 * longjmp left (lw_abi_release_nested); in stack-copying mode only it, and
 * the free ones at the top. */
static inline void lw_abi_release(lw_ra *slot)
{
    if (__builtin_expect(!__atomic_load_n(&lw_abi_copying, __ATOMIC_RELAXED), 1)) {
        if (__builtin_expect(slot + 1 == LW_LOAD(lw_tls.ra_top), 1))
            LW_STORE(lw_tls.ra_top, slot);
        else
            lw_abi_release_nested(slot);
        return;
    }
    slot->sp = NULL;
    LW_STORE(lw_tls.ra_top, lw_abi_free_top(LW_LOAD(lw_tls.ra_top)));
}


/* Where an original called by the trampoline returns to: a call whose
 * return address is this one is a tail call made by a measured original
 * (GMP's mpn_gcd_22 jumps to mpn_gcd_11 so), not a new call. A throttled
 * call that is not timed returns to the second one. */
extern const char lw_abi_return_point[], lw_abi_return_untimed[];

static inline int lw_abi_is_return_point(const void *ra)
{
    return ra == (const void *)lw_abi_return_point || ra == (const void *)lw_abi_return_untimed;
}

/* The trampoline's code where its own fast paths hold the guard (the
 * entry and exit, then the throttled calls without and with frames): a
 * signal handler that interrupted it there may leave by longjmp without
 * harm (signal.c). */
extern const char lw_abi_hot_begin[], lw_abi_hot_end[], lw_abi_hot2_begin[], lw_abi_hot2_end[];
extern const char lw_abi_hot3_begin[], lw_abi_hot3_end[], lw_abi_hot4_begin[], lw_abi_hot4_end[];

/* A throttled call's visit and its count as not timed (lw_node.unmeasured)
 * are two stores: at the second (`count`, that of a call without frame;
 * `exit_count`, that of a call with one), a signal handler has the count
 * made first (signal.c), so that every visit stays counted as timed or
 * not whether it returns or leaves by longjmp; the code resumes at
 * `counted`. x86-64: `incq` of the node in %rdx; AArch64: the store of x13
 * to the node in x11. */
extern const char lw_abi_untimed_count[], lw_abi_untimed_counted[];
extern const char lw_abi_untimed_exit_count[], lw_abi_untimed_exit_counted[];

/* The x86-64 fast exit's one instruction between a visit and its time,
 * and the one after it: a signal handler that interrupts there has the
 * time added first (signal.c), so that min <= mean <= max holds whether
 * it returns or leaves by longjmp. AArch64 stores both at once. */
extern const char lw_abi_exit_time[], lw_abi_exit_timed[];

/* Results of lw_abi_enter besides a slot address. */
#define LW_ABI_PASS ((uintptr_t)0)    /* forward as a tail jump, nothing recorded */
#define LW_ABI_MISSING ((uintptr_t)1) /* no original: lw_abi_missing, then a zero result */

/* The trampoline's hooks (abi.c). */
uintptr_t lw_abi_enter(libwrap_abi_entry *e, void **sp);
void lw_abi_exit(lw_ra *slot);
#if defined(__aarch64__)
lw_node *lw_abi_record_hot(lw_thread *t, lw_node *n, void **sp);
#else
void lw_abi_record_add(lw_argblock *b, void **sp, lw_thread *t);
#endif

/* A full buffer of integers set aside by the x86-64 recording path's
 * assembly into their statistics (lw_args_reduce). */
void lw_abi_record_reduce(lw_thread *t);

/* What the x86-64 recording path adds to a call after its timestamp
 * (lw_abi_record_add and the registers around it), in ticks: the thread's
 * measurement clock moves on by it. Calibrated at start (abi_slow.c)
 * when LIBWRAP_ARGUMENTS is set and the run compensates; 0 otherwise. */
extern uint64_t lw_abi_cost_record;
void lw_abi_calibrate_record(void);
/* The recording path's work after its timestamp, `n` times, into block
 * `b`, the measurement clock of the thread state at `t` moved on
 * (abi_x86_64.S): what lw_abi_calibrate_record times. */
void lw_abi_record_timed(lw_argblock *b, uint64_t n, void *t);

/*
 * The argument registers as the trampoline saved them. x86-64: its frame
 * pointer is 8 bytes below `sp` (where the return address is), its 80-byte
 * area below that holds %rdi %rsi %rdx %rcx %r8 %r9 %rax %r10 from offset
 * 0, at the call and again after the original returned (%rax and %rdx its
 * results then). AArch64: `sp` is where x30 is, the caller's stack pointer
 * less 8, and x0-x18 are 168 bytes below it, at the call and after the
 * original returned (x0 the result). abi_x86_64.S and abi_aarch64.S lay
 * them out so (LW_ABI_GPRS_BELOW, arguments.h).
 */
#define LW_ABI_SAVED_GPRS(sp) ((const uint64_t *)(sp) - LW_ABI_GPRS_BELOW)
#if defined(__aarch64__)
#define LW_ABI_SAVED_RAX 0 /* x0 */
#else
#define LW_ABI_SAVED_RAX 6
#endif

/* A call on its way to the slow paths: the entry, where its return address
 * is, and %xmm0-7 as the caller set them, taken before any C code could
 * change them (the gate's callees are ordinary C). */
typedef struct lw_abi_call {
    libwrap_abi_entry *e;
    void **sp;
    uint64_t xmm[8];
} lw_abi_call;

/* Stores the low 64 bits of %xmm0-7 into out[0..7] and changes nothing
 * else (abi_x86_64.S): how the general-registers-only hooks see the
 * floating-point arguments and result. */
void lw_abi_save_xmm(uint64_t out[8]);

/* Arguments to record through the gate (lw_abi_args_slow). */
typedef struct lw_abi_args {
    int32_t id;
    const libwrap_params *params;
    uint64_t mask;
    const uint64_t *values;
} lw_abi_args;

static inline libwrap_params *lw_abi_params(const libwrap_abi_entry *e)
{
    return &e->lib->params[LIBWRAP_ABI_INDEX(e->flags)];
}

/* The entry's wrapper: what a lookup of its original skips (NULL for the
 * runtime's own entries). */
static inline const void *lw_abi_wrapper(const libwrap_abi_entry *e)
{
    return e->lib && e->lib->wrappers ? e->lib->wrappers[LIBWRAP_ABI_INDEX(e->flags)] : NULL;
}

/*
 * The trampoline's paths, where a wrapper jumps with its entry (its
 * `dispatch`) in each state: the generic entry (libwrap_trampoline, which
 * reads the state, for every state), the fast path, the throttled ones
 * and the recording path.
 */
extern const char lw_abi_trampoline[], lw_abi_path_fast[], lw_abi_path_throttled[],
    lw_abi_path_throttled_framed[], lw_abi_path_record[];

/* Sets the entry's state, and its dispatch to the path for it
 * (abi_slow.c): the one place either changes, but for the state of
 * wrappers generated before `dispatch` (libwrap_abi_preload). */
void lw_abi_set_state(libwrap_abi_entry *e, int32_t state);

/* values[i] for each bit i of `mask`, from where the ABI put parameter i:
 * a saved general register, a vector register (`xmm`), the stack
 * arguments above the return address at `sp`. */
static inline __attribute__((always_inline)) void lw_abi_values(const libwrap_params *p, uint64_t mask,
                                                                void **sp, const uint64_t *xmm,
                                                                uint64_t *values)
{
    const uint64_t *gpr = LW_ABI_SAVED_GPRS(sp);
    for (uint64_t m = mask; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctzll(m);
        unsigned loc = lw_param_loc(&p->param[i]), n = loc & 0xffu;
        uint64_t v = 0;
        if ((loc & ~0xffu) == LIBWRAP_PARAM_ABI_GPR(0))
            v = n < LW_ABI_NGPR ? gpr[n] : 0;
        else if ((loc & ~0xffu) == LIBWRAP_PARAM_ABI_SSE(0))
            v = n < 8 ? xmm[n] : 0;
        else if ((loc & ~0xffu) == LIBWRAP_PARAM_ABI_STACK(0))
            v = ((const uint64_t *)sp)[1 + n];
        values[i] = v;
    }
}

/* Calls fn(a, b) with every vector, mask, x87 and control register as it
 * was before (abi_x86_64.S says how). */
uintptr_t lw_abi_call_saving(uintptr_t (*fn)(uintptr_t, uintptr_t), uintptr_t a, uintptr_t b);
/* The same keeping only the vector registers of arguments and results,
 * %xmm/%ymm/%zmm0-7 (the per-call listeners' gate). */
uintptr_t lw_abi_call_abi(uintptr_t (*fn)(uintptr_t, uintptr_t), uintptr_t a, uintptr_t b);
/* The same keeping no vector register: for the calls of a function flagged
 * LIBWRAP_ABI_NO_VECTOR (the trampoline's per-call listeners). */
uintptr_t lw_abi_call_gpr(uintptr_t (*fn)(uintptr_t, uintptr_t), uintptr_t a, uintptr_t b);
/* What it needs, set by lw_abi_cpu_init (called from the hooks before the
 * first gate): XSAVE's area in bytes and whether XSAVE is used (else
 * FXSAVE); the vector registers to save (0 %xmm0-15, 1 %ymm0-15,
 * 2 %zmm0-31 and 16-bit %k0-7, 3 the same with 64-bit masks); whether
 * XGETBV tells the components in use. */
extern uint32_t lw_abi_xsave_size, lw_abi_xsave, lw_abi_vec, lw_abi_xinuse;
void lw_abi_cpu_init(void);

/* Slow paths (abi_slow.c), reached through lw_abi_call_saving. */
uintptr_t lw_abi_enter_slow(uintptr_t call, uintptr_t unused); /* call: an lw_abi_call */
/* The exit of region `id` (lw_exit_full), or with `abandoned` only the
 * frames a longjmp left above its own closed (lw_exit_abandoned). */
uintptr_t lw_abi_exit_slow(uintptr_t id, uintptr_t abandoned);
/* MPI_Init's step once a wrapper of the MPI library's own returned
 * (lw_abi_exit, through the gate). */
uintptr_t lw_abi_mpi_init_slow(uintptr_t unused_a, uintptr_t unused_b);
uintptr_t lw_abi_args_slow(uintptr_t args, uintptr_t unused); /* args: an lw_abi_args */
/* The original cannot be found: errno ENOSYS, or the end of the program
 * when no zero value can stand for the result. */
void lw_abi_missing(libwrap_abi_entry *e);

/* Compensation's calibration (compensate.c): a wrapper like a generated
 * one, of lw_abi_calib_entry. */
extern libwrap_abi_entry lw_abi_calib_entry;
extern const char lw_abi_calib_stub[];
#if defined(__x86_64__)
/* The same through entries in the throttled states (compensate.c). */
extern const char lw_abi_calib_stub_throttled[], lw_abi_calib_stub_framed[];
#endif

/* throttle.c: LIBWRAP_THROTTLE (ABI-level wrappers only) */

/* Through the gate, from the trampoline's exit every 4,096th visit of a
 * call path: throttles its region when LIBWRAP_THROTTLE says so. */
uintptr_t lw_throttle_check(uintptr_t node, uintptr_t unused);
/* The visits after which region `id` was throttled, 0 if it is not. */
uint64_t lw_throttled_after(int32_t id);
/* A call path below region `parent` was made while it is throttled as a
 * function without wrapped callees: its calls keep their frames from now
 * on (the hook throttled_callee). */
void lw_throttle_callee(int32_t parent);
/* A node's inclusive time estimated from its timed visits (once, when the
 * profile is written). */
void lw_throttle_estimate(lw_node *n);
/* With LIBWRAP_VERBOSE=profile, the line of a region throttled `after`
 * calls (lw_throttled_after): its visits (`visits`, all its call paths')
 * and how many of them were timed. */
void lw_throttle_log(int32_t id, uint64_t visits, uint64_t after);
int lw_throttle_sample(void); /* one call in this many is timed */
/* Once the timer and the plugins are known: one warning when
 * LIBWRAP_THROTTLE is set but cannot apply (a timer other than the TSC,
 * metrics, listeners), with the reason. */
void lw_throttle_start(void);

/* One warning when the executable defines functions of a wrapped library
 * itself (linked statically): their calls are not measured (static_target.c). */
void lw_static_target_check(const libwrap_abi_entry *entries, uint32_t n);

/* Compensation's calibration, once (abi_slow.c): lw_abi_calibrate where
 * calls may come, in a thread outside the runtime; lw_abi_calibrate_later
 * at the start of a dynamic program, where wrapper libraries will say
 * (their registration, or a dlopen while lw_abi_calibration_wanted). */
void lw_abi_calibrate(void);
void lw_abi_calibrate_later(void);
void lw_abi_calibrate_waits(void);   /* a wrapper registered before its target */
void lw_abi_calibrate_at_main(void); /* main begins: none did, calibrated now */
int lw_abi_calibration_wanted(void);

/* A wrapper's target libraries: their sonames joined by ':', in the order
 * of its link flags (LIBWRAP_SONAME, libwrap_abi_library.soname). The next
 * one from *list into `buf`, *list moved past it; 0 at the end. */
#define LW_SONAME_MAX 256
int lw_soname_next(const char **list, char *buf, size_t size);
/* `symbol` in the loaded objects of `soname` (such a list), else in any
 * loaded object, skipping `self`; NULL, quietly, when found nowhere
 * (resolve.c). */
void *lw_resolve_lookup(const char *symbol, const char *soname, const void *self);
/* The object that defines `orig` (an original just found) is never
 * unloaded: a wrapper keeps its originals, and no longer depends on its
 * target to keep them there (dlclose would unmap them). */
void lw_resolve_pin(const void *orig);
/* Whether `at` lies in a loaded segment of the object that `info`
 * describes (a dl_iterate_phdr callback's); if so, the extent of all its
 * segments into *lo and *hi (either may be NULL). resolve.c. */
struct dl_phdr_info;
int lw_object_has(const struct dl_phdr_info *info, const void *at, uintptr_t *lo, uintptr_t *hi);
/* A call made while the thread's guard is held (abi.c): a signal handler's
 * that interrupted the runtime goes to the thread's lane. */
uintptr_t lw_abi_enter_busy(libwrap_abi_entry *e, void **sp);

#pragma GCC visibility pop

#endif /* __ASSEMBLER__ */

#endif /* LIBWRAP_RUNTIME_ABI_H */
