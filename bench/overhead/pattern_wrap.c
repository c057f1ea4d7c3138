/*
 * pattern_wrap.c - the wrapper body of libwrap.h, used when the generator
 * is not available to emit bench's wrapper.
 */
#include "bench_lib.h"

#include <errno.h>
#include <libwrap/libwrap.h>

int __real_bench_fn(int x);

static libwrap_region region = LIBWRAP_REGION_INIT("bench_fn", "bench_fn", "bench_lib.h", 4);

int __wrap_bench_fn(int x)
{
    int32_t id = libwrap_region_id(&region);
    if (id < 0)
        return __real_bench_fn(x);
    int saved_errno = errno;
    int recorded = libwrap_enter(id, __builtin_frame_address(0));
    errno = saved_errno;
    int result = __real_bench_fn(x);
    saved_errno = errno;
    if (recorded)
        libwrap_exit(id);
    errno = saved_errno;
    return result;
}
