/* corolib.c - co_call runs its callback; co_leaf does a little work. */
#include "corolib.h"

int co_call(int (*cb)(int), int x)
{
    return cb(x) + 1;
}

int co_leaf(int x)
{
    return 2 * x;
}
