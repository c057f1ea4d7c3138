/* Calls the library's functions through the pointers its lookup hands
 * out: each call is a visit of the function, as a direct one is. */
#include "lk.h"
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>

static int call_v(int (*f)(int, va_list), int n, ...)
{
    va_list ap;
    va_start(ap, n);
    int r = f(n, ap);
    va_end(ap);
    return r;
}

int main(void)
{
    lk_fn leaf = lk_lookup("leaf", 1.5, 7), twice = lk_lookup("twice", 1.5, 7);
    if (!leaf || !twice || lk_lookup("none", 1.5, 7) || lk_lookup("leaf", 2.0, 7))
        return 3;
    int s = 0;
    for (int i = 0; i < 5; i++)
        s += leaf(i);
    for (int i = 0; i < 3; i++)
        s += twice(i);
    s += lk_leaf(100);
    s += lk_foreign()(-4);
    /* The twin looked up on the library's handle: the twin itself. */
    void *h = dlopen("liblk.so", RTLD_LAZY | RTLD_NOLOAD);
    int (*vsum)(int, va_list) = h ? (int (*)(int, va_list))dlsym(h, "lk_vsum") : NULL;
    if (!vsum)
        return 4;
    s += lk_sum(3, 1, 2, 3) + call_v(vsum, 4, 10, 20, 30, 40);
    printf("sum %d\n", s);
    return 0;
}
