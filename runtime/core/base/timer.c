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
 * start; only a run shorter than 20 ms waits for the remainder at the end.
 */
#include "core/base/base.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

int lw_timer_tsc;

static uint64_t lw_start_ticks, lw_start_mono, lw_epoch;
static double lw_ns_per_tick = 1.0;
static int lw_calibrated;

static uint64_t lw_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
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
    struct timespec rt;
    clock_gettime(CLOCK_REALTIME, &rt);
    lw_epoch = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec;
    lw_start_mono = lw_mono_ns();
    lw_start_ticks = lw_ticks();
    lw_calibrated = 0;
    lw_ns_per_tick = 1.0;
    lw_log(LW_LOG_TIMER, "timer %s", lw_timer_name());
}

const char *lw_timer_name(void)
{
    return lw_timer_tsc ? "tsc" : "clock_gettime";
}

void lw_timer_calibrate(void)
{
    if (lw_calibrated || !lw_timer_tsc) {
        lw_calibrated = 1;
        return;
    }
    uint64_t mono = lw_mono_ns();
    const uint64_t min_span = 20000000; /* 20 ms: rate error below 1e-4 */
    if (mono - lw_start_mono < min_span) {
        uint64_t wait = min_span - (mono - lw_start_mono);
        struct timespec ts = {0, (long)wait};
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
            ;
        mono = lw_mono_ns();
    }
    uint64_t ticks = lw_ticks();
    if (ticks > lw_start_ticks)
        lw_ns_per_tick = (double)(mono - lw_start_mono) / (double)(ticks - lw_start_ticks);
    lw_calibrated = 1;
    lw_log(LW_LOG_TIMER, "calibrated: %.6f ns per tick (%.1f MHz)", lw_ns_per_tick,
           1e3 / lw_ns_per_tick);
}

double lw_timer_ns_per_tick(void)
{
    return lw_ns_per_tick;
}

uint64_t lw_timer_start_ticks(void)
{
    return lw_start_ticks;
}

uint64_t lw_timer_epoch_ns(void)
{
    return lw_epoch;
}

uint64_t lw_timer_start_mono(void)
{
    return lw_start_mono;
}
