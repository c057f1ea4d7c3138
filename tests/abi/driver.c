/* driver.c - calls every function of abi.h and prints what it got; its
 * stdout, stderr and exit status must not change under any wrapper. The
 * calls it makes are listed in abi.sh. */
#define _GNU_SOURCE
#include "abi.h"

#include <errno.h>
#include <execinfo.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ABI_REPEAT 10

static jmp_buf env;
static int backtrace_found;

static int cb_reenter(int x)
{
    return abi_twice(x) + 3;
}

static void leave_by_longjmp(void)
{
    abi_jump(env, 5);
}

/* Called from inside abi_apply: the unwinder must find our callers
 * through the wrapper. */
static int cb_backtrace(int x)
{
    void *frames[64];
    int n = backtrace(frames, 64);
    char **names = backtrace_symbols(frames, n);
    for (int i = 0; names && i < n; i++)
        if (strstr(names[i], "driver_marker"))
            backtrace_found = 1;
    free(names);
    return x;
}

static volatile int zero;

/* Not a tail call: this frame stays on the stack. */
__attribute__((noinline)) int driver_marker(void)
{
    return abi_apply(cb_backtrace, 4) + zero;
}

static void *worker(void *arg)
{
    long k = (long)(intptr_t)arg, s = 0;
    for (int i = 0; i < 1000; i++)
        s += abi_twice(i + (int)k);
    return (void *)(intptr_t)s;
}

int main(void)
{
    /* The GMP pattern: the high half comes from a register that the tail
     * call's target leaves alone. */
    uint64_t check = 0;
    for (uint64_t i = 0; i < 100; i++) {
        abi_pair p = abi_pat_outer(i, 1000 + i);
        check += p.lo * 7 + p.hi;
    }
    printf("pat %" PRIu64 "\n", check);

    __int128 w = abi_i128(((__int128)1 << 100) + 12345, -((__int128)7 << 70), 3);
    printf("i128 %016" PRIx64 "%016" PRIx64 "\n", (uint64_t)((unsigned __int128)w >> 64), (uint64_t)w);
    /* Ten times each: the calls after the first take the fast paths. */
    for (int k = 0; k < ABI_REPEAT; k++) {
        printf("ld %.21Lg\n", abi_ld(1.0L / 3 + k, 7, 2.5L));
        printf("stack %.17g\n", abi_stack(1, 2, 3, 4, 5, 6, 7, 8, 0.5 + k, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5,
                                          7.5, 8.5, 9.5 + k, 10, "eleven"));
    }
    printf("mix %.17g\n", abi_mix("idLsldidLsdddddddddddiiiiiiiL", 1, 2.25, 3.5L, "four", 5L, 6.5,
                                  7, 8.25, 9.75L, "ten", 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0,
                                  10.0, 11.0, 12, 13, 14, 15, 16, 17, 18, 19.5L));
    printf("mix0 %.17g\n", abi_mix(""));
    printf("apply %d\n", abi_apply(cb_reenter, 20));

    int v = setjmp(env);
    if (v == 0)
        abi_jump(env, 3);
    printf("jump %d\n", v);
    static volatile int guarded;
    guarded = 0;
    if ((v = setjmp(env)) == 0)
        guarded = abi_guard(leave_by_longjmp);
    printf("guard %d %d\n", v, guarded);
    /* After the longjmp, calls are measured as before. */
    printf("after %d\n", abi_twice(21));

    errno = 0;
    int r = abi_fail(ERANGE);
    printf("fail %d %s\n", r, errno == ERANGE ? "ERANGE" : "other");

    int marker = driver_marker();
    printf("backtrace %d %d\n", marker, backtrace_found);

    for (int k = 0; k < ABI_REPEAT; k++) {
#if defined(__AVX__)
        abi_v4d m = abi_m256((abi_v4d){4, 3, 2, 1 + k}, (abi_v4d){1, 0.125, 0.25, 0.5}, 3);
        printf("m256 %g %g %g %g\n", m[0], m[1], m[2], m[3]);
#else
        printf("m256 5 9.125 6.25 %g\n", 3.5 + k);
#endif
    }

    pthread_t t[4];
    long total = 0;
    for (long i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
    for (int i = 0; i < 4; i++) {
        void *res;
        pthread_join(t[i], &res);
        total += (long)(intptr_t)res;
    }
    printf("threads %ld\n", total);
    fprintf(stderr, "driver: done\n");
    return 3;
}
