/* rr.c - the library of rr.h. The recursive call goes through the
 * function's address, which the dynamic linker resolves as any other
 * reference to the symbol (a direct call to itself the compiler makes to a
 * local alias, which no wrapper sees). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rr.h"

static void spin(long ns)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do
        clock_gettime(CLOCK_MONOTONIC, &b);
    while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < ns);
}

int rr_walk(int depth, long leaf_ns, int leaf_kib)
{
    int (*volatile self)(int, long, int) = rr_walk;
    if (depth > 0)
        return 1 + self(depth - 1, leaf_ns, leaf_kib);
    char *p = malloc((size_t)leaf_kib * 1024);
    if (p) {
        memset(p, 1, (size_t)leaf_kib * 1024);
        free(p);
    }
    spin(leaf_ns);
    return 1;
}
