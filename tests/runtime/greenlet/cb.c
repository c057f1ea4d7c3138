/* cb.c - a library that calls back: cb_call(f, x) returns f(x) + 1, so a
 * coroutine switch can happen inside a wrapped call (tests/runtime/greenlet.sh). */
#include "cb.h"

int cb_call(int (*f)(int), int x)
{
    return f(x) + 1;
}

int cb_leaf(int x)
{
    return 2 * x;
}
