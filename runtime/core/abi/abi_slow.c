/*
 * abi_slow.c - everything the ABI trampoline's hooks (abi.c) hand over:
 * finding originals, registering regions, a thread's return slots, the full
 * entry and exit (first calls, tracing, metrics, the clock timer), and
 * exceptions unwinding through a trampoline. Reached through
 * lw_abi_call_saving, so ordinary C: the caller's vector and x87 state is
 * saved around it.
 */
#include "core/abi/abi.h"
#include "core/arguments/arguments.h"
#include "core/measure/hot.h"

/* The empty function of compensation's calibration (compensate.c), and
 * the ABI-level wrapper of it: lw_abi_calib_stub (abi_x86_64.S) hands this
 * entry to the trampoline, as a generated wrapper hands its own. */
static __attribute__((noinline)) int lw_abi_calib_empty(int x)
{
    __asm__ volatile("");
    return x + 1;
}

__attribute__((aligned(64))) libwrap_abi_entry lw_abi_calib_entry = {
    (void *)lw_abi_calib_empty, NULL, lw_abi_path_fast, 0, LW_ABI_STATE_FAST,
    {"libwrap_calibration", "libwrap_calibration", "", 0, LW_CALIB_ID}};

#if defined(__x86_64__)
/* The same function, the same region, in the throttled states: what a
 * throttled call costs its caller (compensate.c). */
__attribute__((aligned(64))) libwrap_abi_entry lw_abi_calib_entry_throttled = {
    (void *)lw_abi_calib_empty, NULL, lw_abi_path_throttled, 0, LW_ABI_STATE_THROTTLED,
    {"libwrap_calibration", "libwrap_calibration", "", 0, LW_CALIB_ID}};
__attribute__((aligned(64))) libwrap_abi_entry lw_abi_calib_entry_framed = {
    (void *)lw_abi_calib_empty, NULL, lw_abi_path_throttled_framed, 0,
    LW_ABI_STATE_THROTTLED_FRAMED,
    {"libwrap_calibration", "libwrap_calibration", "", 0, LW_CALIB_ID}};
#endif

#include <errno.h>
#include <signal.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unwind.h>

uint64_t lw_abi_cost_record;

#if defined(__x86_64__) && LW_CLOCK_KEPT
/* A round of the trampoline's recording (lw_calib_ticks), the clock of a
 * thread state of our own moved on. */
static lw_thread lw_abi_record_thread;

static uint64_t lw_abi_record_round(void *block)
{
    lw_thread *t = &lw_abi_record_thread;
    uint64_t before = t->overhead, cost = lw_abi_cost_record;
    lw_abi_record_timed(block, LW_CALIB_CALLS, t);
    return t->overhead - before - LW_CALIB_CALLS * cost;
}
#endif

void lw_abi_calibrate_record(void)
{
#if defined(__x86_64__) && LW_CLOCK_KEPT
    if (!lw_cfg.arguments || !lw_compensating())
        return;
    /* An int in %rdi, as an ABI-level wrapper's parameter. */
    lw_argblock *b = lw_args_calib_block(LIBWRAP_PARAM_ABI_GPR(0), &lw_abi_record_thread);
    if (!b)
        return;
    lw_abi_cost_record = lw_calib_ticks(lw_abi_record_round, b);
    munmap(b, LW_ARGS_CALIB_BLOCK);
    lw_log(LW_LOG_TIMER, "compensation: recording an integer in the trampoline %llu ticks",
           (unsigned long long)lw_abi_cost_record);
#endif
}

/* The unwinder's, when one is loaded: only an unwinder calls the personality
 * routine below, and then it is there. Weak: the runtime needs no libgcc_s. */
extern _Unwind_Word _Unwind_GetGR(struct _Unwind_Context *, int) __attribute__((weak));

/*
 * Compensation's calibration (compensate.c, and the recordings' costs),
 * once, in a thread outside the runtime. At the start of a static
 * program; in a dynamic one (lw_abi_calibrate_later) where a wrapper
 * library registers with its target loaded, at the start of main where
 * none registered (the runtime's API called directly), or at the first
 * dlopen of a process whose wrappers' targets were not loaded
 * (lw_abi_calibrate_waits), before it can call them. A process that does
 * not use the wrapped libraries never calibrates.
 */
static pthread_mutex_t lw_calib_mutex = PTHREAD_MUTEX_INITIALIZER;
static int lw_calib_done, lw_calib_later;
static int lw_calib_waiting; /* wrappers registered before their targets */

