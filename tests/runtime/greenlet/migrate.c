/*
 * migrate.c - a ucontext coroutine switched out inside a wrapped call
 * (cb_call's callback) on one thread and resumed on another, where the call
 * returns (tests/runtime/migrate.sh). MODE "join": the first thread has
 * ended (joined) before the second resumes the coroutine; "live": it makes
 * N more wrapped calls meanwhile; "after": it makes them once the call has
 * returned on the second thread. The second thread then makes N calls of
 * cb_leaf. Prints the results, and to stderr the calls made.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include "cb.h"

static ucontext_t co, back_a, back_b;
static char co_stack[256 << 10];
static int resumed_by_b, co_result;
static long n;
static long calls_call, calls_leaf;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready = PTHREAD_COND_INITIALIZER;
static int handed_over, a_done, returned;

static int yield_inside(int x)
{
    swapcontext(&co, &back_a); /* out of cb_call, on thread A */
    return x + 1;              /* on thread B */
}

static void coroutine(void)
{
    __atomic_add_fetch(&calls_call, 1, __ATOMIC_RELAXED);
    co_result = cb_call(yield_inside, 40); /* returns on thread B */
    resumed_by_b = 1;
}

static void *thread_a(void *arg)
{
    const char *mode = arg;
    getcontext(&co);
    co.uc_stack.ss_sp = co_stack;
    co.uc_stack.ss_size = sizeof co_stack;
    co.uc_link = &back_b;
    makecontext(&co, coroutine, 0);
    swapcontext(&back_a, &co);
    pthread_mutex_lock(&lock);
    handed_over = 1;
    pthread_cond_broadcast(&ready);
    pthread_mutex_unlock(&lock);
    long s = 0;
    if (!strcmp(mode, "after")) {
        pthread_mutex_lock(&lock);
        while (!returned)
            pthread_cond_wait(&ready, &lock);
        pthread_mutex_unlock(&lock);
    }
    if (strcmp(mode, "join"))
        for (long i = 0; i < n; i++) {
            s += cb_leaf((int)i);
            __atomic_add_fetch(&calls_leaf, 1, __ATOMIC_RELAXED);
        }
    return (void *)s;
}

static void *thread_b(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    while (!handed_over || !a_done)
        pthread_cond_wait(&ready, &lock);
    pthread_mutex_unlock(&lock);
    swapcontext(&back_b, &co); /* the call returns here */
    pthread_mutex_lock(&lock);
    returned = 1;
    pthread_cond_broadcast(&ready);
    pthread_mutex_unlock(&lock);
    long s = 0;
    for (long i = 0; i < n; i++) {
        s += cb_leaf((int)i);
        __atomic_add_fetch(&calls_leaf, 1, __ATOMIC_RELAXED);
    }
    return (void *)s;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "join";
    n = argc > 2 ? atol(argv[2]) : 1000;
    pthread_t a, b;
    void *ra = NULL, *rb = NULL;
    if (pthread_create(&a, NULL, thread_a, (void *)mode) != 0 || pthread_create(&b, NULL, thread_b, NULL) != 0)
        return 1;
    if (!strcmp(mode, "join")) {
        pthread_join(a, &ra);
        pthread_mutex_lock(&lock);
        a_done = 1;
        pthread_cond_broadcast(&ready);
        pthread_mutex_unlock(&lock);
    } else {
        pthread_mutex_lock(&lock);
        a_done = 1;
        pthread_cond_broadcast(&ready);
        pthread_mutex_unlock(&lock);
        pthread_join(a, &ra);
    }
    pthread_join(b, &rb);
    printf("resumed %d result %d sums %ld %ld\n", resumed_by_b, co_result, (long)ra, (long)rb);
    fprintf(stderr, "calls cb_call %ld cb_leaf %ld\n", calls_call, calls_leaf);
    return 0;
}
