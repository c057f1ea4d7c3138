/*
 * timer.c - the tick source of the hot path and its calibration.
 *
 * Default: the TSC (rdtsc, ~20 cycles, no system call), usable only when it
 * runs at a constant rate on every core - the invariant TSC (CPUID
 * 0x80000007 EDX bit 8). Virtual machines often hide that bit while the host
 * TSC is fine; Linux then still reports constant_tsc and nonstop_tsc in
 * /proc/cpuinfo, which we accept. On AArch64 the "tsc" timer is the
 * architectural virtual counter (cntvct_el0, readable in user space on
 * Linux, constant rate cntfrq_el0 on every core). Otherwise CLOCK_MONOTONIC
 * (vDSO) is used, with one notice under LIBWRAP_VERBOSE=timer.
 *
 * Ticks become nanoseconds with a rate measured over the whole run (start to
 * finalisation) against CLOCK_MONOTONIC, so no calibration delay is paid at
 * start. Each end of that span is a pair of readings, the ticks read just
 * before and just after the monotonic clock, the tightest of a few tries:
 * the rate is known to 1e-4 once the span is 10,000 times the pairs' width
 * (some 0.5 ms), and only a run shorter than that waits for the rest, and
 * only when it has results to write (lifecycle.c). Before that, the rate is
 * measured from the start to the moment it is asked for (throttling
 * decides in nanoseconds while the program runs; a job's profile is
 * reduced at MPI_Finalize).
 */
#include "core/base/base.h"

#include "core/base/dl.h"

#include <errno.h>
#include <gnu/lib-names.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

int lw_timer_tsc;

/* The clocks of libc and the kernel themselves, not what a preloaded
 * interposer puts first in symbol lookup (libfaketime's frozen or scaled
 * clock, and its sleeps, with which the calibration below never ended):
 * the runtime's own times and waits are real ones. libc's clock_gettime
 * (the vDSO's), else the system call. */
static int (*lw_libc_clock_gettime)(clockid_t, struct timespec *);

static void lw_clock_init(void)
{
    if (!lw_dl_available() || lw_libc_clock_gettime)
        return;
    void *libc = dlopen(LIBC_SO, RTLD_LAZY | RTLD_NOLOAD);
    if (!libc)
        return;
    void *p = dlsym(libc, "clock_gettime");
    dlclose(libc);
    if (p)
        lw_libc_clock_gettime = (int (*)(clockid_t, struct timespec *))p;
}

int lw_clock_gettime(clockid_t id, struct timespec *ts)
{
    int (*p)(clockid_t, struct timespec *) = lw_libc_clock_gettime;
    return p ? p(id, ts) : (int)syscall(SYS_clock_gettime, id, ts);
}

void lw_sleep_ns(long ns)
{
    struct timespec ts = {ns / 1000000000, ns % 1000000000};
    int saved = errno;
    while (syscall(SYS_nanosleep, &ts, &ts) != 0 && errno == EINTR)
        ;
    errno = saved;
}

/* One reading of both clocks: the monotonic time, the tick half-way
 * between the ticks read just before and just after it, and the width
 * between those two. */
typedef struct lw_clock_pair {
    uint64_t mono, ticks, width;
} lw_clock_pair;

static lw_clock_pair lw_start;
static uint64_t lw_epoch;
static double lw_ns_per_tick = 1.0;
static int lw_calibrated;

/* Before calibration: the rate last measured from the start, and the tick
 * of that measurement. Asked again within LW_RATE_KEEP ticks (some 0.5 ms),
 * it is given as it is: a caller in a loop (a plugin's ns() for each of its
 * events) reads the clocks once in a while, not four pairs a call. Each
 * word is read and written whole; a reader that sees one measurement's
 * tick and another's rate has a rate all the same. */
#define LW_RATE_KEEP (1u << 20)
static uint64_t lw_rate_at, lw_rate_bits;

static uint64_t lw_mono_ns(void)
{
    struct timespec ts;
    lw_clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The tightest of four readings (an interrupt or a preemption between the
 * reads widens one). */
static lw_clock_pair lw_clock_pair_read(void)
{
    lw_clock_pair best = {0, 0, UINT64_MAX};
    for (int i = 0; i < 4; i++) {
        uint64_t t0 = lw_ticks();
        uint64_t mono = lw_mono_ns();
        uint64_t t1 = lw_ticks();
        if (t1 - t0 < best.width)
            best = (lw_clock_pair){mono, t0 + (t1 - t0) / 2, t1 - t0};
    }
    return best;
}

/* ns per tick between the start and `now`; 0 when no tick has passed. */
static double lw_rate_to(const lw_clock_pair *now)
{
    if (now->ticks <= lw_start.ticks || now->mono <= lw_start.mono)
        return 0;
    return (double)(now->mono - lw_start.mono) / (double)(now->ticks - lw_start.ticks);
}

#if defined(__x86_64__) || defined(__i386__)
static int lw_cpuinfo_has_stable_tsc(void)
{
    FILE *f = fopen("/proc/cpuinfo", "re");
    if (!f)
        return 0;
    char *line = NULL;
    size_t cap = 0;
    int ok = 0;
    while (getline(&line, &cap, f) > 0) {
        if (strncmp(line, "flags", 5))
            continue;
        ok = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
        break;
    }
    free(line);
    fclose(f);
    return ok;
}

static int lw_tsc_usable(void)
{
    unsigned a, b, c, d;
    if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000007) {
        __get_cpuid(0x80000007, &a, &b, &c, &d);
        if (d & (1u << 8))
            return 1;
    }
    if (lw_cpuinfo_has_stable_tsc()) {
        lw_log(LW_LOG_TIMER, "no invariant-TSC CPUID bit, but constant_tsc and nonstop_tsc: using tsc");
        return 1;
    }
    return 0;
}
#endif

