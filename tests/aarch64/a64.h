/* a64.h - AArch64's own calling-convention cases for the ABI trampoline
 * (tests/aarch64/abi.sh), beside tests/abi/abi.h's. */
#ifndef A64_H
#define A64_H

#include <stdint.h>

typedef struct a64_pair {
    uint64_t lo, hi;
} a64_pair;

/* Assembly (abi_pat.S): reads the caller's x9-x15, leaves x9-x15, x1 and
 * v16 set (a64_regs_probe in the driver checks them). */
a64_pair a64_regs_callee(uint64_t seed);

/* Homogeneous floating-point and short-vector aggregates: in v0-v7. */
typedef struct a64_hfa4 {
    double a, b, c, d;
} a64_hfa4;
typedef struct a64_hfa3f {
    float x, y, z;
} a64_hfa3f;
typedef float a64_f32x4 __attribute__((vector_size(16)));
typedef struct a64_hva2 {
    a64_f32x4 u, v;
} a64_hva2;
a64_hfa4 a64_hfa(a64_hfa4 p, a64_hfa3f q, double s);
a64_hva2 a64_hva(a64_hva2 p, a64_hva2 q);
/* Two HFA4s fill v0-v7: the third goes on the stack. */
double a64_hfa_stack(a64_hfa4 a, a64_hfa4 b, a64_hfa4 c, float f);

/* Larger than 16 bytes: returned through the address in x8. */
typedef struct a64_big {
    int64_t v[6];
    char tag[16];
} a64_big;
a64_big a64_big_make(int64_t seed, const char *tag);

/* __int128 in an even register pair, then on the stack (16-byte aligned),
 * with long double (128-bit here) in q registers and on the stack. */
__int128 a64_i128_stack(int a, __int128 b, int c, int d, int e, int f, int g, __int128 h,
                        long double x, long double y);

/* Variadic (Linux AAPCS64: anonymous arguments as named ones; HFAs and
 * long double included). */
double a64_vmix(int n, ...);

#endif
