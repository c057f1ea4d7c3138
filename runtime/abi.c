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

uint32_t lw_abi_xsave_size, lw_abi_xsave, lw_abi_vec, lw_abi_xinuse;

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
