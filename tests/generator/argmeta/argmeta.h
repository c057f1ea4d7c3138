/*
 * argmeta.h - argument metadata of the inventory (docs/arguments.md,
 * generator/parse/argmeta.c): kind, width, size_t-ness and the x86-64 System V
 * location of each parameter and result, and its AAPCS64 location. Each
 * function carries its expectations:
 *   // ARG: SYMBOL NAME=KIND/WIDTH/LOCATION[/size][/zext] ... return=...
 *   // A64: SYMBOL NAME=LOCATION ... return=...
 * with every parameter and the result; LOCATION "-" when unknown (or, on
 * AArch64, for a value that cannot be recorded).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct big { long v[4]; };        /* 32 bytes: passed in memory */
struct small { int a; float b; }; /* 8 bytes, one eightbyte with an int: a general register */
enum level { LOW = 1u, HIGH = 4000000000u };
enum color { RED, GREEN };
enum sign { MINUS = -1, PLUS = 1 };
typedef size_t my_size;

// ARG: am_ints a=signed/1/rdi b=unsigned/2/rsi c=signed/4/rdx d=unsigned/8/rcx e=signed/8/r8 f=unsigned/4/r9 g=signed/4/stack+0 h=signed/8/stack+8 return=signed/4/rax
// A64: am_ints a=x0 b=x1 c=x2 d=x3 e=x4 f=x5 g=x6 h=x7 return=x0
int am_ints(int8_t a, uint16_t b, int32_t c, uint64_t d, long e, unsigned f, int g, long long h);

// ARG: am_mix a=signed/4/rdi b=double/8/xmm0 c=double/4/xmm1 d=unsigned/1/rsi return=double/8/xmm0
// A64: am_mix a=x0 b=v0 c=v1 d=x1 return=v0
double am_mix(int a, double b, float c, bool d);

// ARG: am_doubles a=double/8/xmm0 b=double/8/xmm1 c=double/8/xmm2 d=double/8/xmm3 e=double/8/xmm4 f=double/8/xmm5 g=double/8/xmm6 h=double/8/xmm7 i=double/8/stack+0 j=signed/4/rdi return=double/4/xmm0
// A64: am_doubles a=v0 b=v1 c=v2 d=v3 e=v4 f=v5 g=v6 h=v7 i=stack+0 j=x0 return=v0
float am_doubles(double a, double b, double c, double d, double e, double f, double g, double h, double i, int j);

// ARG: am_strings s=string/8/rdi t=none/8/- u=none/8/- v=string/8/rcx return=string/8/rax
// A64: am_strings s=x0 t=- u=- v=x3 return=x0
const char *am_strings(const char *s, char *t, const unsigned char *u, const char v[]);

// ARG: am_sizes n=unsigned/8/rdi/size m=signed/8/rsi/size k=unsigned/8/rdx/size l=unsigned/8/rcx return=signed/8/rax/size
// A64: am_sizes n=x0 m=x1 k=x2 l=x3 return=x0
ssize_t am_sizes(size_t n, ssize_t m, my_size k, unsigned long l);

// An enum without negative values has an unsigned underlying type too.
// ARG: am_enums a=enum/4/rdi/zext b=enum/4/rsi/zext return=enum/4/rax/zext
// A64: am_enums a=x0 b=x1 return=x0
enum color am_enums(enum level a, enum color b);

// ARG: am_sign s=enum/4/rdi return=enum/4/rax
// A64: am_sign s=x0 return=x0
enum sign am_sign(enum sign s);

// ARG: am_big s=none/32/- x=signed/4/rdi return=signed/4/rax
// A64: am_big s=- x=x1 return=x0
int am_big(struct big s, int x);

// ARG: am_big_stack a=signed/4/rdi b=signed/4/rsi c=signed/4/rdx d=signed/4/rcx e=signed/4/r8 f=signed/4/r9 s=none/32/- g=signed/8/stack+32 return=signed/4/rax
// A64: am_big_stack a=x0 b=x1 c=x2 d=x3 e=x4 f=x5 s=- g=x7 return=x0
int am_big_stack(int a, int b, int c, int d, int e, int f, struct big s, long g);

