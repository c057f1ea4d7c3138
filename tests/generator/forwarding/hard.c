/*
 * hard.c - the test library behind hard.h. Every function prints its
 * arguments bit-exactly (integers in hex, floating point with %a/%La) and
 * returns a value derived from all of them, so that any argument or result
 * a wrapper damages shows in the output.
 */
#include "hard.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void hex128(const char *what, unsigned __int128 v)
{
    printf(" %s=%#llx:%016llx", what, (unsigned long long)(v >> 64), (unsigned long long)v);
}

int8_t hard_i8(int8_t a, uint8_t b)
{
    printf("hard_i8 %#x %#x\n", (uint8_t)a, b);
    return (int8_t)(a ^ (int8_t)b);
}

int16_t hard_i16(int16_t a, uint16_t b)
{
    printf("hard_i16 %#x %#x\n", (uint16_t)a, b);
    return (int16_t)(a - (int16_t)b);
}

int32_t hard_i32(int32_t a, uint32_t b)
{
    printf("hard_i32 %#x %#x\n", (uint32_t)a, b);
    return a ^ (int32_t)b;
}

int64_t hard_i64(int64_t a, uint64_t b)
{
    printf("hard_i64 %#llx %#llx\n", (unsigned long long)a, (unsigned long long)b);
    return a + (int64_t)(b >> 1);
}

char hard_char(char a, signed char b, unsigned char c)
{
    printf("hard_char %#x %#x %#x\n", (unsigned char)a, (unsigned char)b, c);
    return (char)(a + b + c);
}

unsigned short hard_short(short a, unsigned short b)
{
    printf("hard_short %#x %#x\n", (unsigned short)a, b);
    return (unsigned short)(a * 3 + b);
}

long hard_long(long a, unsigned long b)
{
    printf("hard_long %#lx %#lx\n", (unsigned long)a, b);
    return a - (long)b;
}

unsigned long long hard_llong(long long a, unsigned long long b)
{
    printf("hard_llong %#llx %#llx\n", (unsigned long long)a, b);
    return (unsigned long long)a * 7 + b;
}

ptrdiff_t hard_size(size_t a, ptrdiff_t b)
{
    printf("hard_size %#zx %#tx\n", a, (size_t)b);
    return (ptrdiff_t)a + b;
}

_Bool hard_bool(_Bool a, bool b, int c)
{
    printf("hard_bool %d %d %d\n", a, b, c);
    return a != b;
}

__int128 hard_i128(__int128 a, unsigned __int128 b)
{
    printf("hard_i128");
    hex128("a", (unsigned __int128)a);
    hex128("b", b);
    printf("\n");
    return a * 3 - (__int128)b;
}

float hard_float(float a, float b)
{
    printf("hard_float %a %a\n", a, b);
    return a * b;
}

double hard_double(double a)
{
    printf("hard_double %a\n", a);
    return a / 3;
}

long double hard_ldouble(long double a, long double b)
{
    printf("hard_ldouble %La %La\n", a, b);
    return a / b;
}

float _Complex hard_cfloat(float _Complex a)
{
    printf("hard_cfloat %a %a\n", __real__ a, __imag__ a);
    return a * a;
}

double _Complex hard_cdouble(double _Complex a, double _Complex b)
{
    printf("hard_cdouble %a %a %a %a\n", __real__ a, __imag__ a, __real__ b, __imag__ b);
    return a + b * 2;
}

long double _Complex hard_cldouble(long double _Complex a)
{
    printf("hard_cldouble %La %La\n", __real__ a, __imag__ a);
    return a * 2;
}

static void print_large(const char *what, const struct hard_large *l)
{
    printf(" %s={", what);
    for (int i = 0; i < 8; i++)
        printf("%#lx,", (unsigned long)l->v[i]);
    printf("%a,%.13s}", l->d, l->tag);
}

struct hard_small hard_small_pass(struct hard_small a, int k)
{
    printf("hard_small_pass %#x %#x %#x %d\n", (unsigned char)a.c, (unsigned short)a.s,
           (unsigned)a.i, k);
    a.c += 1;
    a.s = (short)(a.s * k);
    a.i ^= k;
    return a;
}

struct hard_large hard_large_pass(struct hard_large a, struct hard_large b)
{
    printf("hard_large_pass");
    print_large("a", &a);
    print_large("b", &b);
    printf("\n");
    for (int i = 0; i < 8; i++)
        a.v[i] += b.v[7 - i];
    a.d -= b.d;
    memcpy(a.tag, b.tag, 6);
    return a;
}

union hard_union hard_union_pass(union hard_union u)
{
    printf("hard_union_pass %#llx\n", (unsigned long long)u.u);
    u.u = ~u.u;
    return u;
}

