#!/usr/bin/env bash
# dlinit.sh - a library's constructor that calls dlopen while the dlopen
# that loaded it runs the others' constructors (libGLdispatch inside
# Python's import of cv2): the runtime's checks at that call (is a
# wrapper's target loaded now?) must not run the constructors of the
# objects loaded but not yet started, out of their order: libx's ran
# before libc_'s had ended, and the program aborted (under the preloaded
# wrapper of libt, which the same dlopen loads).
set -euo pipefail
TEST_LABEL=dlinit
source "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
src=$LIBWRAP_SOURCE_DIR/tests/runtime/dlinit
cc=${CC:-cc}
mkdir -p lib
$cc -O2 -fPIC -shared -DLIB_C -Wl,-soname,libc_.so -o lib/libc_.so "$src/order.c"
$cc -O2 -fPIC -shared -DLIB_X -Wl,-soname,libx.so -o lib/libx.so "$src/order.c" -Llib -l:libc_.so -Wl,-rpath,"$PWD/lib"
$cc -O2 -fPIC -shared -DLIB_T -Wl,-soname,libt.so -o lib/libt.so "$src/order.c" -Llib -lx -Wl,-rpath,"$PWD/lib"
$cc -O2 -fPIC -shared -DLIB_TOP -Wl,-soname,libtop.so -o lib/libtop.so "$src/order.c" \
    -Llib -l:libc_.so -lt -Wl,-rpath,"$PWD/lib"
$cc -O2 -o app "$src/main.c" -ldl -Wl,-rpath,"$PWD/lib"
wrap_library t '"tlib.h"' "-I$src" "-L$PWD/lib" -lt
# As the working directory's Makefile links it: no NEEDED on its target,
# which is loaded only by the program's dlopen.
rtlib=$LIBWRAP_STAGE/lib
$cc -shared -o libwrap_t_runtime.so t-runtime.o -Wl,--whole-archive "$rtlib/liblibwrap_exec.a" \
    -Wl,--no-whole-archive -L"$rtlib" -llibwrap_runtime -Wl,-rpath,"$rtlib" -ldl
readelf -d libwrap_t_runtime.so | grep -q 'NEEDED.*libt\.so' && fail "the wrapper needs libt.so"
run_preloaded "$PWD/libwrap_t_runtime.so" "$PWD/exp" ./app 5
$CHECK exp "visits('t_value') == 5" || fail "t_value's visits"
echo "ok: the constructors ran in their order, t_value measured"
