/* Every type the wrappers must spell: builtins of every width, aggregates
 * by value, arrays, VLAs, function pointers, qualifiers. */
#include <stddef.h>

typedef struct { int x, y; } point_t;                 /* anonymous, typedef'd */
struct big { double v[32]; };
union u { int i; float f; };
enum color { RED, GREEN };
typedef void handler_fn(int);                         /* typedef'd function type */
typedef int (*cmp_fn)(const void *, const void *);

char t_char(signed char a, unsigned char b);
short t_short(short a, unsigned short b);
long long t_llong(long a, unsigned long b, long long c, unsigned long long d);
_Bool t_bool(_Bool b);
__int128 t_int128(__int128 a, unsigned __int128 b);
float t_float(float a, double b, long double c);
_Complex double t_complex(_Complex float a, _Complex long double b);
point_t t_small(point_t p, union u v, enum color c);
struct big t_big(struct big b);
void t_array(int a[10], const char *names[], int grid[][4]);
void t_ptr_array(int (*row)[8]);
void t_vla(int n, int v[n], int (*m)[n]);
void t_fnptr(void (*cb)(int), int (*(*nested)(int))(double), cmp_fn cmp);
void (*t_ret_fnptr(int sig, void (*h)(int)))(int);
void t_fn_typedef(handler_fn h, handler_fn *hp);
void t_qual(const volatile int *p, char *restrict dst, const char *const s);
int t_unnamed(int, char *, void (*)(void));
double t_mixed(char a, short b, int c, long d, float e, double f, long double g, void *h, point_t i,
               struct big j, int k[3], size_t l);
void t_void(void);

// CHECK: t_char name=t_char file=types.h:12 ret=char (signed char a, unsigned char b)
// CHECK: t_short name=t_short file=types.h:13 ret=short (short a, unsigned short b)
// CHECK: t_llong name=t_llong file=types.h:14 ret=long long (long a, unsigned long b, long long c, unsigned long long d)
// CHECK: t_bool name=t_bool file=types.h:15 ret=_Bool (_Bool b)
// CHECK: t_int128 name=t_int128 file=types.h:16 ret=__int128 (__int128 a, unsigned __int128 b)
// CHECK: t_float name=t_float file=types.h:17 ret=float (float a, double b, long double c)
// CHECK: t_complex name=t_complex file=types.h:18 ret=_Complex double (_Complex float a, _Complex long double b)
// CHECK: t_small name=t_small file=types.h:19 ret=point_t (point_t p, union u v, enum color c)
// CHECK: t_big name=t_big file=types.h:20 ret=struct big (struct big b)
// CHECK: t_array name=t_array file=types.h:21 ret=void (int *a, const char **names, int (*grid)[4])
// CHECK: t_ptr_array name=t_ptr_array file=types.h:22 ret=void (int (*row)[8])
// CHECK: t_vla name=t_vla file=types.h:23 ret=void (int n, int *v, void *m)
// CHECK: t_fnptr name=t_fnptr file=types.h:24 ret=void (void (*cb)(int), int (*(*nested)(int))(double), cmp_fn cmp)
// CHECK: t_ret_fnptr name=t_ret_fnptr file=types.h:25 ret=void (*)(int) (int sig, void (*h)(int))
// CHECK: t_fn_typedef name=t_fn_typedef file=types.h:26 ret=void (handler_fn h, handler_fn *hp)
// CHECK: t_qual name=t_qual file=types.h:27 ret=void (const volatile int *p, char *__restrict dst, const char *const s)
// CHECK: t_unnamed name=t_unnamed file=types.h:28 ret=int (int arg1, char *arg2, void (*arg3)(void))
// CHECK: t_mixed name=t_mixed file=types.h:29 ret=double (char a, short b, int c, long d, float e, double f, long double g, void *h, point_t i, struct big j, int *k, size_t l)
// CHECK: t_void name=t_void file=types.h:31 ret=void (void)
