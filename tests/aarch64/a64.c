#include "a64.h"

#include <stdarg.h>
#include <string.h>

a64_hfa4 a64_hfa(a64_hfa4 p, a64_hfa3f q, double s)
{
    a64_hfa4 r = {p.a * s + q.x, p.b * s + q.y, p.c * s + q.z, p.d * s - q.x};
    return r;
}

a64_hva2 a64_hva(a64_hva2 p, a64_hva2 q)
{
    a64_hva2 r = {p.u * q.v + p.v, p.v * q.u - q.v};
    return r;
}

double a64_hfa_stack(a64_hfa4 a, a64_hfa4 b, a64_hfa4 c, float f)
{
    return a.a + 2 * a.d + 3 * b.b + 4 * b.c + 5 * c.a + 6 * c.b + 7 * c.c + 8 * c.d + (double)f;
}

a64_big a64_big_make(int64_t seed, const char *tag)
{
    a64_big b;
    for (int i = 0; i < 6; i++)
        b.v[i] = seed * (i + 1) - i;
    memset(b.tag, 0, sizeof b.tag);
    strncpy(b.tag, tag, sizeof b.tag - 1);
    return b;
}

__int128 a64_i128_stack(int a, __int128 b, int c, int d, int e, int f, int g, __int128 h,
                        long double x, long double y)
{
    return b * a + h * (c + d + e + f + g) + (__int128)(x * 1000) - (__int128)(y * 10);
}

double a64_vmix(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    double s = 0;
    for (int i = 0; i < n; i++) {
        switch (i % 4) {
        case 0: s += va_arg(ap, double); break;
        case 1: s += (double)va_arg(ap, long double); break;
        case 2: {
            a64_hfa4 h = va_arg(ap, a64_hfa4);
            s += h.a + h.b * 2 + h.c * 3 + h.d * 4;
            break;
        }
        case 3: s += (double)va_arg(ap, long); break;
        }
        s *= 1.25;
    }
    va_end(ap);
    return s;
}
