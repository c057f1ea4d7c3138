/* abi.h - a library whose calls only an exact forwarder keeps intact
 * (tests/abi/abi.sh). */
#ifndef ABI_H
#define ABI_H

#include <setjmp.h>
#include <stdint.h>

typedef struct abi_pair {
    uint64_t lo, hi;
} abi_pair;

/* Assembly (abi_pat.S), the GMP pattern: abi_pat_outer sets %rdx and
 * tail-jumps through the PLT to abi_pat_inner, which leaves %rdx alone;
 * abi_pat_outer's result is %rax:%rdx. */
abi_pair abi_pat_outer(uint64_t x, uint64_t hi);
uint64_t abi_pat_inner(uint64_t x);

__int128 abi_i128(__int128 a, __int128 b, int k);
long double abi_ld(long double a, int k, long double b);

/* More arguments than registers, of both classes. */
double abi_stack(long a, long b, long c, long d, long e, long f, long g, long h, double x0,
                 double x1, double x2, double x3, double x4, double x5, double x6, double x7,
                 double x8, double x9, long i, const char *s);

/* Variadic without a va_list twin: `kinds` says what follows
 * (i int, l long, d double, L long double, s string). */
double abi_mix(const char *kinds, ...);

/* Calls cb(x); a callback that calls abi_twice re-enters the library. */
int abi_apply(int (*cb)(int), int x);
int abi_twice(int x);

/* Leaves through longjmp. */
void abi_jump(jmp_buf env, int v) __attribute__((noreturn));
/* Calls f(), which may longjmp out past this frame. */
int abi_guard(void (*f)(void));

/* Sets errno to e, returns -1. */
int abi_fail(int e);

#if defined(__AVX__)
/* __m256d's layout, passed in %ymm registers (a vector type of the
 * compilers, so that no intrinsics header needs parsing). */
typedef double abi_v4d __attribute__((vector_size(32)));
abi_v4d abi_m256(abi_v4d a, abi_v4d b, double s);
#endif

#endif
