/* The default scope (docs/scope.md): this file plays libwrap.h. */
// CPPFLAGS: -Iscope/inc -isystem scope/sys
#include <stdio.h>
#include <lib/api.h>
#include <sys/acl.h>     /* another library's header under sys/, named: in scope */
#include <sys/vlimit.h>  /* a C library's sys/ header named next to the library's: out */
// CHECK: vendor_fn name=vendor_fn file=scope/sys/vendor.h:1 ret=int (void)
// CHECK: api_detail name=api_detail file=scope/inc/lib/detail.h:1 ret=int (int x)
// CHECK: extra_fn name=extra_fn file=scope/other/extra.h:1 ret=int (double d)
// CHECK: api_open name=api_open file=scope/inc/lib/api.h:6 ret=int (const char *name)
// CHECK-SKIP: fake_std_fn out-of-scope
// CHECK: fake_std_impl name=fake_std_impl file=scope/inc/lib/api.h:9 ret=int (int x)
// CHECK: fake_std_impl name=fake_std_impl file=scope/sys/bits/impl.h:1 ret=int (int x) skip=duplicate(declared again at api.h:9, in scope)
// CHECK-SKIP: printf out-of-scope
// CHECK: acl_like_fn name=acl_like_fn file=scope/sys/sys/acl.h:3 ret=int (int x)
// CHECK-SKIP: fake_vlimit_fn out-of-scope