// ARG: am_small s=none/8/- x=signed/4/rsi return=signed/4/rax
// A64: am_small s=- x=x1 return=x0
int am_small(struct small s, int x);

// ARG: am_ret_big x=signed/4/rsi return=none/32/-
// A64: am_ret_big x=x0 return=-
struct big am_ret_big(int x);

// ARG: am_ret_small x=signed/4/rdi return=none/8/-
// A64: am_ret_small x=x0 return=-
struct small am_ret_small(int x);

// ARG: am_ld x=none/16/- y=signed/4/rdi z=double/8/xmm0 return=none/16/-
// A64: am_ld x=- y=x0 z=v1 return=-
long double am_ld(long double x, int y, double z);

// ARG: am_ld_stack a=signed/4/rdi b=signed/4/rsi c=signed/4/rdx d=signed/4/rcx e=signed/4/r8 f=signed/4/r9 x=none/16/- g=signed/4/stack+16 return=signed/4/rax
// A64: am_ld_stack a=x0 b=x1 c=x2 d=x3 e=x4 f=x5 x=- g=x6 return=x0
int am_ld_stack(int a, int b, int c, int d, int e, int f, long double x, int g);

// ARG: am_i128 a=none/16/- b=signed/4/rdx return=none/16/-
// A64: am_i128 a=- b=x2 return=-
__int128 am_i128(__int128 a, int b);

// ARG: am_complex z=none/8/- d=double/8/xmm1 w=none/16/- e=double/8/xmm4 return=none/16/-
// A64: am_complex z=- d=v2 w=- e=v5 return=-
double _Complex am_complex(float _Complex z, double d, double _Complex w, double e);

// ARG: am_fn cb=none/8/- p=none/8/- n=signed/4/rdx return=none/0/-
// A64: am_fn cb=- p=- n=x2 return=-
void am_fn(void (*cb)(int), void *p, int n);

// ARG: am_var fmt=string/8/rdi n=signed/4/rsi return=signed/4/rax
// A64: am_var fmt=x0 n=x1 return=x0
int am_var(const char *fmt, int n, ...);

/* Fortran ABI (name ends in '_'): CHARACTER arguments are char pointers
 * without a NUL, their lengths hidden trailing size_t arguments. */
// ARG: am_dgesdd_ jobz=fortran-char/8/rdi m=none/8/- info=none/8/- jobz_len=unsigned/8/rcx/size return=none/0/-
// A64: am_dgesdd_ jobz=x0 m=- info=- jobz_len=x3 return=-
void am_dgesdd_(const char *jobz, const int *m, int *info, size_t jobz_len);

// ARG: am_sfx_ uplo=fortran-char/8/rdi s=none/8/- return=none/0/-
// A64: am_sfx_ uplo=x0 s=- return=-
void am_sfx_(char *uplo, const char **s);

/* LAPACK's lsame_ as lapack.h declares it: its two lengths, then the
 * hidden ones (FORTRAN_STRLEN). */
// ARG: am_lsame_ ca=fortran-char/8/rdi cb=fortran-char/8/rsi lca=signed/4/rdx lcb=signed/4/rcx l1=unsigned/8/r8/size l2=unsigned/8/r9/size return=signed/4/rax
// A64: am_lsame_ ca=x0 cb=x1 lca=x2 lcb=x3 l1=x4 l2=x5 return=x0
int am_lsame_(const char *ca, const char *cb, int lca, int lcb, size_t l1, size_t l2);

/* C functions whose names end in '_' too: camel case (zlib's deflateInit_),
 * or integers passed by value before the end: their strings are C's. */