void lw_timer_init(enum lw_timer_kind requested)
{
    lw_timer_tsc = 0;
#if defined(__x86_64__) || defined(__i386__)
    if (requested == LW_TIMER_TSC) {
        if (lw_tsc_usable())
            lw_timer_tsc = 1;
        else
            lw_log(LW_LOG_TIMER, "the TSC is not invariant on this machine: using clock_gettime");
    }
#elif defined(__aarch64__)
    if (requested == LW_TIMER_TSC) {
        uint64_t freq;
        __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(freq));
        if (freq) {
            lw_timer_tsc = 1;
            lw_log(LW_LOG_TIMER, "the virtual counter cntvct_el0 at %.3f MHz (cntfrq_el0)", (double)freq / 1e6);
        } else {
            lw_log(LW_LOG_TIMER, "cntfrq_el0 reads 0: using clock_gettime");
        }
    }
#else
    if (requested == LW_TIMER_TSC)
        lw_log(LW_LOG_TIMER, "no TSC on this architecture: using clock_gettime");
#endif
    lw_clock_init();
    struct timespec rt;
    lw_clock_gettime(CLOCK_REALTIME, &rt);
    lw_epoch = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec;
    lw_start = lw_clock_pair_read();
    __atomic_store_n(&lw_rate_at, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&lw_calibrated, 0, __ATOMIC_RELAXED);
    lw_ns_per_tick = 1.0;
    lw_log(LW_LOG_TIMER, "timer %s", lw_timer_name());
}

const char *lw_timer_name(void)
{
    return lw_timer_tsc ? "tsc" : "clock_gettime";
}

void lw_timer_calibrate(void)
{
    if (__atomic_load_n(&lw_calibrated, __ATOMIC_ACQUIRE))
        return;
    if (!lw_timer_tsc) {
        __atomic_store_n(&lw_calibrated, 1, __ATOMIC_RELEASE);
        return;
    }
    /* Known to 1e-4: a span of 10,000 times the two pairs' half-widths
     * (and a ns of the monotonic clock's rounding at each end), waited
     * for by a run shorter than that, 20 ms at the most. */
    lw_clock_pair now = lw_clock_pair_read();
    double rate = lw_rate_to(&now);
    for (int tries = 0; tries < 64; tries++) {
        uint64_t err = (lw_start.width + now.width) / 2 + 2;
        uint64_t span = now.ticks > lw_start.ticks ? now.ticks - lw_start.ticks : 0;
        uint64_t waited = now.mono - lw_start.mono;
        if (waited >= 20000000 || (rate > 0 && span >= err * 10000))
            break;
        uint64_t rest = rate > 0 ? (uint64_t)((double)(err * 10000 - span) * rate) + 1000 : 100000;
        if (rest > 20000000 - waited)
            rest = 20000000 - waited;
        lw_sleep_ns((long)rest);
        now = lw_clock_pair_read();
        rate = lw_rate_to(&now);
    }
    lw_ns_per_tick = rate > 0 ? rate : 1.0;
    __atomic_store_n(&lw_calibrated, 1, __ATOMIC_RELEASE);
    lw_log(LW_LOG_TIMER, "calibrated: %.6f ns per tick (%.1f MHz), over %.3f ms", lw_ns_per_tick,
           1e3 / lw_ns_per_tick, (double)(now.mono - lw_start.mono) / 1e6);
}

double lw_timer_ns_per_tick(void)
{
    if (__atomic_load_n(&lw_calibrated, __ATOMIC_ACQUIRE))
        return lw_ns_per_tick;
    if (!lw_timer_tsc)
        return 1.0;
    uint64_t at = __atomic_load_n(&lw_rate_at, __ATOMIC_ACQUIRE);
    double rate;
    if (at && lw_ticks() - at < LW_RATE_KEEP) {
        uint64_t bits = __atomic_load_n(&lw_rate_bits, __ATOMIC_RELAXED);
        memcpy(&rate, &bits, sizeof rate);
        return rate;
    }
    lw_clock_pair now = lw_clock_pair_read();
    rate = lw_rate_to(&now);
    if (rate <= 0)
        return 1.0;
    uint64_t bits;
    memcpy(&bits, &rate, sizeof bits);
    __atomic_store_n(&lw_rate_bits, bits, __ATOMIC_RELAXED);
    __atomic_store_n(&lw_rate_at, now.ticks, __ATOMIC_RELEASE);
    return rate;
}

uint64_t lw_timer_start_ticks(void)
{
    return lw_start.ticks;
}

uint64_t lw_timer_epoch_ns(void)
{
    return lw_epoch;
}

uint64_t lw_timer_start_mono(void)
{
    return lw_start.mono;
}
