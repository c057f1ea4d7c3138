/* argslib.c - the test library of argument recording (argslib.h). */
#include "argslib.h"

#include <setjmp.h>
#include <string.h>

int al_ints(int8_t i8, int16_t i16, int32_t i32, int64_t i64, uint8_t u8, uint16_t u16, uint32_t u32,
            uint64_t u64)
{
    return (int)((i8 + i16 + i32 + i64 + u8 + u16 + u32 + u64) & 0x7fff);
}

int al_mixed(int i, unsigned u, enum al_color color, double d, float f, bool b, const char *s, size_t n)
{
    return i + (int)u + (int)color + (int)d + (int)f + b + (s ? (int)strlen(s) : -1) + (int)n;
}

ssize_t al_write(int fd, const void *buf, size_t len)
{
    (void)fd;
    (void)buf;
    return len ? (ssize_t)len : -1;
}

double al_scale(double x, al_level level)
{
    return level == AL_HIGH ? x * 2 : x / 2;
}

double al_sum9(double a, double b, double c, double d, double e, double f, double g, double h, double i)
{
    return a + b + c + d + e + f + g + h + i;
}

const char *al_name(int i)
{
    return i == 0 ? "zero" : i == 1 ? "one" : NULL;
}

int al_len(const char *s, int read)
{
    return read && s ? (int)strlen(s) : -1;
}

long al_big(struct al_big big, long after)
{
    return big.v[0] + big.v[3] + after;
}

int al_small(struct al_small s, int after)
{
    return s.a + (int)s.b + after;
}

double al_pair(struct al_pair p, double d, int k)
{
    return p.x * p.y + d + k;
}

int al_vec(struct al_vec s, int after)
{
    return (int)(s.v[0] + s.v[1]) + after;
}

char *al_fill(char *out, size_t cap)
{
    if (cap)
        memset(out, 'f', cap - 1), out[cap - 1] = '\0';
    return out;
}

void al_void(long x)
{
    (void)x;
}

static jmp_buf al_jump;

int al_protect(int (*fn)(int), int x)
{
    int code = setjmp(al_jump);
    return code ? -code : fn(x);
}

void al_throw(int code)
{
    longjmp(al_jump, code ? code : 1);
}
