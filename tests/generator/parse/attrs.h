/* Declarations and the skip reasons they imply. */
#include <stdio.h>

extern int f_asm(int) __asm__("f_asm64");              /* asm label: the symbol */
extern FILE *open_file(const char *path) __asm__("" "open_file64");
void die(const char *msg) __attribute__((noreturn));
_Noreturn void die2(int code);
int old_api(int x) __attribute__((deprecated("use new_api")));
int logf_(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int vlogf_(int level, const char *fmt, va_list ap);
int secret(int) __attribute__((visibility("hidden")));
static inline int helper(int x) { return x + 1; }
static int internal(int x);
inline int c99_inline(int x) { return x; }
extern __inline__ __attribute__((__gnu_inline__)) int gnu_inline(int x) { return x; }
int legacy();
int legacy_void();
int twice(int a);
int twice(int b);
struct { int a; } *anon_ret(void);
void takes_anon(struct { int b; } *p);
// ARGS: --declare-void legacy_void
// CHECK: f_asm64 name=f_asm file=attrs.h:4 ret=int (int arg1)
// CHECK: open_file64 name=open_file file=attrs.h:5 ret=FILE * (const char *path)
// CHECK: die name=die file=attrs.h:6 ret=void (const char *msg) [noreturn]
// CHECK: die2 name=die2 file=attrs.h:7 ret=void (int code) [noreturn]
// CHECK: old_api name=old_api file=attrs.h:8 ret=int (int x) [deprecated]
// CHECK: logf_ name=logf_ file=attrs.h:9 ret=int (int level, const char *fmt, ...) [variadic format(printf,2,3) va_twin=vlogf_]
// CHECK: vlogf_ name=vlogf_ file=attrs.h:10 ret=int (int level, const char *fmt, va_list ap)
// CHECK: secret name=secret file=attrs.h:11 ret=int (int arg1) [hidden] skip=hidden
// CHECK: helper name=helper file=attrs.h:12 ret=int (int x) [inline static] skip=inline
// CHECK: internal name=internal file=attrs.h:13 ret=int (int x) [static] skip=static
// CHECK: c99_inline name=c99_inline file=attrs.h:14 ret=int (int x) [inline] skip=inline
// CHECK: gnu_inline name=gnu_inline file=attrs.h:15 ret=int (int x) [inline]
// CHECK: legacy name=legacy file=attrs.h:16 ret=int () [unprototyped] skip=unprototyped(declared without a prototype; use --declare-void if it takes no arguments)
// CHECK: legacy_void name=legacy_void file=attrs.h:17 ret=int (void)
// CHECK: twice name=twice file=attrs.h:18 ret=int (int a)
// CHECK: twice name=twice file=attrs.h:19 ret=int (int b) skip=duplicate(first declared at attrs.h:18)
// CHECK-SKIP: anon_ret unsupported
// CHECK-SKIP: takes_anon unsupported
// CHECK-SKIP: printf out-of-scope
