/*
 * fiber_app.c - coroutines on stacks of their own that switch by a means
 * the runtime does not see (as Boost.Context's jump_fcontext, Argobots' or
 * a fiber library's own assembly: here libc's swapcontext reached through
 * a pointer from libc's handle, past the interposer), suspended inside
 * wrapped calls (co_call's callback) and resumed in another order than
 * they were suspended in (fibers.sh):
 *
 *   A suspends inside co_call; B suspends inside co_call, its return slot
 *   above A's; A is resumed and its co_call returns first; main then calls
 *   co_call, whose callback calls co_leaf and resumes B from there, nested
 *   two calls deep, where B's co_call returns.
 *
 * Each round prints its result; a final line the calls made.
 *
 * fiber_app many N R: N coroutines, each suspended inside co_call R times
 * in turn, resumed round-robin (a fiber scheduler whose fibers block inside
 * a wrapped call): the newest slot is always a suspended call's.
 *
 * fiber_app altjmp N: N times, a signal handler on the signal stack
 * (sigaltstack) calls co_call, whose callback leaves by siglongjmp; main
 * then calls co_leaf. The calls left on the signal stack are not a
 * coroutine's.
 */
#include <dlfcn.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include "corolib.h"

static int (*jump)(ucontext_t *, const ucontext_t *);
static ucontext_t main_ctx, a_ctx, b_ctx;
static char a_stack[128 << 10], b_stack[128 << 10];
static long calls, acc;

static int yield_a(int x)
{
    jump(&a_ctx, &main_ctx); /* out of co_call, in A */
    return x + 10;
}

static int yield_b(int x)
{
    jump(&b_ctx, &main_ctx); /* out of co_call, in B */
    return x + 20;
}

static void fiber_a(void)
{
    calls++;
    acc += co_call(yield_a, 1);
}

static void fiber_b(void)
{
    calls++;
    acc += co_call(yield_b, 2);
}

static int resume_b(int x)
{
    calls++;
    acc += co_leaf(x);
    jump(&main_ctx, &b_ctx); /* B's co_call returns here, main two calls deep */
    return x;
}

static int outer(int x)
{
    calls++;
    return co_call(resume_b, x);
}

static ucontext_t *many_ctx;
static int many_rounds, many_cur;

static int many_yield(int x)
{
    jump(&many_ctx[many_cur], &main_ctx); /* out of co_call */
    calls++;
    return x + co_leaf(x);
}

static void many_fiber(void)
{
    int me = many_cur;
    for (int r = 0; r < many_rounds; r++) {
        calls++;
        acc += co_call(many_yield, me);
    }
}

static int many(int n, int rounds)
{
    many_ctx = calloc((size_t)n, sizeof *many_ctx);
    char *stacks = malloc((size_t)n << 16);
    if (!many_ctx || !stacks)
        return 1;
    many_rounds = rounds;
    for (int i = 0; i < n; i++) {
        getcontext(&many_ctx[i]);
        many_ctx[i].uc_stack.ss_sp = stacks + ((size_t)i << 16);
        many_ctx[i].uc_stack.ss_size = 1 << 16;
        many_ctx[i].uc_link = &main_ctx;
        makecontext(&many_ctx[i], many_fiber, 0);
    }
    /* Each resume: to the fiber's next suspension, or its end. */
    for (int r = 0; r <= rounds; r++)
        for (many_cur = 0; many_cur < n; many_cur++)
            jump(&main_ctx, &many_ctx[many_cur]);
    printf("many: acc %ld, %ld calls\n", acc, calls);
    return 0;
}

static sigjmp_buf alt_env;

static int alt_leave(int x)
{
    calls++;
    acc += co_leaf(x);
    siglongjmp(alt_env, 1);
}

static void alt_handler(int sig)
{
    calls++;
    acc += co_call(alt_leave, sig);
}

static int altjmp(int n)
{
    static char alt[1 << 16];
    stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt};
    struct sigaction sa = {.sa_handler = alt_handler, .sa_flags = SA_ONSTACK};
    if (sigaltstack(&ss, NULL) != 0 || sigaction(SIGUSR1, &sa, NULL) != 0)
        return 1;
    for (int i = 0; i < n; i++) {
        if (!sigsetjmp(alt_env, 1))
            raise(SIGUSR1);
        calls++;
        acc += co_leaf(i);
    }
    printf("altjmp: acc %ld, %ld calls\n", acc, calls);
    return 0;
}

int main(int argc, char **argv)
{
    void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
    jump = libc ? (int (*)(ucontext_t *, const ucontext_t *))dlsym(libc, "swapcontext") : NULL;
    if (!jump) {
        fprintf(stderr, "no swapcontext in libc.so.6\n");
        return 2;
    }
    if (argc > 3 && !strcmp(argv[1], "many"))
        return many(atoi(argv[2]), atoi(argv[3]));
    if (argc > 2 && !strcmp(argv[1], "altjmp"))
        return altjmp(atoi(argv[2]));
    int rounds = argc > 1 ? atoi(argv[1]) : 100;
    for (int r = 0; r < rounds; r++) {
        getcontext(&a_ctx);
        a_ctx.uc_stack.ss_sp = a_stack;
        a_ctx.uc_stack.ss_size = sizeof a_stack;
        a_ctx.uc_link = &main_ctx;
        makecontext(&a_ctx, fiber_a, 0);
        getcontext(&b_ctx);
        b_ctx.uc_stack.ss_sp = b_stack;
        b_ctx.uc_stack.ss_size = sizeof b_stack;
        b_ctx.uc_link = &main_ctx;
        makecontext(&b_ctx, fiber_b, 0);
        jump(&main_ctx, &a_ctx); /* A suspended inside co_call */
        jump(&main_ctx, &b_ctx); /* B suspended inside co_call, above A */
        jump(&main_ctx, &a_ctx); /* A's co_call returns first; A ends */
        calls++;
        acc += co_leaf(r);
        calls++;
        acc += co_call(outer, r); /* resumes B two calls deep; B ends */
        if (r < 3)
            printf("round %d: %ld\n", r, acc);
    }
    printf("acc %ld, %ld calls\n", acc, calls);
    return 0;
}
