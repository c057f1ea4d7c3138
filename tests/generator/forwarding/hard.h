/*
 * hard.h - a library interface made of the cases that are hard to forward:
 * every integer width, floating and complex types, structs and unions by
 * value, arrays and VLAs, function pointers in and out, qualifiers, unnamed
 * parameters, noreturn, stack-passed arguments, errno, variadics with va_list
 * twins, deprecation and asm labels. hard.c implements it and prints every
 * argument bit-exactly; driver.c calls everything.
 */
#ifndef HARD_H
#define HARD_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* integers of every width */
int8_t hard_i8(int8_t a, uint8_t b);
int16_t hard_i16(int16_t a, uint16_t b);
int32_t hard_i32(int32_t a, uint32_t b);
int64_t hard_i64(int64_t a, uint64_t b);
char hard_char(char a, signed char b, unsigned char c);
unsigned short hard_short(short a, unsigned short b);
long hard_long(long a, unsigned long b);
unsigned long long hard_llong(long long a, unsigned long long b);
ptrdiff_t hard_size(size_t a, ptrdiff_t b);
_Bool hard_bool(_Bool a, bool b, int c);
__int128 hard_i128(__int128 a, unsigned __int128 b);

/* floating point and complex */
float hard_float(float a, float b);
double hard_double(double a);
long double hard_ldouble(long double a, long double b);
float _Complex hard_cfloat(float _Complex a);
double _Complex hard_cdouble(double _Complex a, double _Complex b);
long double _Complex hard_cldouble(long double _Complex a);

/* structs and unions by value */
struct hard_small {
    char c;
    short s;
    int i;
};
struct hard_large {
    long v[8];
    double d;
    char tag[13];
};
union hard_union {
    double d;
    uint64_t u;
    char bytes[8];
};
union hard_bigunion {
    long double ld;
    char bytes[40];
};
typedef struct {
    float x, y;
} hard_vec2;
typedef struct {
    double re;
    long im;
} hard_mixed;
struct hard_aligned {
    _Alignas(32) double d[4];
};
struct hard_small hard_small_pass(struct hard_small a, int k);
struct hard_large hard_large_pass(struct hard_large a, struct hard_large b);
union hard_union hard_union_pass(union hard_union u);
union hard_bigunion hard_bigunion_pass(union hard_bigunion u);
hard_vec2 hard_vec2_add(hard_vec2 a, hard_vec2 b);
hard_mixed hard_mixed_pass(hard_mixed m, float f);
struct hard_aligned hard_aligned_pass(struct hard_aligned a);
struct hard_bits {
    unsigned a : 3, b : 13;
    int c : 7;
};
struct hard_f3 {
    float x, y, z;
};
struct hard_ld {
    long double v;
};
struct hard_bits hard_bits_pass(const struct hard_bits b);
struct hard_f3 hard_f3_pass(struct hard_f3 f, double scale);
struct hard_ld hard_ld_pass(struct hard_ld a, struct hard_ld b);

/* enums */
enum hard_color { HARD_RED = -3, HARD_GREEN = 7, HARD_BLUE = 0x7fffffff };
typedef enum { HARD_SMALL_A = 1, HARD_SMALL_B = 2 } hard_small_enum;
enum hard_color hard_enum(enum hard_color c, hard_small_enum s);

/* arrays, pointers to arrays, variable-length arrays */
int hard_array(int a[4], const int b[static 2]);
int hard_ptr_array(int (*m)[3], size_t rows);
double hard_vla(size_t n, size_t m, double a[n][m]);
void hard_fill(size_t n, int out[n]);
int hard_matrix(int m[][5], int rows);

/* function pointers, in and out */
typedef int (*hard_cmp)(const void *, const void *);
typedef int hard_binop(int, int);
int hard_apply(int (*f)(int), int x);
int hard_apply_nested(int (*outer)(int (*inner)(int), int), int (*inner)(int), int x);
int hard_sort_first(int *v, size_t n, hard_cmp cmp);
int (*hard_get_op(char which))(int, int);
void (*hard_handler(int sig, void (*h)(int)))(int);
hard_binop *hard_pick(int which);
int hard_call_binop(hard_binop *op, int a, int b);
/* a function returning a pointer to a function returning a pointer to an array */
int (*(*hard_weird(int which))(int))[4];

/* qualifiers */
size_t hard_copy(char *restrict dst, const char *restrict src, size_t n);
long hard_volatile(volatile int *p, const volatile long *q);
const char *hard_const_ret(const char *const *names, int i);
int hard_argv(int argc, char *const argv[]);

/* unnamed parameters */
int hard_unnamed(int, double, const char *);

/* many mixed parameters: the later ones are passed on the stack */
double hard_many(int a, double b, long c, float d, char e, long double f, short g, double h,
                 int i, float j, long k, double l, unsigned m, double n, long long o, float p,
                 int q, double r);
struct hard_large hard_many_struct(int a, struct hard_small s, double b, struct hard_large l,
                                   float c, __int128 d, long double e, int f, int g, int h,
                                   hard_vec2 v, int i);

/* errno set by the library */
int hard_fail(int code);
double hard_fail_double(double x);
void hard_set_errno(int e);

/* variadic functions and their va_list twins */
int hard_vsum(int n, va_list ap);
int hard_sum(int n, ...);
int hard_vformat(char *buf, size_t len, const char *fmt, va_list ap);
int hard_format(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* deprecated, asm-labelled, no parameters, opaque pointers */
int hard_old(int x) __attribute__((deprecated("use hard_i32")));
int hard_labelled(int x) __asm__("hard_labelled_v2");
void hard_void(void);
int hard_counter(void);
struct hard_opaque;
struct hard_opaque *hard_open(const char *name);
int hard_close(struct hard_opaque *o);

/* noreturn: the driver calls it last */
_Noreturn void hard_exit(int code);

#ifdef HARD_WITH_MISSING
/* declared, never defined: the symbol check leaves it out as MISSING */
int hard_missing(int x);
#endif

#endif /* HARD_H */
