/*
 * hand_wrap.c - the reference: a hand-written minimal --wrap wrapper with two
 * rdtsc and a thread-local call stack, the least a call-path profiler does.
 *
 * Built once more with each of these, to see where a CPU puts the cost of
 * work between two timestamps (run.sh, "where the time goes"):
 *   HAND_NO_RDTSC     a counter in memory instead of rdtsc: the wrapper's
 *                     own work, without the timestamps
 *   HAND_ADDS_BEFORE  60 additions (4 chains of 15) before the exit's rdtsc
 *   HAND_ADDS_AFTER   the same after it
 *   HAND_LOADS        6 loads, each needing the one before, after the
 *                     exit's rdtsc (as a lookup through pointers does)
 *   HAND_STORES       20 stores, none needing another, before the exit's
 *                     rdtsc (as a wrapper that saves registers and fills
 *                     a return slot and a frame does)
 */
#include <stdint.h>

int __real_bench_fn(int x);

#ifdef HAND_NO_RDTSC
static uint64_t hand_counter;
static inline uint64_t ticks(void)
{
    hand_counter += 1000;
    __asm__ __volatile__("" ::: "memory");
    return hand_counter;
}
#else
static inline uint64_t ticks(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}
#endif

#define HAND_STORES_MAX 80

static __thread struct {
    uint64_t start[256];
    uint32_t depth;
    uint64_t visits, ticks;
    void *ring[8]; /* HAND_LOADS: each points to the next */
    uint64_t stored[HAND_STORES_MAX]; /* HAND_STORES: one word a cache line's half */
} hand_stack __attribute__((tls_model("initial-exec")));

#define ADD4 "addq $1, %%r8\n\taddq $1, %%r9\n\taddq $1, %%r10\n\taddq $1, %%r11\n\t"
#define ADD20 ADD4 ADD4 ADD4 ADD4 ADD4
#define ADDS() __asm__ __volatile__(ADD20 ADD20 ADD20 ::: "r8", "r9", "r10", "r11", "cc")

int __wrap_bench_fn(int x)
{
    hand_stack.start[hand_stack.depth++ & 255] = ticks();
    int r = __real_bench_fn(x);
#ifdef HAND_ADDS_BEFORE
    ADDS();
#endif
#ifdef HAND_STORES
    _Pragma("GCC unroll 32") for (int i = 0; i < HAND_STORES; i++)
        hand_stack.stored[i * 4] = (uint64_t)r + i;
    __asm__ __volatile__("" ::: "memory"); /* before the rdtsc */
#endif
    uint64_t end = ticks();
#ifdef HAND_ADDS_AFTER
    ADDS();
#endif
#ifdef HAND_LOADS
    void *p = hand_stack.ring[0];
    if (!p) { /* the ring, made on the first call */
        for (int i = 0; i < 8; i++)
            hand_stack.ring[i] = &hand_stack.ring[(i + 1) % 8];
        p = hand_stack.ring[0];
    }
    for (int i = 0; i < HAND_LOADS; i++) {
        __asm__ __volatile__("" : "+r"(p));
        p = *(void **)p;
    }
    end += (uintptr_t)p & 1; /* 0: the ring's entries are aligned */
#endif
    hand_stack.ticks += end - hand_stack.start[--hand_stack.depth & 255];
    hand_stack.visits++;
    return r;
}