union hard_bigunion hard_bigunion_pass(union hard_bigunion u)
{
    printf("hard_bigunion_pass");
    for (int i = 0; i < 40; i++)
        printf(" %02x", (unsigned char)u.bytes[i]);
    printf("\n");
    for (int i = 0; i < 40; i++)
        u.bytes[i] = (char)(u.bytes[i] + i);
    return u;
}

hard_vec2 hard_vec2_add(hard_vec2 a, hard_vec2 b)
{
    printf("hard_vec2_add %a %a %a %a\n", a.x, a.y, b.x, b.y);
    return (hard_vec2){a.x + b.x, a.y - b.y};
}

hard_mixed hard_mixed_pass(hard_mixed m, float f)
{
    printf("hard_mixed_pass %a %#lx %a\n", m.re, (unsigned long)m.im, f);
    return (hard_mixed){m.re * f, m.im + 1};
}

struct hard_aligned hard_aligned_pass(struct hard_aligned a)
{
    printf("hard_aligned_pass %a %a %a %a\n", a.d[0], a.d[1], a.d[2], a.d[3]);
    struct hard_aligned r = {{a.d[3], a.d[2], a.d[1], a.d[0]}};
    return r;
}

struct hard_bits hard_bits_pass(const struct hard_bits b)
{
    printf("hard_bits_pass %#x %#x %d\n", b.a, b.b, b.c);
    struct hard_bits r = {b.a ^ 5u, b.b + 1u, -b.c};
    return r;
}

struct hard_f3 hard_f3_pass(struct hard_f3 f, double scale)
{
    printf("hard_f3_pass %a %a %a %a\n", f.x, f.y, f.z, scale);
    return (struct hard_f3){f.z, (float)(f.y * scale), f.x};
}

struct hard_ld hard_ld_pass(struct hard_ld a, struct hard_ld b)
{
    printf("hard_ld_pass %La %La\n", a.v, b.v);
    return (struct hard_ld){a.v - b.v};
}

enum hard_color hard_enum(enum hard_color c, hard_small_enum s)
{
    printf("hard_enum %d %d\n", (int)c, (int)s);
    return s == HARD_SMALL_A ? HARD_BLUE : HARD_RED;
}

int hard_array(int a[4], const int b[static 2])
{
    printf("hard_array %d %d %d %d %d %d\n", a[0], a[1], a[2], a[3], b[0], b[1]);
    a[0] = b[1];
    return a[3] - b[0];
}

int hard_ptr_array(int (*m)[3], size_t rows)
{
    int sum = 0;
    printf("hard_ptr_array %zu:", rows);
    for (size_t r = 0; r < rows; r++)
        for (int c = 0; c < 3; c++) {
            printf(" %d", m[r][c]);
            sum += m[r][c] * (c + 1);
        }
    printf("\n");
    return sum;
}

double hard_vla(size_t n, size_t m, double a[n][m])
{
    double sum = 0;
    printf("hard_vla %zu %zu:", n, m);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < m; j++) {
            printf(" %a", a[i][j]);
            sum += a[i][j] * (double)(i + 1);
        }
    printf("\n");
    return sum;
}

void hard_fill(size_t n, int out[n])
{
    printf("hard_fill %zu\n", n);
    for (size_t i = 0; i < n; i++)
        out[i] = (int)(i * i) - 5;
}

int hard_matrix(int m[][5], int rows)
{
    int acc = 1;
    printf("hard_matrix %d:", rows);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < 5; c++) {
            printf(" %d", m[r][c]);
            acc = acc * 31 + m[r][c];
        }
    printf("\n");
    return acc;
}

int hard_apply(int (*f)(int), int x)
{
    printf("hard_apply %d\n", x);
    return f(f(x));
}

int hard_apply_nested(int (*outer)(int (*inner)(int), int), int (*inner)(int), int x)
{
    printf("hard_apply_nested %d\n", x);
    return outer(inner, x) + 1;
}

int hard_sort_first(int *v, size_t n, hard_cmp cmp)
{
    printf("hard_sort_first %zu\n", n);
    qsort(v, n, sizeof *v, cmp);
    return v[0];
}

static int op_add(int a, int b)
{
    return a + b;
}

static int op_sub(int a, int b)
{
    return a - b;
}

static int op_mul(int a, int b)
{
    return a * b;
}

int (*hard_get_op(char which))(int, int)
{
    printf("hard_get_op %c\n", which);
    return which == '+' ? op_add : which == '-' ? op_sub : op_mul;
}

static void (*saved_handler)(int);

void (*hard_handler(int sig, void (*h)(int)))(int)
{
    printf("hard_handler %d\n", sig);
    void (*old)(int) = saved_handler;
    saved_handler = h;
    if (h)
        h(sig);
    return old;
}