// ARG: am_deflateInit_ strm=none/8/- level=signed/4/rsi version=string/8/rdx stream_size=signed/4/rcx return=signed/4/rax
// A64: am_deflateInit_ strm=- level=x1 version=x2 stream_size=x3 return=x0
int am_deflateInit_(void *strm, int level, const char *version, int stream_size);
// ARG: am_open_ mode=signed/4/rdi path=string/8/rsi return=signed/4/rax
// A64: am_open_ mode=x0 path=x1 return=x0
int am_open_(int mode, const char *path);

/* AAPCS64's own cases: homogeneous floating-point aggregates in as many
 * v registers as members (on x86-64, their eightbytes in as many xmm
 * registers), one that no longer fits taking the stack, __int128 from an even
 * register, a small struct on the stack once x0-x7 are taken, a 16-byte
 * struct in two x registers, a union (not placed). */
struct hfa3 { float x, y, z; };
struct hfa_d2 { double a[2]; };
struct m16 { double d; long l; };
union fi { float f; int i; };

// ARG: am_a64_hfa h=none/12/- f=double/4/xmm2 d=none/16/- g=double/8/xmm5 i=signed/4/rdi return=signed/4/rax
// A64: am_a64_hfa h=- f=v3 d=- g=v6 i=x0 return=x0
int am_a64_hfa(struct hfa3 h, float f, struct hfa_d2 d, double g, int i);

// ARG: am_a64_hfa_stack a=none/16/- b=none/16/- c=none/16/- d=none/12/- e=double/8/stack+0 f=double/4/stack+8 return=double/8/xmm0
// A64: am_a64_hfa_stack a=- b=- c=- d=- e=stack+16 f=stack+24 return=v0
double am_a64_hfa_stack(struct hfa_d2 a, struct hfa_d2 b, struct hfa_d2 c, struct hfa3 d, double e, float f);

// ARG: am_a64_i128 a=signed/4/rdi b=none/16/- c=signed/4/rcx return=signed/4/rax
// A64: am_a64_i128 a=x0 b=- c=x4 return=x0
int am_a64_i128(int a, __int128 b, int c);

// ARG: am_a64_gprs a=signed/4/rdi b=signed/4/rsi c=signed/4/rdx d=signed/4/rcx e=signed/4/r8 f=signed/4/r9 g=signed/4/stack+0 h=signed/4/stack+8 s=none/8/- i=signed/4/stack+24 return=signed/4/rax
// A64: am_a64_gprs a=x0 b=x1 c=x2 d=x3 e=x4 f=x5 g=x6 h=x7 s=- i=stack+8 return=x0
int am_a64_gprs(int a, int b, int c, int d, int e, int f, int g, int h, struct small s, int i);

// ARG: am_a64_m16 s=none/16/- x=signed/4/rsi return=signed/4/rax
// A64: am_a64_m16 s=- x=x2 return=x0
int am_a64_m16(struct m16 s, int x);

// ARG: am_a64_union u=none/4/- x=signed/4/rsi return=signed/4/rax
// A64: am_a64_union u=- x=- return=x0
int am_a64_union(union fi u, int x);

/* x86-64's classes of small aggregates (System V 3.2.3): a long double
 * inside, or a field not aligned to its type, puts the value in memory; an
 * aggregate whose eightbytes no longer all fit in registers takes the
 * stack whole, and the registers left go to the next parameters. */
struct ldw { long double x; };
struct __attribute__((packed)) pk { char c; int i; };
struct two { long x, y; };
struct mixed { float f; double d; };

// ARG: am_ldw s=none/16/- x=signed/4/rdi return=signed/4/rax
// A64: am_ldw s=- x=x0 return=x0
int am_ldw(struct ldw s, int x);

// ARG: am_packed s=none/5/- x=signed/4/rdi return=signed/4/rax
// A64: am_packed s=- x=x1 return=x0
int am_packed(struct pk s, int x);

// ARG: am_split a=signed/4/rdi b=signed/4/rsi c=signed/4/rdx d=signed/4/rcx e=signed/4/r8 s=none/16/- g=signed/4/r9 h=signed/4/stack+16 return=signed/4/rax
// A64: am_split a=x0 b=x1 c=x2 d=x3 e=x4 s=- g=x7 h=stack+0 return=x0
int am_split(int a, int b, int c, int d, int e, struct two s, int g, int h);

