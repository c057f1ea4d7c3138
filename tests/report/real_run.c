/*
 * real_run.c - a measured program without a generator: it calls the runtime
 * API exactly as generated wrappers do, on two threads with nested calls,
 * so that libwrap-report is tested on what the runtime really writes.
 *
 * Calls: thread 0 runs outer() 10 times, thread 1 runs it 5 times; every
 * outer() calls inner() twice; recurse(3) on thread 0 nests 4 levels.
 */
#include <errno.h>
#include <pthread.h>
#include <time.h>

#include "libwrap/libwrap.h"

static libwrap_region r_outer = LIBWRAP_REGION_INIT("fx_outer", "fx_outer", "fixture.h", 1);
static libwrap_region r_inner = LIBWRAP_REGION_INIT("fx_inner", "fx_inner", "fixture.h", 2);
static libwrap_region r_recurse = LIBWRAP_REGION_INIT("fx_recurse", "fx_recurse", "fixture.h", 3);

static void spin(long ns)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do
        clock_gettime(CLOCK_MONOTONIC, &b);
    while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < ns);
}

/* The body every generated wrapper has (templates/wrapper_function.c.in). */
#define MEASURED(region, call)                                                                                 \
    do {                                                                                                       \
        int32_t id_ = libwrap_region_id(&(region));                                                            \
        int rec_ = id_ > 0 && libwrap_enter(id_, __builtin_frame_address(0));                                  \
        call;                                                                                                  \
        if (rec_)                                                                                              \
            libwrap_exit(id_);                                                                                 \
    } while (0)

static void inner(void)
{
    MEASURED(r_inner, spin(20000));
}

static void outer(void)
{
    MEASURED(r_outer, (spin(10000), inner(), inner()));
}

static void recurse(int n)
{
    MEASURED(r_recurse, (spin(5000), n > 0 ? recurse(n - 1) : (void)0));
}

static void *worker(void *arg)
{
    for (int i = 0; i < 5; i++)
        outer();
    return arg;
}

int main(void)
{
    pthread_t t;
    if (pthread_create(&t, NULL, worker, NULL) != 0)
        return 1;
    for (int i = 0; i < 10; i++)
        outer();
    recurse(3);
    return pthread_join(t, NULL) != 0;
}
