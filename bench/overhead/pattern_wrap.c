/*
 * pattern_wrap.c - the wrapper body of libwrap.h, used when the generator
 * is not available to emit bench's wrapper.
 */
#include "bench_lib.h"

#include <libwrap/libwrap.h>

int __real_bench_fn(int x);

static libwrap_region region = LIBWRAP_REGION_INIT("bench_fn", "bench_fn", "bench_lib.h", 4);

int __wrap_bench_fn(int x)
{
    int32_t id = libwrap_region_id(&region);
    if (id < 0)
        return __real_bench_fn(x);
    int recorded = libwrap_enter(id, __builtin_frame_address(0));
    int result = __real_bench_fn(x);
    if (recorded)
        libwrap_exit(id);
    return result;
}
