/*
 * neon.h - argument metadata of AArch64 functions with gcc's AdvSIMD (NEON)
 * types (argmeta.sh neon: preprocessed by aarch64-linux-gnu-gcc, generated
 * with --target aarch64-linux-gnu), in argmeta.h's notation. gcc makes
 * these types itself (__Float32x4_t, and from gcc 12 the tuples
 * float32x4x2_t at `#pragma GCC aarch64 "arm_neon.h"`); libwrap-gen's
 * stand-ins (parse/gcc_spelling.c) are short vectors of the same size, in
 * one v register each (AAPCS64), never recordable; aggregates of up to four
 * of one size (HVAs) take as many v registers, and the parameters after
 * them are placed. No x86-64 location: the target is AArch64.
 */
#include <arm_neon.h>

struct nq_quad { float32x4_t v[4]; };                          /* an HVA of 4 */
struct nq_mix { float32x4_t v; int32x4_t w; uint8x16_t x; };   /* of 3: the elements do not count */
struct nq_five { float32x4_t v[5]; };                          /* 80 bytes: by reference */
struct nq_sizes { float32x4_t a; float32x2_t b; };             /* two sizes: by reference */

// ARG: neo_dot a=none/16/- b=none/16/- n=signed/4/- return=double/4/-
// A64: neo_dot a=- b=- n=x0 return=v0
float neo_dot(float32x4_t a, float32x4_t b, int n);

// ARG: neo_hva q=none/64/- n=signed/4/- c=none/16/- d=double/8/- return=signed/4/-
// A64: neo_hva q=- n=x0 c=- d=v5 return=x0
int neo_hva(struct nq_quad q, int n, float32x4_t c, double d);

// ARG: neo_tuples t=none/64/- u=none/32/- n=signed/4/- d=double/8/- return=signed/4/-
// A64: neo_tuples t=- u=- n=x0 d=v6 return=x0
int neo_tuples(float32x4x4_t t, float64x2x2_t u, int n, double d);

// ARG: neo_hva_stack a=none/64/- b=none/64/- f=double/4/- g=none/48/- n=signed/4/- e=double/8/- return=signed/4/-
// A64: neo_hva_stack a=- b=- f=stack+0 g=- n=x0 e=stack+64 return=x0
int neo_hva_stack(struct nq_quad a, float32x4x4_t b, float f, int32x4x3_t g, int n, double e);

// ARG: neo_mix q=none/48/- a=none/8/- p=none/8/- b=none/8/- h=none/16/- n=signed/4/- d=double/8/- return=signed/4/-
// A64: neo_mix q=- a=- p=- b=- h=- n=x0 d=v7 return=x0
int neo_mix(struct nq_mix q, float32x2_t a, poly8x8_t p, bfloat16x4_t b, float16x8_t h, int n, double d);

// ARG: neo_ref f=none/80/- s=none/32/- n=signed/4/- return=signed/4/-
// A64: neo_ref f=- s=- n=x2 return=x0
int neo_ref(struct nq_five f, struct nq_sizes s, int n);

// ARG: neo_scalars p=unsigned/1/- q=unsigned/2/- r=unsigned/8/- h=none/2/- b=none/2/- w=none/16/- n=signed/4/- d=double/8/- return=none/16/-
// A64: neo_scalars p=x0 q=x1 r=x2 h=- b=- w=- n=x6 d=v2 return=-
int64x2_t neo_scalars(poly8_t p, poly16_t q, poly64_t r, float16_t h, bfloat16_t b, poly128_t w, int n, double d);

// ARG: neo_pairs a=none/16/- b=none/24/- c=none/32/- n=signed/4/- return=none/16/-
// A64: neo_pairs a=- b=- c=- n=x0 return=-
uint8x8x2_t neo_pairs(int8x8x2_t a, poly16x4x3_t b, int64x1x4_t c, int n);
