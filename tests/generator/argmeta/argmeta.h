/*
 * argmeta.h - argument metadata of the inventory (docs/arguments.md,
 * generator/parse/argmeta.c): kind, width, size_t-ness and the x86-64 System V
 * location of each parameter and result. Each function carries its
 * expectation:
 *   // ARG: SYMBOL NAME=KIND/WIDTH/LOCATION[/size][/zext] ... return=...
 * with every parameter and the result; LOCATION "-" when unknown.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct big { long v[4]; };        /* 32 bytes: passed in memory */
struct small { int a; float b; }; /* 8 bytes: split between register files */
enum level { LOW = 1u, HIGH = 4000000000u };
enum color { RED, GREEN };
enum sign { MINUS = -1, PLUS = 1 };
typedef size_t my_size;

// ARG: am_ints a=signed/1/rdi b=unsigned/2/rsi c=signed/4/rdx d=unsigned/8/rcx e=signed/8/r8 f=unsigned/4/r9 g=signed/4/stack+0 h=signed/8/stack+8 return=signed/4/rax
int am_ints(int8_t a, uint16_t b, int32_t c, uint64_t d, long e, unsigned f, int g, long long h);

// ARG: am_mix a=signed/4/rdi b=double/8/xmm0 c=double/4/xmm1 d=unsigned/1/rsi return=double/8/xmm0
double am_mix(int a, double b, float c, bool d);

// ARG: am_doubles a=double/8/xmm0 b=double/8/xmm1 c=double/8/xmm2 d=double/8/xmm3 e=double/8/xmm4 f=double/8/xmm5 g=double/8/xmm6 h=double/8/xmm7 i=double/8/stack+0 j=signed/4/rdi return=double/4/xmm0
float am_doubles(double a, double b, double c, double d, double e, double f, double g, double h, double i, int j);

// ARG: am_strings s=string/8/rdi t=none/8/- u=none/8/- v=string/8/rcx return=string/8/rax
const char *am_strings(const char *s, char *t, const unsigned char *u, const char v[]);

// ARG: am_sizes n=unsigned/8/rdi/size m=signed/8/rsi/size k=unsigned/8/rdx/size l=unsigned/8/rcx return=signed/8/rax/size
ssize_t am_sizes(size_t n, ssize_t m, my_size k, unsigned long l);

// An enum without negative values has an unsigned underlying type too.
// ARG: am_enums a=enum/4/rdi/zext b=enum/4/rsi/zext return=enum/4/rax/zext
enum color am_enums(enum level a, enum color b);

// ARG: am_sign s=enum/4/rdi return=enum/4/rax
enum sign am_sign(enum sign s);

// ARG: am_big s=none/32/- x=signed/4/rdi return=signed/4/rax
int am_big(struct big s, int x);

// ARG: am_big_stack a=signed/4/rdi b=signed/4/rsi c=signed/4/rdx d=signed/4/rcx e=signed/4/r8 f=signed/4/r9 s=none/32/- g=signed/8/stack+32 return=signed/4/rax
int am_big_stack(int a, int b, int c, int d, int e, int f, struct big s, long g);

// ARG: am_small s=none/8/- x=signed/4/- return=signed/4/rax
int am_small(struct small s, int x);

// ARG: am_ret_big x=signed/4/rsi return=none/32/-
struct big am_ret_big(int x);

// ARG: am_ret_small x=signed/4/rdi return=none/8/-
struct small am_ret_small(int x);

// ARG: am_ld x=none/16/- y=signed/4/rdi z=double/8/xmm0 return=none/16/-
long double am_ld(long double x, int y, double z);

// ARG: am_ld_stack a=signed/4/rdi b=signed/4/rsi c=signed/4/rdx d=signed/4/rcx e=signed/4/r8 f=signed/4/r9 x=none/16/- g=signed/4/stack+16 return=signed/4/rax
int am_ld_stack(int a, int b, int c, int d, int e, int f, long double x, int g);

// ARG: am_i128 a=none/16/- b=signed/4/rdx return=none/16/-
__int128 am_i128(__int128 a, int b);

// ARG: am_complex z=none/8/- d=double/8/xmm1 w=none/16/- e=double/8/xmm4 return=none/16/-
double _Complex am_complex(float _Complex z, double d, double _Complex w, double e);

// ARG: am_fn cb=none/8/- p=none/8/- n=signed/4/rdx return=none/0/-
void am_fn(void (*cb)(int), void *p, int n);

// ARG: am_var fmt=string/8/rdi n=signed/4/rsi return=signed/4/rax
int am_var(const char *fmt, int n, ...);

/* Fortran ABI (name ends in '_'): CHARACTER arguments are char pointers
 * without a NUL, their lengths hidden trailing size_t arguments. */
// ARG: am_dgesdd_ jobz=fortran-char/8/rdi m=none/8/- info=none/8/- jobz_len=unsigned/8/rcx/size return=none/0/-
void am_dgesdd_(const char *jobz, const int *m, int *info, size_t jobz_len);

// ARG: am_sfx_ uplo=fortran-char/8/rdi s=none/8/- return=none/0/-
void am_sfx_(char *uplo, const char **s);
