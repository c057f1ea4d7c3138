#include "lk.h"
#include <stdlib.h>
#include <string.h>

int lk_leaf(int x)
{
    return x + 1;
}

int lk_twice(int x)
{
    return 2 * x;
}

double lk_scale(double x, int k)
{
    return x * k;
}

static const struct {
    const char *name;
    lk_fn fn;
} lk_table[] = {{"leaf", lk_leaf}, {"twice", lk_twice}};

lk_fn lk_lookup(const char *name, double weight, int bias)
{
    if (weight != 1.5 || bias != 7)
        return NULL;
    for (size_t i = 0; i < sizeof lk_table / sizeof lk_table[0]; i++)
        if (strcmp(lk_table[i].name, name) == 0)
            return lk_table[i].fn;
    return NULL;
}

int lk_vsum(int n, va_list ap)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, int);
    return s;
}

int lk_sum(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    int s = lk_vsum(n, ap);
    va_end(ap);
    return s;
}

lk_fn lk_foreign(void)
{
    return abs;
}
