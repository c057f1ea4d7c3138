/* bench_lib.c - built as libbench.so: a call through the PLT, as to any library. */
#include "bench_lib.h"

int bench_fn(int x)
{
    return x + 1;
}
