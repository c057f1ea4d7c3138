/*
 * coro_app.c - two ucontext coroutines whose callbacks, called by the
 * wrapped co_call, switch back to the scheduler: each coroutine's co_call
 * is open while the other's runs, and they return in turn (coroutines.sh).
 * Then main calls co_leaf LEAVES times with no call open: those are
 * measured again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>

#include "corolib.h"

#define ROUNDS 200
#define LEAVES 100

static ucontext_t sched, co[2];
static long sum[2];

static int cb(int id)
{
    swapcontext(&co[id], &sched); /* the other coroutine runs now */
    return co_leaf(id);
}

static void body(int id)
{
    for (int i = 0; i < ROUNDS; i++)
        sum[id] += co_call(cb, id);
}

int main(void)
{
    static char stacks[2][256 * 1024];
    for (int id = 0; id < 2; id++) {
        getcontext(&co[id]);
        co[id].uc_stack.ss_sp = stacks[id];
        co[id].uc_stack.ss_size = sizeof stacks[id];
        co[id].uc_link = &sched;
        makecontext(&co[id], (void (*)(void))body, 1, id);
    }
    for (int i = 0; i <= ROUNDS; i++)
        for (int id = 0; id < 2; id++)
            swapcontext(&sched, &co[id]);
    long leaves = 0;
    for (int i = 0; i < LEAVES; i++)
        leaves += co_leaf(i);
    printf("co0 %ld co1 %ld leaves %ld\n", sum[0], sum[1], leaves);
    return 0;
}
