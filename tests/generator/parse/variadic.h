/* Variadic functions: va_list twins by name and signature, manual
 * mappings, and those left out. */
#include <stdarg.h>

int my_printf(const char *fmt, ...);                  /* vF */
int vmy_printf(const char *fmt, va_list ap);
int gz_printf(void *file, const char *fmt, ...);      /* xxxprintf -> xxxvprintf */
int gz_vprintf(void *file, const char *fmt, va_list ap);
char *db_mprintf(const char *fmt, ...);               /* sqlite3_mprintf -> sqlite3_vmprintf */
char *db_vmprintf(const char *fmt, va_list ap);
int db_snprintf(int n, char *buf, const char *fmt, ...);
int db_vsnprintf(int n, char *buf, const char *fmt, va_list ap);
int cfg(int op, ...);                                 /* F + "v" */
int cfgv(int op, va_list ap);
int ctl(int op, ...);                                 /* F + "_v" */
int ctl_v(int op, va_list ap);
int sum(int n, ...);                                  /* no twin */
int mismatch(long a, ...);                            /* twin takes other parameters */
int vmismatch(int a, va_list ap);
long wrongret(int a, ...);                            /* twin returns another type */
int vwrongret(int a, va_list ap);
int lib_log(int level, const char *fmt, ...);         /* named by --va-twin */
int lib_log_with_list(int level, const char *fmt, va_list ap);
int FormatText(char *buf, const char *fmt, ...);      /* F + "List" (ImageMagick) */
int FormatTextList(char *buf, const char *fmt, va_list ap);
int legacy();
int legacy_void();
// ARGS: --va-twin lib_log=lib_log_with_list --declare-void legacy_void
// CHECK: my_printf name=my_printf file=variadic.h:5 ret=int (const char *fmt, ...) [variadic va_twin=vmy_printf]
// CHECK: vmy_printf name=vmy_printf file=variadic.h:6 ret=int (const char *fmt, va_list ap)
// CHECK: gz_printf name=gz_printf file=variadic.h:7 ret=int (void *file, const char *fmt, ...) [variadic va_twin=gz_vprintf]
// CHECK: gz_vprintf name=gz_vprintf file=variadic.h:8 ret=int (void *file, const char *fmt, va_list ap)
// CHECK: db_mprintf name=db_mprintf file=variadic.h:9 ret=char * (const char *fmt, ...) [variadic va_twin=db_vmprintf]
// CHECK: db_vmprintf name=db_vmprintf file=variadic.h:10 ret=char * (const char *fmt, va_list ap)
// CHECK: db_snprintf name=db_snprintf file=variadic.h:11 ret=int (int n, char *buf, const char *fmt, ...) [variadic va_twin=db_vsnprintf]
// CHECK: db_vsnprintf name=db_vsnprintf file=variadic.h:12 ret=int (int n, char *buf, const char *fmt, va_list ap)
// CHECK: cfg name=cfg file=variadic.h:13 ret=int (int op, ...) [variadic va_twin=cfgv]
// CHECK: cfgv name=cfgv file=variadic.h:14 ret=int (int op, va_list ap)
// CHECK: ctl name=ctl file=variadic.h:15 ret=int (int op, ...) [variadic va_twin=ctl_v]
// CHECK: ctl_v name=ctl_v file=variadic.h:16 ret=int (int op, va_list ap)
// CHECK: sum name=sum file=variadic.h:17 ret=int (int n, ...) [variadic] skip=variadic(no va_list twin; name one with --va-twin SYM=TWIN)
// CHECK: mismatch name=mismatch file=variadic.h:18 ret=int (long a, ...) [variadic] skip=variadic(no va_list twin; name one with --va-twin SYM=TWIN)
// CHECK: vmismatch name=vmismatch file=variadic.h:19 ret=int (int a, va_list ap)
// CHECK: wrongret name=wrongret file=variadic.h:20 ret=long (int a, ...) [variadic] skip=variadic(no va_list twin; name one with --va-twin SYM=TWIN)
// CHECK: vwrongret name=vwrongret file=variadic.h:21 ret=int (int a, va_list ap)
// CHECK: lib_log name=lib_log file=variadic.h:22 ret=int (int level, const char *fmt, ...) [variadic va_twin=lib_log_with_list]
// CHECK: lib_log_with_list name=lib_log_with_list file=variadic.h:23 ret=int (int level, const char *fmt, va_list ap)
// CHECK: FormatText name=FormatText file=variadic.h:24 ret=int (char *buf, const char *fmt, ...) [variadic va_twin=FormatTextList]
// CHECK: FormatTextList name=FormatTextList file=variadic.h:25 ret=int (char *buf, const char *fmt, va_list ap)
// CHECK: legacy name=legacy file=variadic.h:26 ret=int () [unprototyped] skip=unprototyped(declared without a prototype; use --declare-void if it takes no arguments)
// CHECK: legacy_void name=legacy_void file=variadic.h:27 ret=int (void)