void lw_abi_calibrate(void)
{
    if (__atomic_load_n(&lw_calib_done, __ATOMIC_ACQUIRE) || LW_LOAD(lw_state) != 1)
        return;
    int saved = errno;
    int guard = LW_LOAD(lw_tls.guard);
    LW_STORE(lw_tls.guard, 1);
    /* Its calls run on a private thread state: a signal handler's calls
     * would land there. Held back meanwhile (a fraction of a millisecond,
     * once; before main but at a dlopen). */
    sigset_t old;
    lw_signals_hold(&old);
    pthread_mutex_lock(&lw_calib_mutex);
    if (!lw_calib_done) {
#if defined(__x86_64__)
        lw_calib_abi abi = {(int (*)(int))(void *)lw_abi_calib_stub,
                            (int (*)(int))(void *)lw_abi_calib_stub_throttled,
                            (int (*)(int))(void *)lw_abi_calib_stub_framed, LW_THROTTLE_SAMPLE};
        lw_compensate_calibrate(&abi);
#elif defined(__aarch64__)
        lw_calib_abi abi = {(int (*)(int))(void *)lw_abi_calib_stub, NULL, NULL, 0};
        lw_compensate_calibrate(&abi);
#else
        lw_compensate_calibrate(NULL);
#endif
        lw_args_calibrate();
        lw_abi_calibrate_record();
        __atomic_store_n(&lw_calib_done, 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&lw_calib_mutex);
    lw_signals_release(&old);
    LW_STORE(lw_tls.guard, guard);
    errno = saved;
}

void lw_abi_calibrate_later(void)
{
    __atomic_store_n(&lw_calib_later, 1, __ATOMIC_RELEASE);
    lw_compensate_not_yet("the wrapped library was loaded after the start other than by dlopen");
}

void lw_abi_calibrate_waits(void)
{
    __atomic_store_n(&lw_calib_waiting, 1, __ATOMIC_RELEASE);
}

void lw_abi_calibrate_at_main(void)
{
    if (lw_abi_calibration_wanted() && !__atomic_load_n(&lw_calib_waiting, __ATOMIC_ACQUIRE))
        lw_abi_calibrate();
}

int lw_abi_calibration_wanted(void)
{
    return __atomic_load_n(&lw_calib_later, __ATOMIC_ACQUIRE) &&
           !__atomic_load_n(&lw_calib_done, __ATOMIC_ACQUIRE);
}

/*
 * The tables of runtime wrappers registered while their target was not
 * loaded (libwrap_abi_register): a process that does not use the library,
 * or loads it later (dlopen, a Python extension's dependency). The
 * originals of such a table are looked up together at the first call of
 * any of its functions once the target is there.
 */
#define LW_ABI_PENDING_MAX 64
static struct {
    libwrap_abi_entry *entries;
    uint32_t n;
    int done;
} lw_abi_pending[LW_ABI_PENDING_MAX];
static int lw_abi_npending;
static pthread_mutex_t lw_abi_pending_mutex = PTHREAD_MUTEX_INITIALIZER;

/* More tables than that: their functions are looked up one by one, each
 * at its first call. */
static void lw_abi_pending_add(libwrap_abi_entry *entries, uint32_t n)
{
    pthread_mutex_lock(&lw_abi_pending_mutex);
    int k = lw_abi_npending;
    if (k < LW_ABI_PENDING_MAX) {
        lw_abi_pending[k].entries = entries;
        lw_abi_pending[k].n = n;
        __atomic_store_n(&lw_abi_npending, k + 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&lw_abi_pending_mutex);
}

/* The originals of a table not found yet, each with RTLD_NEXT (its own
 * wrapper's lookup) and, `anywhere`, then in the target where it is, in
 * the global scope or not (lw_resolve_lookup). The object of the first
 * one found is kept loaded (lw_resolve_pin). Returns how many were found. */
static uint32_t lw_abi_lookup_all(libwrap_abi_entry *t, uint32_t n, int anywhere)
{
    uint32_t found = 0;
    for (uint32_t j = 0; j < n; j++) {
        libwrap_abi_entry *x = &t[j];
        if (__atomic_load_n(&x->orig, __ATOMIC_ACQUIRE) || !x->lib || !x->lib->next ||
            __atomic_load_n(&x->state, __ATOMIC_RELAXED) == LW_ABI_STATE_MISSING)
            continue;
        void *p = x->lib->next(x->region.symbol);
        if (!p && anywhere)
            p = lw_resolve_lookup(x->region.symbol, x->lib->soname, lw_abi_wrapper(x));
        p = lw_hook->past_wrappers(x, p);
        if (!p)
            continue;
        if (!found++)
            lw_resolve_pin(p);
        __atomic_store_n(&x->orig, p, __ATOMIC_RELEASE);
    }
    return found;
}

/* The pending table (lw_abi_pending) that holds e, or -1. */
static int lw_abi_pending_of(const libwrap_abi_entry *e)
{
    int k = __atomic_load_n(&lw_abi_npending, __ATOMIC_ACQUIRE);
    for (int i = 0; i < k; i++)
        if (e >= lw_abi_pending[i].entries && e < lw_abi_pending[i].entries + lw_abi_pending[i].n)
            return i;
    return -1;
}

/* The originals of e's table, when it is pending and its target is loaded
 * now; those not found are left to their own first calls. */
static void lw_abi_resolve_table(const libwrap_abi_entry *e)
{
    int i = lw_abi_pending_of(e);
    if (i < 0 || __atomic_load_n(&lw_abi_pending[i].done, __ATOMIC_ACQUIRE) ||
        !libwrap_target_loaded(e->lib->soname) || __atomic_exchange_n(&lw_abi_pending[i].done, 1, __ATOMIC_ACQ_REL))
        return;
    uint32_t n = lw_abi_pending[i].n;
    lw_log(LW_LOG_RESOLVE, "%s loaded after its wrapper: %u of %u originals found at its first call",
           e->lib->soname, lw_abi_lookup_all(lw_abi_pending[i].entries, n, 1), n);
}

/* A runtime wrapper's original left missing at a call made before its
 * target was loaded (a probe's, where even the fallback could not load
 * it), once the program has loaded the target itself (dlopen by a path):
 * the missing ones of its table are looked up again, with the rest of it.
 * 1 when they are to be; 0 while the target is not loaded, or where the
 * table's originals were looked up with the target there (a function it
 * lacks stays missing, at no cost). */
static int lw_abi_missing_again(libwrap_abi_entry *e)
{
    if (!e->lib || !e->lib->next || !e->lib->soname || libwrap_resolving())
        return 0;
    int i = lw_abi_pending_of(e);
    if (i < 0 || __atomic_load_n(&lw_abi_pending[i].done, __ATOMIC_ACQUIRE) || !libwrap_target_loaded(e->lib->soname))
        return 0;
    libwrap_abi_entry *t = lw_abi_pending[i].entries;
    for (uint32_t j = 0; j < lw_abi_pending[i].n; j++)
        if (__atomic_load_n(&t[j].state, __ATOMIC_RELAXED) == LW_ABI_STATE_MISSING && !t[j].orig)
            lw_abi_set_state(&t[j], LW_ABI_STATE_UNKNOWN);
    lw_log(LW_LOG_RESOLVE, "%s is loaded now: the originals missing at earlier calls are looked up again",
           e->lib->soname);
    return 1;
}

static int lw_abi_resolve(libwrap_abi_entry *e)
{
    if (__atomic_load_n(&e->state, __ATOMIC_RELAXED) == LW_ABI_STATE_MISSING) {
        sigset_t old;
        lw_signals_hold(&old); /* the loader's lock, as below */
        int again = lw_abi_missing_again(e);
        lw_signals_release(&old);
        if (!again)
            return 0;
    }
    if (!e->lib || !e->lib->next) {
        /* A link-time wrapper's original is the linker's: missing only
         * where the reference is weak, a function that the static archive
         * linked lacks (the shared library has it: the generator's
         * static_missing). */
        libwrap_warn_once(e, "%s is not in the library the program was linked with (its static archive "
                             "lacks it): its calls fail with ENOSYS", e->region.symbol);
        lw_abi_set_state(e, LW_ABI_STATE_MISSING);
        return 0;
    }
    /* dlsym itself calls a wrapped function (an allocator): that call fails
     * instead of resolving again, as in the typed wrappers. */
    if (libwrap_resolving())
        return 0;
    /* dlsym takes the loader's lock: signals held back (lw_signals_hold). */
    sigset_t old;
    lw_signals_hold(&old);
    lw_abi_resolve_table(e);
    void *p = __atomic_load_n(&e->orig, __ATOMIC_ACQUIRE);
    if (!p && (p = lw_hook->past_wrappers(e, e->lib->next(e->region.symbol))) != NULL) {
        /* Its dlopen may run constructors not run yet (the call came from
         * a target's constructor): another wrapper library's registration,
         * which makes its wrapper known as one, or this one's, which may
         * have set the original. */
        lw_resolve_pin(p);
        p = lw_hook->past_wrappers(e, p);
    }
    if (!p)
        p = libwrap_resolve_fallback(e->region.symbol, e->lib->soname, lw_abi_wrapper(e));
    /* The fallback loaded the target for this call: the rest with it. */
    if (p)
        lw_abi_resolve_table(e);
    lw_signals_release(&old);
    if (!p) {
        lw_abi_set_state(e, LW_ABI_STATE_MISSING);
        return 0;
    }
    /* Unless the registration set it meanwhile (above). */
    void *none = NULL;
    (void)__atomic_compare_exchange_n(&e->orig, &none, p, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    return 1;
}

static void lw_abi_register_guarded(libwrap_abi_entry *entries, uint32_t n)
{
    lw_hook->abi_tables(entries, n);
    /* A runtime wrapper (LD_PRELOAD, link order) cannot reach a copy of
     * its library linked into the program; a link-time one's --wrap did. */
    if (n && entries[0].lib && entries[0].lib->next)
        lw_static_target_check(entries, n);
    /* A runtime wrapper does not load its target (docs/wrappers.md): where
     * the target is not loaded, nothing is looked up now. */
    if (n && entries[0].lib && entries[0].lib->next && !libwrap_target_loaded(entries[0].lib->soname)) {
        lw_log(LW_LOG_RESOLVE, "%s is not loaded: its %u originals are looked up at its first call",
               entries[0].lib->soname, n);
        lw_abi_pending_add(entries, n);
        lw_abi_calibrate_waits();
        return;
    }
    /* Quietly, with RTLD_NEXT only: the others at their first calls. */
    lw_abi_lookup_all(entries, n, 0);
    lw_hook->abi_resolved(entries, n);
    /* Its target is there (or linked: a link-time wrapper): calls come. */
    lw_abi_calibrate();
}

/*
 * A thread's return slots (LW_RA_SLOTS of them, 1.5 MiB of address space)
 * are unmapped when it ends: a server that starts a thread a request kept
 * them for every thread it ever had, until its address space ran out.
 * Their key's destructor sets itself again, as the thread's own does
 * (measure/thread.c), so that the calls of other keys' destructors still
 * find them, and unmaps them in the last round but one; a call after that
 * maps new ones.
 */
#define LW_RA_MAPPING ((LW_RA_SLOTS + LW_RA_SENTINELS) * sizeof(lw_ra)) /* a thread's slots */
static pthread_key_t lw_ra_key;
static int lw_ra_key_ok;
static pthread_once_t lw_ra_once = PTHREAD_ONCE_INIT;
static __thread unsigned lw_ra_round __attribute__((tls_model("initial-exec")));
/* A slot of this thread was freed below a call still open
 * (lw_abi_release_nested) since lw_abi_slot last found none. */
static __thread int lw_ra_holes __attribute__((tls_model("initial-exec")));

static void lw_ra_destructor(void *mapping)
{
    if (++lw_ra_round < PTHREAD_DESTRUCTOR_ITERATIONS - 1 && pthread_setspecific(lw_ra_key, mapping) == 0)
        return;
    lw_ra *base = (lw_ra *)mapping + LW_RA_SENTINELS;
    /* Calls still open (a coroutine switched out inside one may return on
     * another thread, through its slot here: context.c): kept. Slots freed
     * below such a call, and left at the top, are not. */
    if (lw_tls.ra_base != base || lw_abi_free_top(LW_LOAD(lw_tls.ra_top)) != base)
        return;
    sigset_t old;
    lw_signals_hold(&old);
    LW_STORE(lw_tls.ra_end, NULL);
    LW_STORE(lw_tls.ra_top, NULL);
    LW_STORE(lw_tls.ra_base, NULL);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    (void)munmap(mapping, LW_RA_MAPPING);
    lw_signals_release(&old);
}

static void lw_ra_key_make(void)
{
    lw_ra_key_ok = pthread_key_create(&lw_ra_key, lw_ra_destructor) == 0;
}

void libwrap_abi_register(libwrap_abi_entry *entries, uint32_t n)
{
    int saved = errno;
    pthread_once(&lw_ra_once, lw_ra_key_make);
    /* The runtime's own calls here (the program's image read, the
     * originals looked up) may reach wrappers of libc or of the allocator
     * (registered now, or before): forwarded, not measured. */
    int guard = LW_LOAD(lw_tls.guard);
    LW_STORE(lw_tls.guard, 1);
    lw_abi_register_guarded(entries, n);
    LW_STORE(lw_tls.guard, guard);
    errno = saved;
}

/*
 * The registration of wrappers generated by a libwrap before `dispatch`:
 * their entries hold the wrapper there, and their library no `wrappers`.
 * Their functions are forwarded unmeasured (the generic entry's straight
 * jump), with one warning; nothing of the entries is read or written
 * beyond the fields both layouts share: their state is set here, not by
 * lw_abi_set_state, which would write the dispatch over the wrapper.
 */
LIBWRAP_API void libwrap_abi_preload(libwrap_abi_entry *entries, uint32_t n);
void libwrap_abi_preload(libwrap_abi_entry *entries, uint32_t n)
{
    int saved = errno;
    if (n)
        lw_warn("%s: its wrappers were generated by an older libwrap: its calls are not measured "
                "(run make in the wrapper's directory)",
                entries[0].lib && entries[0].lib->soname ? entries[0].lib->soname
                                                         : entries[0].region.symbol);
    for (uint32_t i = 0; i < n; i++) {
        libwrap_abi_entry *e = &entries[i];
        void *p = __atomic_load_n(&e->orig, __ATOMIC_ACQUIRE);
        if (!p && e->lib && e->lib->next && (p = e->lib->next(e->region.symbol)) != NULL)
            __atomic_store_n(&e->orig, p, __ATOMIC_RELEASE);
        int32_t state = p ? LW_ABI_STATE_EXCLUDED : LW_ABI_STATE_MISSING;
        __atomic_store_n(&e->state, state, __ATOMIC_RELAXED);
    }
    errno = saved;
}

void lw_abi_missing(libwrap_abi_entry *e)
{
    if (e->flags & (LIBWRAP_ABI_NORETURN | LIBWRAP_ABI_NO_ZERO)) {
        lw_warn("%s: the original cannot be found and no result can stand for it: the program stops",
                e->region.symbol);
        abort();
    }
    errno = ENOSYS;
}

static int lw_in_stack(const lw_thread *t, const void *p)
{
    return t && (uintptr_t)p >= t->stack_lo && (uintptr_t)p < t->stack_hi;
}

/* The thread's signal stack (sigaltstack) as last read: the calls a
 * handler made there and left by longjmp hold their slots until the
 * thread runs on another stack. Read at the first slot off the thread's
 * stack, and again every 4,096 such that lie outside what was read (a
 * signal stack set later, or changed). */
static __thread uintptr_t lw_alt_lo __attribute__((tls_model("initial-exec")));
static __thread uintptr_t lw_alt_hi __attribute__((tls_model("initial-exec")));
static __thread unsigned lw_alt_age __attribute__((tls_model("initial-exec")));

static int lw_in_altstack(const void *p)
{
    uintptr_t a = (uintptr_t)p;
    if (a >= lw_alt_lo && a < lw_alt_hi)
        return 1;
    if (lw_alt_age++ % 4096)
        return 0;
    int saved = errno;
    stack_t ss;
    if (sigaltstack(NULL, &ss) == 0 && !(ss.ss_flags & SS_DISABLE) && ss.ss_sp) {
        lw_alt_lo = (uintptr_t)ss.ss_sp;
        lw_alt_hi = lw_alt_lo + ss.ss_size;
    }
    errno = saved;
    return a >= lw_alt_lo && a < lw_alt_hi;
}

/* Whether the call of slot `s` was left (by longjmp, siglongjmp, an
 * unwinding that skipped its frame) when a call at `sp` is made or
 * returns after it: on one stack, the thread's or its signal stack, a
 * call at or below `sp`; a call on the signal stack, once the thread runs
 * elsewhere. A call on any other stack is a coroutine's, suspended. */
static int lw_abandoned(const lw_thread *t, const lw_ra *s, void **sp)
{
    if (lw_in_stack(t, s->sp))
        return lw_in_stack(t, sp) && (uintptr_t)s->sp <= (uintptr_t)sp;
    if (!lw_in_altstack(s->sp))
        return 0;
    return !lw_in_altstack(sp) || (uintptr_t)s->sp <= (uintptr_t)sp;
}

/*
 * A slot freed while slots above it are taken (lw_abi_release). Calls on
 * one stack return in order: a slot above this one whose call is on the
 * thread's own stack, as this one's is, was left by a longjmp (or a
 * signal handler's lane left so), and is freed with it. A coroutine on a
 * stack of its own that switched out inside a call (Boost.Context, a
 * fiber library: switches the runtime does not see) holds its slot until
 * it is resumed, in any order: a slot above on another stack is such a
 * call, kept; this one is then marked free (sp NULL), and given back with
 * the free ones at the top when that call returns (lw_abi_slot takes them
 * back at the next entry). Freeing those with this one let a later call
 * take the suspended call's slot, which then returned to that call's
 * caller (tests/abi/fibers.sh). Where the thread's stack is not known,
 * every slot above is freed, as a longjmp's.
 */
void lw_abi_release_nested(lw_ra *slot)
{
    lw_ra *top = LW_LOAD(lw_tls.ra_top);
    /* Taken back already (below the top no more): nothing to free. */
    if (slot >= top)
        return;
    const lw_thread *t = lw_tls.self;
    int known = t && t->stack_hi > t->stack_lo, kept = 0;
    for (lw_ra *s = slot + 1; s < top; s++) {
        if (!s->sp)
            continue;
        if (!known || s->depth == LW_RA_LANE || lw_abandoned(t, s, slot->sp))
            s->sp = NULL;
        else
            kept = 1;
    }
    if (!kept) {
        LW_STORE(lw_tls.ra_top, slot);
        return;
    }
    slot->sp = NULL;
    lw_ra_holes = 1;
    LW_STORE(lw_tls.ra_top, lw_abi_free_top(top));
}

/*
 * The free slots at the top given back: those freed under a call still
 * open elsewhere (lw_abi_release_nested), and those of calls that returned
 * on another thread, a coroutine switched out inside them here and
 * resumed there (lw_abi_exit marks them LW_RA_ELSEWHERE). Such a call's
 * frame is still this thread's: closed now, with any above it (calls
 * made under it meanwhile), where it is still the frame the call opened
 * (its identity in lw_ra.ra). Before, the thread's later calls were filed
 * under it, one level deeper at each such call (a fiber resumed on other
 * threads in turn: a call path thousands deep), or, after a context
 * switch (context.c), not measured at all. 1 while a call of this thread
 * is still open.
 */
uintptr_t lw_abi_reclaim(uintptr_t unused_a, uintptr_t unused_b)
{
    (void)unused_a;
    (void)unused_b;
    lw_ra *top = LW_LOAD(lw_tls.ra_top);
    lw_thread *t = lw_tls.self;
    while (top && top > lw_tls.ra_base && __atomic_load_n(&top[-1].sp, __ATOMIC_ACQUIRE) == NULL) {
        top--;
        lw_frame *f = top->frame;
        uintptr_t id = (uintptr_t)top->ra;
        if (top->depth != LW_RA_ELSEWHERE || !t || !f || f < t->stack || f >= t->stack + t->depth ||
            id < (uintptr_t)f->frame || id - (uintptr_t)f->frame > LW_RA_TAIL_MAX)
            continue;
        /* Not twice: the slot may be taken again before it is reached. */
        top->depth = LW_RA_NO_FAST_EXIT;
        if (lw_guard_take()) {
            lw_thread_close_from(t, (uint32_t)(f - t->stack), lw_ticks());
            LW_GUARD_CLEAR();
        }
    }
    if (top)
        LW_STORE(lw_tls.ra_top, top);
    return lw_calls_open();
}

/*
 * A free return slot for a call whose return address is at `sp`, or NULL;
 * *frame gets the call's identity for the measured frames (lw_enter_full).
 * A slot at `sp` whose return address is the trampoline's own belongs to a
 * measured original that made a tail call through this wrapper: it is live,
 * and the new call is nested in it (its identity just below). Any other
 * slot at or below `sp` on the thread's own stack belongs to a call left by
 * longjmp (the stack grows down) and is taken back.
 */
static lw_ra *lw_abi_slot(void **sp, void **frame)
{
    if (!lw_tls.ra_base) {
        /* Three more in front: the sentinels ra_base[-3..-1] (abi.h). */
        lw_ra *base = lw_map(LW_RA_MAPPING);
        if (base) {
            for (int k = 0; k < LW_RA_SENTINELS; k++)
                base[k].sp = (void **)UINTPTR_MAX;
            base += LW_RA_SENTINELS;
        }
        if (!base) {
            static int warned;
            libwrap_warn_once(&warned, "cannot allocate a thread's return slots (out of memory): "
                                       "its calls are forwarded unmeasured");
            return NULL;
        }
        /* The end first: a signal handler's call may come in between. */
        lw_tls.ra_end = base + LW_RA_SLOTS;
        lw_tls.ra_base = base;
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        lw_tls.ra_top = base;
        /* Unmapped at the thread's end (lw_ra_destructor). */
        if (lw_ra_key_ok)
            (void)pthread_setspecific(lw_ra_key, base - LW_RA_SENTINELS);
    }
    /* Slots freed under a call still open elsewhere, now at the top:
     * given back. */
    (void)lw_abi_reclaim(0, 0);
    lw_ra *top = lw_tls.ra_top;
    const lw_thread *t = lw_tls.self;
    int tail = lw_abi_is_return_point(*sp);
    unsigned chain = 0;
    /* Stack-copying mode (abi.h): a slot below is taken back only when
     * none is left, the tail call's chain still counted. */
    int keep = __atomic_load_n(&lw_abi_copying, __ATOMIC_RELAXED) && top != lw_tls.ra_end;
    if (keep && tail)
        for (lw_ra *s = top; s > lw_tls.ra_base && s[-1].sp == sp; s--)
            chain++;
    /* Slots left by a longjmp (lw_abandoned): at or below this call on its
     * stack, or on the signal stack now that the thread calls from
     * elsewhere (kept as a coroutine's, a thread that did that in a loop
     * ran out of slots). */
    while (!keep && top > lw_tls.ra_base) {
        if (top[-1].sp == sp && tail) {
            for (lw_ra *s = top; s > lw_tls.ra_base && s[-1].sp == sp; s--)
                chain++;
            break;
        }
        if (!lw_abandoned(t, &top[-1], sp))
            break;
        top--;
    }
    lw_tls.ra_top = top;
    *frame = (char *)sp - (chain < LW_RA_TAIL_MAX ? chain : LW_RA_TAIL_MAX);
    if (top == lw_tls.ra_end) {
        /* Taken to the end, as coroutines resumed in turn leave them (each
         * call's slot freed under another's still open, the newest slot
         * always a suspended call's: lw_abi_release_nested): a free one
         * below, the nearest to the top. Its call's exit takes the C hook
         * (it is not the newest), which frees it so again. */
        if (lw_ra_holes) {
            for (lw_ra *s = top - 1; s >= lw_tls.ra_base; s--)
                if (!s->sp)
                    return s;
            lw_ra_holes = 0;
        }
        static int warned;
        libwrap_warn_once(&warned, "calls nested deeper than %u wrapped functions (or that many open "
                                   "at once in coroutines): the deeper ones are forwarded unmeasured",
                          LW_RA_SLOTS);
        return NULL;
    }
    return top;
}

int lw_abi_copying;

void lw_abi_copying_on(void)
{
    __atomic_store_n(&lw_abi_copying, 1, __ATOMIC_SEQ_CST);
}

void lw_abi_set_state(libwrap_abi_entry *e, int32_t state)
{
    /* Stack-copying mode (abi.h): the trampoline's own paths are not
     * taken, their return slots being given back in order. */
    if (__atomic_load_n(&lw_abi_copying, __ATOMIC_RELAXED) &&
        (state == LW_ABI_STATE_FAST || state == LW_ABI_STATE_THROTTLED ||
         state == LW_ABI_STATE_THROTTLED_FRAMED || state == LW_ABI_STATE_RECORD))
        state = LW_ABI_STATE_SLOW;
    /* The generic entry for the states the C hooks take. */
    const void *to = lw_abi_trampoline;
    if (state == LW_ABI_STATE_FAST)
        to = lw_abi_path_fast;
    else if (state == LW_ABI_STATE_THROTTLED)
        to = lw_abi_path_throttled;
    else if (state == LW_ABI_STATE_THROTTLED_FRAMED)
        to = lw_abi_path_throttled_framed;
    else if (state == LW_ABI_STATE_RECORD)
        to = lw_abi_path_record;
    else if (state == LW_ABI_STATE_EXCLUDED && __atomic_load_n(&e->orig, __ATOMIC_ACQUIRE))
        to = e->orig; /* known by then: the wrapper jumps straight to it */
    __atomic_store_n(&e->state, state, __ATOMIC_RELAXED);
    /* What the wrappers read: after the state, which the generic entry
     * reads, so that either way a call takes the path of the state. */
    __atomic_store_n(&e->dispatch, to, __ATOMIC_RELEASE);
}

/*
 * What the trampoline does with the entry's later calls (e->state), once
 * its region is known: a straight jump when it is excluded, its own fast
 * path when it is measured and returns, with its recording path when
 * arguments or the result are recorded (the flags are set at
 * registration, before this), the C hooks for noreturn functions.
 */
/* The MPI library's own MPI_Init, MPI_Finalize and MPI_Abort (C and
 * Fortran bindings) as `symbol` names them: LW_ABI_MPI_*, else 0. */
static uint32_t lw_abi_mpi_kind(const char *symbol)
{
    static const struct {
        const char *name;
        uint32_t kind;
    } k[] = {
        {"MPI_Init", LW_ABI_MPI_INIT},         {"MPI_Init_thread", LW_ABI_MPI_INIT},
        {"mpi_init_", LW_ABI_MPI_INIT},        {"mpi_init_thread_", LW_ABI_MPI_INIT},
        {"MPI_Finalize", LW_ABI_MPI_FINALIZE}, {"mpi_finalize_", LW_ABI_MPI_FINALIZE},
        {"MPI_Abort", LW_ABI_MPI_ABORT},       {"mpi_abort_", LW_ABI_MPI_ABORT},
    };
    if (symbol[0] != 'M' && symbol[0] != 'm')
        return 0;
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (!strcmp(symbol, k[i].name))
            return k[i].kind;
    return 0;
}

static void lw_abi_settle(libwrap_abi_entry *e, int32_t id)
{
    /* A wrapper of the MPI library itself: these functions take the place
     * of the runtime's interposers, whose steps their C hooks take. */
    uint32_t mpi = id > 0 ? lw_abi_mpi_kind(e->region.symbol) : 0;
    if (mpi)
        __atomic_or_fetch(&e->flags, mpi, __ATOMIC_RELAXED);
    uint32_t flags = LW_LOAD(e->flags);
    int32_t state = id < 0                                 ? LW_ABI_STATE_EXCLUDED
                    : (flags & (LIBWRAP_ABI_NORETURN | LW_ABI_MPI_MASK)) ? LW_ABI_STATE_SLOW
                    : (flags & (LIBWRAP_ABI_RECORD | LIBWRAP_ABI_RECORD_RESULT)) ? LW_ABI_STATE_RECORD
                                                           : LW_ABI_STATE_FAST;
    if (id > 0 && e != &lw_abi_calib_entry)
        lw_region_set_kind(id, LW_KIND_ABI);
    lw_abi_set_state(e, state);
}

/* The parameters of the call just entered, when its function records them. */
static void lw_abi_record_params(int32_t id, const lw_abi_call *c)
{
    if (!(LW_LOAD(c->e->flags) & LIBWRAP_ABI_RECORD))
        return;
    const libwrap_params *p = lw_abi_params(c->e);
    uint64_t mask = LW_LOAD(p->record);
    int res = lw_args_result_index(p);
    if (res >= 0)
        mask &= ~(1ull << res);
    if (!mask)
        return;
    uint64_t values[LIBWRAP_PARAMS_MAX];
    lw_abi_values(p, mask, c->sp, c->xmm, values);
    lw_args_params(id, p, mask, values);
}

static uintptr_t lw_abi_enter_slow_(const lw_abi_call *c)
{
    libwrap_abi_entry *e = c->e;
    void **sp = c->sp;
    /* A function's first call (its original found, its region registered)
     * is one-time work: kept out of the times (lw_enter_full_since), when
     * the thread measures already on the timer it has now. */
    uint64_t since = 0;
    if ((!__atomic_load_n(&e->orig, __ATOMIC_ACQUIRE) || !__atomic_load_n(&e->region.id, __ATOMIC_ACQUIRE)) &&
        lw_tls.self && LW_LOAD(lw_state) == 1)
        since = lw_ticks();
    if (!__atomic_load_n(&e->orig, __ATOMIC_ACQUIRE) && !lw_abi_resolve(e))
        return LW_ABI_MISSING;
#ifdef LIBWRAP_NOP
    (void)since;
    (void)sp;
    (void)lw_abi_slot;
    (void)lw_abi_record_params;
    (void)lw_abi_settle;
    /* Nothing is measured: the wrapper jumps straight from now on. */
    lw_abi_set_state(e, LW_ABI_STATE_EXCLUDED);
    return LW_ABI_PASS;
#else
    /* A signal handler that interrupted the runtime, making the function's
     * first call (its target loaded late): the thread's lane, as for any
     * of its calls once the original is known (lw_abi_enter). */
    if ((LW_LOAD(lw_tls.guard) & LW_GUARD_SIGNAL) && LW_LOAD(lw_state) == 1)
        return lw_abi_enter_busy(e, sp);
    int32_t id = __atomic_load_n(&e->region.id, __ATOMIC_ACQUIRE);
    if (!id)
        id = lw_region_register_abi(e);
    /* Once; not while the runtime calls the wrapped function itself (a
     * negative id then stands for "not now": the region stays
     * unregistered), nor when the runtime does not run. */
    if (__atomic_load_n(&e->state, __ATOMIC_RELAXED) == LW_ABI_STATE_UNKNOWN && id != 0 &&
        __atomic_load_n(&e->region.id, __ATOMIC_ACQUIRE) == id && !LW_LOAD(lw_tls.guard) &&
        LW_LOAD(lw_state) == 1)
        lw_abi_settle(e, id);
    if (id <= 0)
        return LW_ABI_PASS;
    if (e->flags & LIBWRAP_ABI_NORETURN) {
        /* No exit to record: the frame is closed as abandoned later. */
        if (lw_enter_full_since(id, sp, since))
            lw_abi_record_params(id, c);
        return LW_ABI_PASS;
    }
    /* Inside the runtime (it called a wrapped allocator), or stopped. */
    if (LW_LOAD(lw_tls.guard) || LW_LOAD(lw_state) != 1)
        return LW_ABI_PASS;
    void *frame;
    lw_ra *slot = lw_abi_slot(sp, &frame);
    if (!slot || !lw_enter_full_since(id, frame, since))
        return LW_ABI_PASS;
    /* lw_enter_full may have called wrapped functions (allocators) that
     * used and gave back the slot: take it now, under the guard, and before
     * it is filled (a signal handler that interrupts takes the next one). */
    LW_STORE(lw_tls.guard, 1);
    if (slot >= LW_LOAD(lw_tls.ra_top)) /* else a free one below (lw_abi_slot) */
        LW_STORE(lw_tls.ra_top, slot + 1);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    slot->entry = e;
    slot->sp = sp;
    slot->depth = LW_RA_NO_FAST_EXIT;
    slot->frame = NULL;
    lw_thread *t = lw_tls.self;
    /* A result to record, MPI_Init's step after it, or stack-copying mode:
     * the exit takes the C hook (lw_abi_exit). */
    if (t && t->depth && !(LW_LOAD(e->flags) & (LIBWRAP_ABI_RECORD_RESULT | LW_ABI_MPI_MASK)) &&
        !__atomic_load_n(&lw_abi_copying, __ATOMIC_RELAXED)) {
        slot->depth = t->depth - 1;
        slot->frame = t->stack + slot->depth;
    }
    LW_GUARD_CLEAR();
    lw_abi_record_params(id, c);
    return (uintptr_t)slot;
#endif
}

uintptr_t lw_abi_enter_slow(uintptr_t call, uintptr_t unused)
{
    (void)unused;
    int saved = errno;
    const lw_abi_call *c = (const lw_abi_call *)call;
    /* MPI_Finalize's step before the call is entered (the job's reduction
     * is not the call's time); MPI_Abort's once it is (the results are
     * written with it open, a call the program made). */
    uint32_t mpi = LW_LOAD(c->e->flags) & LW_ABI_MPI_MASK;
    if (!mpi && !__atomic_load_n(&c->e->region.id, __ATOMIC_ACQUIRE)) /* its first call */
        mpi = lw_abi_mpi_kind(c->e->region.symbol);
    if (lw_unlikely(mpi == LW_ABI_MPI_FINALIZE))
        lw_hook->mpi_call(mpi);
    uintptr_t r = lw_abi_enter_slow_(c);
    if (lw_unlikely(mpi == LW_ABI_MPI_ABORT) && r != LW_ABI_MISSING)
        lw_hook->mpi_call(mpi);
    errno = saved;
    return r;
}

uintptr_t lw_abi_mpi_init_slow(uintptr_t unused_a, uintptr_t unused_b)
{
    (void)unused_a;
    (void)unused_b;
    int saved = errno;
    lw_hook->mpi_call(LW_ABI_MPI_INIT);
    errno = saved;
    return 0;
}

uintptr_t lw_abi_args_slow(uintptr_t args, uintptr_t unused)
{
    (void)unused;
    const lw_abi_args *a = (const lw_abi_args *)args;
    lw_args_params(a->id, a->params, a->mask, a->values);
    return 0;
}

uintptr_t lw_abi_exit_slow(uintptr_t id, uintptr_t abandoned)
{
    int saved = errno;
    if (abandoned)
        lw_exit_abandoned((int32_t)(uint32_t)id);
    else
        lw_exit_full((int32_t)(uint32_t)id);
    errno = saved;
    return 0;
}

/*
 * The personality routine of libwrap_trampoline's frame: an exception (or
 * a thread's forced unwind) passing through a measured call closes that
 * call's frame when it passes, and frees its return slot. It has no
 * handler: the unwind always continues. The unwinder reads the caller's
 * return address from the slot right after this returns, before any other
 * code of this thread runs.
 */
_Unwind_Reason_Code lw_abi_personality(int version, _Unwind_Action actions, _Unwind_Exception_Class cls,
                                       struct _Unwind_Exception *exc, struct _Unwind_Context *ctx)
{
    (void)version;
    (void)cls;
    (void)exc;
    if (!(actions & _UA_CLEANUP_PHASE) || !_Unwind_GetGR)
        return _URC_CONTINUE_UNWIND;
    /* While the original runs, the trampoline's slot register (%rbx, x19)
     * holds its return slot: in a chain of tail calls, several frames
     * share a stack pointer, never a slot. */
#if defined(__x86_64__)
    lw_ra *s = (lw_ra *)_Unwind_GetGR(ctx, 3);
#else
    lw_ra *s = (lw_ra *)_Unwind_GetGR(ctx, 19);
#endif
    lw_ra *base = lw_tls.ra_base, *top = lw_tls.ra_top;
    if (!base || s < base || s >= top || (size_t)((char *)s - (char *)base) % sizeof *s || !s->sp)
        return _URC_CONTINUE_UNWIND;
    /* The exit first: the slot is still taken while it runs (a wrapped
     * function it calls gets another one). The slots above it, of calls
     * the exception left too, go with it. */
    int32_t id = s->entry->region.id;
    if (id > 0)
        (void)lw_abi_exit_slow((uintptr_t)(uint32_t)id, 0);
    lw_abi_release(s);
    return _URC_CONTINUE_UNWIND;
}
