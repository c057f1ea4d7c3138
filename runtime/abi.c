/*
 * abi.c - the hooks of the ABI trampoline (abi_x86_64.S, docs/abi.md).
 *
 * Built with -mgeneral-regs-only: the common case touches no vector or x87
 * register, so the trampoline keeps the caller's vector arguments and the
 * original's vector and x87 results in place without saving them. Every
 * other case goes through lw_abi_call_saving, which saves that state first.
 * The common case makes no call at all (tests/abi checks the object file).
 */
#include "abi.h"
#include "hot.h"

uint32_t lw_abi_xsave_size, lw_abi_xsave;

/* XSAVE's area for the components the OS enabled (CPUID leaf 0xd), or
 * FXSAVE's 512 bytes. Also counts the 64-byte alignment slack. */
void lw_abi_cpu_init(void)
{
    uint32_t a, b, c, d;
    __asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
    uint32_t size = 512, xsave = 0;
    if (c & (1u << 27)) { /* OSXSAVE */
        __asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0xd), "c"(0));
        if (b >= 576) {
            size = b;
            xsave = 1;
        }
    }
    __atomic_store_n(&lw_abi_xsave, xsave, __ATOMIC_RELAXED);
    __atomic_store_n(&lw_abi_xsave_size, (size + 63) & ~63u, __ATOMIC_RELEASE);
}

static inline uintptr_t lw_abi_gate(uintptr_t (*fn)(uintptr_t, uintptr_t), uintptr_t a, uintptr_t b)
{
    if (lw_unlikely(!__atomic_load_n(&lw_abi_xsave_size, __ATOMIC_ACQUIRE)))
        lw_abi_cpu_init();
    return lw_abi_call_saving(fn, a, b);
}

/*
 * Entry. Returns a return slot (the entry was recorded: the trampoline
 * calls the original, then lw_abi_exit), LW_ABI_PASS (forward as a tail
 * jump) or LW_ABI_MISSING.
 */
uintptr_t lw_abi_enter(libwrap_abi_entry *e, void **sp)
{
    if (lw_likely(__atomic_load_n(&e->orig, __ATOMIC_ACQUIRE) != NULL)) {
#ifdef LIBWRAP_NOP
        return LW_ABI_PASS;
#else
        int32_t id = __atomic_load_n(&e->region.id, __ATOMIC_ACQUIRE);
        if (lw_unlikely(id < 0))
            return LW_ABI_PASS;
        lw_ra *top = lw_tls.ra_top;
        /* A slot at or below this frame is a tail call's caller or was
         * abandoned (longjmp): the slow path tells them apart. */
        if (lw_likely(id > 0 && !(e->flags & LIBWRAP_ABI_NORETURN) && top && top != lw_tls.ra_end &&
                      (top == lw_tls.ra_base || (uintptr_t)top[-1].sp > (uintptr_t)sp))) {
            int r = lw_enter_fast(id, sp);
            if (lw_likely(r > 0)) {
                top->entry = e;
                top->sp = sp;
                lw_tls.ra_top = top + 1;
                return (uintptr_t)top;
            }
            if (r == 0)
                return LW_ABI_PASS;
        }
#endif
    }
    return lw_abi_gate(lw_abi_enter_slow, (uintptr_t)e, (uintptr_t)sp);
}

/* Exit of the call that `slot` holds; the trampoline has taken the caller's
 * return address and %rbx out of it already. */
void lw_abi_exit(lw_ra *slot)
{
    int32_t id = slot->entry->region.id;
    /* Frees the slot and any slot above it left by a longjmp. Before the
     * exit is recorded: a signal handler may reuse it from here on. */
    lw_tls.ra_top = slot;
    if (lw_unlikely(lw_exit_fast(id) < 0))
        (void)lw_abi_gate(lw_abi_exit_slow, (uintptr_t)(uint32_t)id, 0);
}
