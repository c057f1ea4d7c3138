#include "abi.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

__int128 abi_i128(__int128 a, __int128 b, int k)
{
    return a * k + (b >> 3);
}

long double abi_ld(long double a, int k, long double b)
{
    return a * k - b / 3;
}

double abi_stack(long a, long b, long c, long d, long e, long f, long g, long h, double x0,
                 double x1, double x2, double x3, double x4, double x5, double x6, double x7,
                 double x8, double x9, long i, const char *s)
{
    return (double)(a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h) + x0 + 2 * x1 +
           3 * x2 + 4 * x3 + 5 * x4 + 6 * x5 + 7 * x6 + 8 * x7 + 9 * x8 + 10 * x9 + 11.0 * (double)i +
           (double)strlen(s);
}

double abi_mix(const char *kinds, ...)
{
    va_list ap;
    va_start(ap, kinds);
    double sum = 0;
    for (const char *k = kinds; *k; k++) {
        switch (*k) {
        case 'i': sum += va_arg(ap, int); break;
        case 'l': sum += (double)va_arg(ap, long); break;
        case 'd': sum += va_arg(ap, double); break;
        case 'L': sum += (double)va_arg(ap, long double); break;
        case 's': sum += (double)strlen(va_arg(ap, const char *)); break;
        }
        sum *= 1.5;
    }
    va_end(ap);
    return sum;
}

int abi_apply(int (*cb)(int), int x)
{
    return cb(x) + 1;
}

int abi_twice(int x)
{
    return 2 * x;
}

void abi_jump(jmp_buf env, int v)
{
    longjmp(env, v);
}

int abi_guard(void (*f)(void))
{
    f();
    return 7;
}

int abi_fail(int e)
{
    errno = e;
    return -1;
}

#if defined(__AVX__)
abi_v4d abi_m256(abi_v4d a, abi_v4d b, double s)
{
    return a * s + b;
}
#endif