hard_binop *hard_pick(int which)
{
    printf("hard_pick %d\n", which);
    return which ? op_mul : op_add;
}

int hard_call_binop(hard_binop *op, int a, int b)
{
    printf("hard_call_binop %d %d\n", a, b);
    return op(a, b);
}

static int row[4] = {4, 3, 2, 1};
static int other[4] = {-1, -2, -3, -4};

static int (*weird_row(int i))[4]
{
    return i ? &other : &row;
}

int (*(*hard_weird(int which))(int))[4]
{
    printf("hard_weird %d\n", which);
    return weird_row;
}

size_t hard_copy(char *restrict dst, const char *restrict src, size_t n)
{
    printf("hard_copy %.*s %zu\n", (int)n, src, n);
    memcpy(dst, src, n);
    dst[n] = '\0';
    return n * 2;
}

long hard_volatile(volatile int *p, const volatile long *q)
{
    printf("hard_volatile %d %ld\n", *p, *q);
    *p += 1;
    return *q * 2;
}

const char *hard_const_ret(const char *const *names, int i)
{
    printf("hard_const_ret %s %d\n", names[0], i);
    return names[i];
}

int hard_argv(int argc, char *const argv[])
{
    printf("hard_argv %d", argc);
    for (int i = 0; i < argc; i++)
        printf(" %s", argv[i]);
    printf("\n");
    return argc * 10;
}

int hard_unnamed(int a, double b, const char *c)
{
    printf("hard_unnamed %d %a %s\n", a, b, c);
    return a + (int)strlen(c);
}

double hard_many(int a, double b, long c, float d, char e, long double f, short g, double h,
                 int i, float j, long k, double l, unsigned m, double n, long long o, float p,
                 int q, double r)
{
    printf("hard_many %d %a %ld %a %d %La %d %a %d %a %ld %a %u %a %lld %a %d %a\n", a, b, c, d,
           e, f, g, h, i, j, k, l, m, n, o, p, q, r);
    return a + b + (double)c + d + e + (double)f + g + h + i + j + (double)k + l + m + n +
           (double)o + p + q + r;
}

struct hard_large hard_many_struct(int a, struct hard_small s, double b, struct hard_large l,
                                   float c, __int128 d, long double e, int f, int g, int h,
                                   hard_vec2 v, int i)
{
    printf("hard_many_struct %d {%#x %#x %#x} %a", a, (unsigned char)s.c, (unsigned short)s.s,
           (unsigned)s.i, b);
    print_large("l", &l);
    printf(" %a", c);
    hex128("d", (unsigned __int128)d);
    printf(" %La %d %d %d {%a %a} %d\n", e, f, g, h, v.x, v.y, i);
    l.v[0] = a + f + g + h + i;
    l.v[1] = (long)d;
    l.d = b * c + v.x;
    return l;
}

int hard_fail(int code)
{
    printf("hard_fail %d\n", code);
    errno = code;
    return -1;
}

double hard_fail_double(double x)
{
    printf("hard_fail_double %a\n", x);
    errno = ERANGE;
    return x * 1e300;
}

void hard_set_errno(int e)
{
    printf("hard_set_errno %d\n", e);
    errno = e;
}

int hard_vsum(int n, va_list ap)
{
    int sum = 0;
    printf("hard_vsum %d:", n);
    for (int i = 0; i < n; i++) {
        int v = va_arg(ap, int);
        printf(" %d", v);
        sum += v * (i + 1);
    }
    printf("\n");
    return sum;
}

int hard_sum(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    int sum = hard_vsum(n, ap);
    va_end(ap);
    return sum;
}

int hard_vformat(char *buf, size_t len, const char *fmt, va_list ap)
{
    int n = vsnprintf(buf, len, fmt, ap);
    printf("hard_vformat %s\n", buf);
    return n;
}

int hard_format(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = hard_vformat(buf, len, fmt, ap);
    va_end(ap);
    return n;
}

int hard_old(int x)
{
    printf("hard_old %d\n", x);
    return -x;
}

int hard_labelled(int x)
{
    printf("hard_labelled %d\n", x);
    return x + 2;
}

void hard_void(void)
{
    printf("hard_void\n");
}

int hard_counter(void)
{
    static int count;
    printf("hard_counter\n");
    return ++count;
}

struct hard_opaque {
    char name[32];
};

struct hard_opaque *hard_open(const char *name)
{
    printf("hard_open %s\n", name);
    struct hard_opaque *o = calloc(1, sizeof *o);
    if (o)
        snprintf(o->name, sizeof o->name, "%s", name);
    return o;
}

int hard_close(struct hard_opaque *o)
{
    printf("hard_close %s\n", o->name);
    free(o);
    return 0;
}

void hard_exit(int code)
{
    printf("hard_exit %d\n", code);
    exit(code);
}
