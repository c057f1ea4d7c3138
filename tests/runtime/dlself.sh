#!/usr/bin/env bash
# dlself.sh - a library that finds its own file with dladdr of its own
# function (libasound's snd_dlopen(NULL), then its hooks looked up there),
# under the preloaded wrapper of that function, whose address the
# library's reference gets: dladdr and dladdr1 answer for the original, as
# without the wrapper (every ALSA program failed: the hooks were looked up
# in the wrapper library). The program's own output is unchanged, and
# self_open's calls are measured; ABI-level and typed wrappers.
set -euo pipefail
TEST_LABEL=dlself
source "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
src=$LIBWRAP_SOURCE_DIR/tests/runtime/dlself
cc=${CC:-cc}
mkdir -p lib
$cc -O2 -fPIC -shared -Wl,-soname,libself.so -o lib/libself.so "$src/self.c" -ldl
$cc -O2 -I"$src" -o app "$src/main.c" -Llib -lself -Wl,-rpath,"$PWD/lib"
wrap_library dself '"self.h"' "-I$src" "-L$PWD/lib -Wl,-rpath,$PWD/lib" -lself
run_preloaded "$PWD/libwrap_dself_runtime.so" "$PWD/exp" ./app 4
grep -qx "self_open 42" plain.out || fail "the library does not find itself: $(cat plain.out)"
$CHECK exp "visits('self_open') == 4" || fail "self_open's visits"
# The same with a typed wrapper (--forward typed).
wrap_library dselft '"self.h"' "-I$src" "-L$PWD/lib -Wl,-rpath,$PWD/lib" -lself --forward typed
run_preloaded "$PWD/libwrap_dselft_runtime.so" "$PWD/exp-typed" ./app 4
$CHECK exp-typed "visits('self_open') == 4" || fail "self_open's visits (typed)"
echo "ok: the library found its own file and hook through dladdr, self_open measured"
