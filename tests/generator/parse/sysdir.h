/* System include directories given with -I (`pkg-config --cflags lapacke`
 * gives -I/usr/include/x86_64-linux-gnu) leave the scope as it is without
 * -I: complex.h's bits/cmathcalls.h stays out (docs/scope.md). */
// CPPFLAGS: -Isysdir/inc -I/usr/include/x86_64-linux-gnu -I/usr/include -I/usr/local/include
#include <zlapk.h>
// CHECK: zlapk_dot name=zlapk_dot file=sysdir/inc/zlapk.h:4 ret=_Complex double (size_t n, const _Complex double *x, const _Complex double *y)
// CHECK-SKIP: cabs out-of-scope
// CHECK-SKIP: cexp out-of-scope
// CHECK-SKIP: csqrtf out-of-scope
