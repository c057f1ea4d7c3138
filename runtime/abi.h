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

#include "internal.h"

#pragma GCC visibility push(hidden)

/*
 * A return slot: while a measured original runs, its caller's return
 * address and %rbx wait here, and %rbx points here (the trampoline's CFI
 * says so, so that unwinders find the caller). The layout is the
 * trampoline's: do not reorder.
 */
typedef struct lw_ra {
    void *ra;                 /* 0: the caller's return address */
    void *rbx;                /* 8: the caller's %rbx */
    libwrap_abi_entry *entry; /* 16 */
    void **sp;                /* 24: where the return address was: the frame's identity */
} lw_ra;

#define LW_RA_SLOTS 32768u

/* Where an original called by the trampoline returns to: a call whose
 * return address is this one is a tail call made by a measured original
 * (GMP's mpn_gcd_22 jumps to mpn_gcd_11 so), not a new call. */
extern const char lw_abi_return_point[];

/* Results of lw_abi_enter besides a slot address. */
#define LW_ABI_PASS ((uintptr_t)0)    /* forward as a tail jump, nothing recorded */
#define LW_ABI_MISSING ((uintptr_t)1) /* no original: lw_abi_missing, then a zero result */

/* The trampoline's hooks (abi.c). */
uintptr_t lw_abi_enter(libwrap_abi_entry *e, void **sp);
void lw_abi_exit(lw_ra *slot);

/* Calls fn(a, b) with every vector, mask, x87 and control register as it
 * was before (abi_x86_64.S says how). */
uintptr_t lw_abi_call_saving(uintptr_t (*fn)(uintptr_t, uintptr_t), uintptr_t a, uintptr_t b);
/* What it needs, set by lw_abi_cpu_init (called from the hooks before the
 * first gate): XSAVE's area in bytes and whether XSAVE is used (else
 * FXSAVE); the vector registers to save (0 %xmm0-15, 1 %ymm0-15,
 * 2 %zmm0-31 and 16-bit %k0-7, 3 the same with 64-bit masks); whether
 * XGETBV tells the components in use. */
extern uint32_t lw_abi_xsave_size, lw_abi_xsave, lw_abi_vec, lw_abi_xinuse;
void lw_abi_cpu_init(void);

/* Slow paths (abi_slow.c), reached through lw_abi_call_saving. */
uintptr_t lw_abi_enter_slow(uintptr_t entry, uintptr_t sp);
uintptr_t lw_abi_exit_slow(uintptr_t id, uintptr_t unused);
/* The original cannot be found: errno ENOSYS, or the end of the program
 * when no zero value can stand for the result. */
void lw_abi_missing(libwrap_abi_entry *e);

#pragma GCC visibility pop

#endif /* LIBWRAP_RUNTIME_ABI_H */
