#!/usr/bin/env bash
# static.sh LINK (-static or -static-pie)
#
# A program linked statically with zlib's link-time wrapper and the
# runtime's static archive (liblibwrap_runtime.a), as `libwrap` links it:
# output and exit status as unwrapped, visits exact in the main thread, a
# second thread and a fork child; tracing asked for gives one warning (no
# plugins in a static program) and the profile.
set -euo pipefail

link=$1
src=$LIBWRAP_SOURCE_DIR/tests/static
gen=$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen
inc=$LIBWRAP_STAGE/include
rtlib=$LIBWRAP_STAGE/lib
TEST_LABEL="static $link"
source "$LIBWRAP_SOURCE_DIR/tests/runtime/lib.sh"
cc=${CC:-cc}
[ -e /usr/lib/x86_64-linux-gnu/libz.a ] || [ -n "$(cc -print-file-name=libz.a | grep /)" ] ||
    { echo "no libz.a: skipped"; exit 77; }

printf '#include <zlib.h>\n' > zlib.h
$cc -E zlib.h > zlib.i
"$gen" --quiet --name zlib -x c --libs -lz -o gen zlib.i
$cc -O2 -fPIC -Wall -Wextra -Werror -DLIBWRAP_LINKTIME -I"$inc" -c gen/zlib.wrappers.c -o lt.o ||
    fail "the link-time wrappers do not compile under -Wall -Wextra -Werror"
ar rcs libwrap_zlib_linktime.a lt.o

$cc -O2 $link -o plain "$src/static_app.c" -lz -lpthread
$cc -O2 $link -o wrapped "$src/static_app.c" -Wl,@gen/zlib.wrap libwrap_zlib_linktime.a \
    -Wl,--whole-archive "$rtlib/liblibwrap_runtime.a" -Wl,--no-whole-archive -lz -lpthread 2> link.err
[ ! -s link.err ] || fail "the static link warns: $(cat link.err)"
file wrapped | grep -q 'statically linked\|static-pie linked' || fail "not a static program: $(file wrapped)"

./plain > plain.out 2> plain.err
LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp ./wrapped > wrapped.out 2> wrapped.err ||
    fail "the wrapped program exited $?"
cmp -s plain.out wrapped.out || fail "stdout differs"
cmp -s plain.err wrapped.err || fail "stderr differs: $(cat wrapped.err)"
$CHECK exp "visits('adler32') == 1000" "visits('crc32') == 100" "visits('zlibVersion') == 1" \
    "path('crc32') == 100" "len(threads) == 2" || fail "visits differ from the calls made"
child=$(ls -d exp/fork-*)
$CHECK "$child" "visits('adler32') == 7" "len(prof['functions']) == 1" || fail "the fork child's visits"

# Tracing needs the trace writer plugin: one warning, the profile written.
LIBWRAP_ENABLE_TRACING=true LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-trace ./wrapped > t.out 2> t.err
cmp -s plain.out t.out || fail "traced: stdout differs"
[ "$(wc -l < t.err)" = 1 ] && grep -q "a statically linked program cannot load plugins" t.err ||
    fail "traced: not one warning: $(cat t.err)"
$CHECK exp-trace "visits('adler32') == 1000" || fail "traced: the profile"
echo "ok $link"
