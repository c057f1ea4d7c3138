/*
 * hand_wrap.c - the reference: a hand-written minimal --wrap wrapper with two
 * rdtsc and a thread-local call stack, the least a call-path profiler does.
 */
#include <stdint.h>

int __real_bench_fn(int x);

static inline uint64_t ticks(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}

static __thread struct {
    uint64_t start[256];
    uint32_t depth;
    uint64_t visits, ticks;
} hand_stack __attribute__((tls_model("initial-exec")));

int __wrap_bench_fn(int x)
{
    hand_stack.start[hand_stack.depth++ & 255] = ticks();
    int r = __real_bench_fn(x);
    uint64_t end = ticks();
    hand_stack.ticks += end - hand_stack.start[--hand_stack.depth & 255];
    hand_stack.visits++;
    return r;
}
