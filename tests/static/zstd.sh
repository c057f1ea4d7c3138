#!/usr/bin/env bash
# zstd.sh FORWARD (abi or typed) - a target whose static archive lacks
# functions its shared library exports: Debian's libzstd.a has no
# ZSTD_createThreadPool or ZSTD_freeThreadPool. The link-time wrapper's
# references to those two originals are weak (docs/workflow.md, "A static
# archive that lacks functions of its shared library"), so that a -static
# or -Bstatic link of a program that calls the others succeeds, measured,
# with its output; a program that calls the two links with the wrapper,
# and their calls fail with ENOSYS, one warning a function. A dynamic link
# finds both in libzstd.so.
set -euo pipefail
forward=$1
src=$LIBWRAP_SOURCE_DIR/tests/static
rtlib=$LIBWRAP_STAGE/lib
TEST_LABEL="static zstd $forward"
source "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
cc=${CC:-cc}
[ -f /usr/include/zstd.h ] && [ -n "$($cc -print-file-name=libzstd.a | grep /)" ] ||
    { echo "no libzstd.a (Debian: libzstd-dev): skipped"; exit 77; }
archive=$($cc -print-file-name=libzstd.a)
nm --defined-only "$archive" 2> /dev/null | grep -q ' T ZSTD_createThreadPool$' &&
    { echo "this libzstd.a has ZSTD_createThreadPool: nothing to test"; exit 77; }

printf '#define ZSTD_STATIC_LINKING_ONLY\n' > zstd_flags.h
wrap_library zstd '<zstd.h>' "-include $PWD/zstd_flags.h" "" -lzstd --forward $forward
for s in ZSTD_createThreadPool ZSTD_freeThreadPool; do
    grep -q "__asm__(\"__real_$s\") __attribute__((weak));" gen-zstd/zstd.wrappers.c ||
        fail "the reference to $s's original is not weak"
done
grep -q '__asm__("__real_ZSTD_compress") __attribute__((weak))' gen-zstd/zstd.wrappers.c &&
    fail "ZSTD_compress, which libzstd.a has, is referenced weakly"
ar rcs libwrap_zstd_linktime.a zstd-linktime.o

runtime=(-Wl,--whole-archive "$rtlib/liblibwrap_runtime.a" -Wl,--no-whole-archive)
$cc -O2 -static -o plain "$src/zstd_app.c" -lzstd
./plain > plain.out 2> plain.err
for link in static Bstatic; do
    case $link in
        static) how=(-static); rt=("${runtime[@]}"); tgt=(-lzstd) ;;
        Bstatic) how=(); rt=(-L"$rtlib" -llibwrap_runtime -Wl,-rpath,"$rtlib"); tgt=(-Wl,-Bstatic -lzstd -Wl,-Bdynamic) ;;
    esac
    $cc -O2 "${how[@]}" -o app-$link "$src/zstd_app.c" -Wl,@gen-zstd/zstd.wrap libwrap_zstd_linktime.a \
        "${rt[@]}" "${tgt[@]}" -lpthread 2> link-$link.err || fail "$link: the link fails: $(cat link-$link.err)"
    LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-$link ./app-$link > app-$link.out 2> app-$link.err ||
        fail "$link: the program fails"
    cmp -s plain.out app-$link.out && cmp -s plain.err app-$link.err || fail "$link: the output differs"
    for s in ZSTD_compress ZSTD_decompress; do
        [ "$(python3 - "exp-$link/profile.json" $s <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
print(sum(f["visits"] for f in p["functions"] if f["symbol"] == sys.argv[2]))
PY
)" = 3 ] || fail "$link: $s not measured 3 times"
    done

    # Calls of the functions the archive lacks: the program links, each
    # call fails with ENOSYS, one warning a function.
    $cc -O2 -DPOOL "${how[@]}" -o pool-$link "$src/zstd_app.c" -Wl,@gen-zstd/zstd.wrap libwrap_zstd_linktime.a \
        "${rt[@]}" "${tgt[@]}" -lpthread 2> plink-$link.err || fail "$link: the pool program does not link"
    LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/pexp-$link ./pool-$link > pool-$link.out 2> pool-$link.err ||
        fail "$link: the pool program fails"
    grep -qx 'pool none, errno ENOSYS' pool-$link.out || fail "$link: $(tail -1 pool-$link.out)"
    printf 'libwrap: warning: %s is not in the library the program was linked with (its static archive lacks it): its calls fail with ENOSYS\n' \
        ZSTD_createThreadPool ZSTD_freeThreadPool > want.err
    cmp -s want.err pool-$link.err || fail "$link: not one warning a function: $(cat pool-$link.err)"
done

# Dynamically linked, the same wrappers find both in libzstd.so.
$cc -O2 -DPOOL -o pool-so "$src/zstd_app.c" -Wl,@gen-zstd/zstd.wrap libwrap_zstd_linktime.a \
    -L"$rtlib" -llibwrap_runtime -Wl,-rpath,"$rtlib" -lzstd -lpthread
LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/pexp-so ./pool-so > pool-so.out 2> pool-so.err || fail "dynamic: the pool program fails"
grep -qx 'pool made, errno other' pool-so.out && [ ! -s pool-so.err ] ||
    fail "dynamic: $(tail -1 pool-so.out) $(cat pool-so.err)"

# A second target without an archive beside it (libxslt beside libxml2.a):
# its functions are referenced as usual, so that a dynamic link with
# --as-needed keeps it and its calls reach it.
printf 'int noarch_twice(int x);\n' > noarch.h
printf '#include "noarch.h"\nint noarch_twice(int x) { return 2 * x; }\n' > noarch.c
$cc -O2 -fPIC -shared -o libnoarch.so noarch.c
printf '#include <zstd.h>\n#include "noarch.h"\n' > twolib.h
wrap_library two '"twolib.h"' "-include $PWD/zstd_flags.h" "-L$PWD" "-lnoarch -lzstd" --forward $forward
grep -q '__asm__("__real_noarch_twice") __attribute__((weak))' gen-two/two.wrappers.c &&
    fail "noarch_twice, whose library has no archive, is referenced weakly"
grep -q '__asm__("__real_ZSTD_createThreadPool") __attribute__((weak))' gen-two/two.wrappers.c ||
    fail "with two targets, ZSTD_createThreadPool's reference is not weak"
printf '#include <stdio.h>\n#include "noarch.h"\nint main(void) { printf("%%d\\n", noarch_twice(21)); return 0; }\n' > two_app.c
$cc -shared -Wl,--as-needed -o libwrap_two_lt.so two-linktime.o -Wl,@gen-two/two.wrap -L"$PWD" -lnoarch -lzstd -Wl,-rpath,"$PWD" \
    -L"$rtlib" -llibwrap_runtime -Wl,-rpath,"$rtlib"
$cc -O2 -Wl,--as-needed -o two-app two_app.c -Wl,@gen-two/two.wrap -L"$PWD" -lwrap_two_lt -lnoarch -lzstd \
    -Wl,-rpath,"$PWD"
LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/two-exp ./two-app > two.out 2> two.err || fail "two targets: the program fails"
[ "$(cat two.out)" = 42 ] && [ ! -s two.err ] || fail "two targets: '$(cat two.out)' $(cat two.err)"
echo "PASS ($TEST_LABEL)"
