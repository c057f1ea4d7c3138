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
rtlib=$LIBWRAP_STAGE/lib
TEST_LABEL="static $link"
source "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
cc=${CC:-cc}
[ -e /usr/lib/x86_64-linux-gnu/libz.a ] || [ -n "$(cc -print-file-name=libz.a | grep /)" ] ||
    { echo "no libz.a: skipped"; exit 77; }

wrap_library zlib '<zlib.h>' "" "" -lz
ar rcs libwrap_zlib_linktime.a zlib-linktime.o

$cc -O2 $link -o plain "$src/static_app.c" -lz -lpthread
$cc -O2 $link -o wrapped "$src/static_app.c" -Wl,@gen-zlib/zlib.wrap libwrap_zlib_linktime.a \
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

# The same with LLVM's linker and --gc-sections (as Rust links a static
# program): the runtime's sections that only __start_/__stop_ symbols name
# stay.
if command -v ld.lld > /dev/null; then
    $cc -O2 $link -fuse-ld=lld -Wl,--gc-sections -o wrapped-lld "$src/static_app.c" -Wl,@gen-zlib/zlib.wrap \
        libwrap_zlib_linktime.a -Wl,--whole-archive "$rtlib/liblibwrap_runtime.a" -Wl,--no-whole-archive \
        -lz -lpthread 2> lld.err || fail "the static link with lld and --gc-sections fails: $(head -3 lld.err)"
    LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-lld ./wrapped-lld > lld.out 2> lld.err2 || fail "the lld-linked program exited $?"
    cmp -s plain.out lld.out && cmp -s plain.err lld.err2 || fail "lld-linked: output differs"
    $CHECK exp-lld "visits('adler32') == 1000" || fail "lld-linked: the visits"
else
    echo "no ld.lld: the static link with lld is not tried"
fi

# Tracing needs the trace writer plugin: one warning, the profile written.
LIBWRAP_ENABLE_TRACING=true LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-trace ./wrapped > t.out 2> t.err
cmp -s plain.out t.out || fail "traced: stdout differs"
[ "$(wc -l < t.err)" = 1 ] && grep -q "a statically linked program cannot load plugins" t.err ||
    fail "traced: not one warning: $(cat t.err)"
$CHECK exp-trace "visits('adler32') == 1000" || fail "traced: the profile"

# A dynamic program into which a compiler wrapper links the target's
# archive (as HDF5's h5cc does): `libwrap` says so after the link, and a
# preloaded wrapper at run time, each in one line with the way out.
if [ $link = -static ]; then
    printf '#!/bin/sh\nexec %s "$@" %s\n' "$cc" "$(cc -print-file-name=libz.a)" > zcc
    chmod +x zcc
    p=$PWD/prefix
    mkdir -p "$p/share/libwrap" "$p/lib"
    cp gen-zlib/zlib.wrap "$p/share/libwrap/zlib.wrap"
    printf 'name=zlib\ndisplay_name=zlib\nlanguage=c\nldflags=\nlibs=-lz\ntarget_shared=\ntarget_static=\nvariants=linktime.so runtime.so\ntoolchain=%s\n' \
        "$LIBWRAP_STAGE" > "$p/share/libwrap/zlib.libwrap"
    cp libwrap_zlib_linktime.so libwrap_zlib_runtime.so "$p/lib/"
    ./zcc -O2 -o inside "$src/static_app.c" -lpthread
    ./inside > inside.out 2> inside.err
    cmp -s plain.out inside.out || fail "the program with zlib inside: stdout differs"
    LD_PRELOAD=$p/lib/libwrap_zlib_runtime.so LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-inside ./inside \
        > pre.out 2> pre.err
    cmp -s plain.out pre.out || fail "LD_PRELOAD into a program with zlib inside: stdout differs"
    [ "$(wc -l < pre.err)" = 1 ] &&
        grep -q '^libwrap: warning: the program \./inside (pid [0-9]*) contains [0-9]* functions of libz\.so\.1 linked statically (.*): its calls to them inside the program are not measured; link it with the shared library instead' pre.err ||
        fail "LD_PRELOAD into a program with zlib inside: not one warning: $(cat pre.err)"
    # Stripped, but exporting the copies (-rdynamic, as Debian's redis-cli
    # does with its hiredis): the dynamic symbol table names them.
    ./zcc -O2 -rdynamic -o inside_rdyn "$src/static_app.c" -lpthread
    strip inside_rdyn
    LD_PRELOAD=$p/lib/libwrap_zlib_runtime.so LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-rdyn ./inside_rdyn \
        > rdyn.out 2> rdyn.err
    cmp -s plain.out rdyn.out || fail "LD_PRELOAD into a stripped program with zlib inside: stdout differs"
    [ "$(wc -l < rdyn.err)" = 1 ] && grep -q '^libwrap: warning: the program \./inside_rdyn (pid [0-9]*) contains [0-9]* functions of libz\.so\.1 linked statically' rdyn.err ||
        fail "LD_PRELOAD into a stripped -rdynamic program with zlib inside: not one warning: $(cat rdyn.err)"
    # At link time, --wrap leaves the archive's wrapped functions out, unless
    # the program needs something else of their object (zutil.o: z_errmsg).
    printf '#include <stdio.h>\n#include <zlib.h>\nextern const char *const z_errmsg[10];\nint main(void) { printf("%%s %%s\\n", zlibVersion(), z_errmsg[2]); return 0; }\n' > zutil_app.c
    LIBWRAP_PATH=$p "$LIBWRAP_STAGE/bin/libwrap" --libwrap=linktime:zlib ./zcc -O2 -o inside_lt \
        zutil_app.c 2> lt.err || fail "libwrap with the compiler wrapper: $(cat lt.err)"
    ./inside_lt > /dev/null || fail "the program linked through the compiler wrapper does not run"
    [ "$(wc -l < lt.err)" = 1 ] &&
        grep -q '^libwrap: warning: inside_lt contains [0-9]* function(s) of zlib linked statically (.*): a compiler wrapper linked the library.s archive into the program' lt.err ||
        fail "libwrap with the compiler wrapper: not one warning: $(cat lt.err)"
    # Stripped at the link (-s): the dynamic symbol table, with -rdynamic.
    LIBWRAP_PATH=$p "$LIBWRAP_STAGE/bin/libwrap" --libwrap=linktime:zlib ./zcc -O2 -s -rdynamic -o inside_lt_s \
        zutil_app.c 2> lts.err || fail "libwrap with the compiler wrapper, stripped: $(cat lts.err)"
    [ "$(wc -l < lts.err)" = 1 ] && grep -q '^libwrap: warning: inside_lt_s contains [0-9]* function(s) of zlib linked statically' lts.err ||
        fail "libwrap with the compiler wrapper, stripped at the link: not one warning: $(cat lts.err)"
    # A program linked with the shared library: nothing said.
    LIBWRAP_PATH=$p "$LIBWRAP_STAGE/bin/libwrap" --libwrap=linktime:zlib "$cc" -O2 -o shared_lt \
        "$src/static_app.c" -lz -lpthread 2> slt.err
    [ ! -s slt.err ] || fail "libwrap with the shared library warns: $(cat slt.err)"
    LD_PRELOAD=$p/lib/libwrap_zlib_runtime.so LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-shared \
        ./shared_lt > /dev/null 2> spre.err
    [ ! -s spre.err ] || fail "LD_PRELOAD into a program with the shared library warns: $(cat spre.err)"
fi
echo "ok $link"