// ARG: am_mixed s=none/16/- x=double/8/xmm2 i=signed/4/rdi return=signed/4/rax
// A64: am_mixed s=- x=v0 i=x2 return=x0
int am_mixed(struct mixed s, double x, int i);

/* A struct of one long double comes back in %st0 (X87, X87UP): no hidden
 * pointer, the parameters from %rdi. A _Float128 on the stack takes 16
 * bytes, aligned to 16. */
struct ldr { long double ld; };

// ARG: am_ret_ldr a=signed/4/rdi b=double/8/xmm0 return=none/16/-
// A64: am_ret_ldr a=x0 b=v0 return=-
struct ldr am_ret_ldr(int a, double b);

// ARG: am_q a=double/8/xmm0 b=double/8/xmm1 c=double/8/xmm2 d=double/8/xmm3 e=double/8/xmm4 f=double/8/xmm5 g=double/8/xmm6 h=double/8/xmm7 q=none/16/- x=double/8/stack+16 return=signed/4/rax
// A64: am_q a=v0 b=v1 c=v2 d=v3 e=v4 f=v5 g=v6 h=v7 q=- x=stack+16 return=x0
int am_q(double a, double b, double c, double d, double e, double f, double g, double h, _Float128 q, double x);

/* AAPCS64's short vectors (NEON's float32x4_t, int32x2_t: 8 or 16 bytes)
 * in one v register each, whatever their elements, and homogeneous
 * short-vector aggregates (HVAs) of up to four of one size in as many (the
 * vectors spelled here as GNU vectors, which x86-64's libclang has too;
 * tests/aarch64/neon.sh has arm_neon.h's). Five, or vectors of two sizes,
 * make a composite passed by reference; a vector of another size is not
 * placed, nor anything after it. Half-precision HFAs as others. */
typedef float am_v4f __attribute__((vector_size(16)));
typedef int am_v2i __attribute__((vector_size(8)));
typedef double am_v4d __attribute__((vector_size(32)));
struct hva4 { am_v4f a, b, c, d; };
struct hva2i { am_v2i v[2]; };
struct hva5 { am_v4f v[5]; };
struct hva_sizes { am_v4f a; am_v2i b; };
struct hfa_h3 { __fp16 a, b, c; };

// ARG: am_a64_hva v=none/16/- w=none/16/- n=signed/4/rdi q=none/64/- d=double/8/xmm2 return=double/4/xmm0
// A64: am_a64_hva v=- w=- n=x0 q=- d=v6 return=v0
float am_a64_hva(am_v4f v, am_v4f w, int n, struct hva4 q, double d);

// ARG: am_a64_hva_stack a=none/64/- b=none/64/- f=double/4/xmm0 v=none/8/- g=double/8/xmm2 n=signed/4/rdi return=signed/4/rax
// A64: am_a64_hva_stack a=- b=- f=stack+0 v=- g=stack+16 n=x0 return=x0
int am_a64_hva_stack(struct hva4 a, struct hva4 b, float f, am_v2i v, double g, int n);

// ARG: am_a64_hva_ref f=none/80/- s=none/32/- h=none/16/- n=signed/4/- d=double/8/- return=signed/4/rax
// A64: am_a64_hva_ref f=- s=- h=- n=x2 d=v2 return=x0
int am_a64_hva_ref(struct hva5 f, struct hva_sizes s, struct hva2i h, int n, double d);

// ARG: am_a64_hfa_half h=none/6/- n=signed/4/rdi f=double/4/xmm1 return=signed/4/rax
// A64: am_a64_hfa_half h=- n=x0 f=v3 return=x0
int am_a64_hfa_half(struct hfa_h3 h, int n, float f);

// ARG: am_a64_wide w=none/32/- n=signed/4/- return=signed/4/rax
// A64: am_a64_wide w=- n=- return=x0
int am_a64_wide(am_v4d w, int n);
