#!/usr/bin/env bash
# lookup.sh - a library that hands out pointers to its own functions
# (tests/workflow/lookup, as in workflow_lookup): on AArch64 the ABI-level
# wrapper of lk_lookup is a shim around the trampoline's wrapper, and the
# program's calls through the pointers it returns are visits, under
# LD_PRELOAD and at link time; output and status as unwrapped.
source "$LIBWRAP_SOURCE_DIR/tests/aarch64/lib.sh"
cc=aarch64-linux-gnu-gcc
gen=$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen
inc=$LIBWRAP_STAGE/include
rtlib=$LIBWRAP_STAGE/lib/$host
src=$LIBWRAP_SOURCE_DIR/tests/workflow/lookup
here=$PWD

$cc -O2 -fPIC -shared -Wl,-Bsymbolic -o liblk.so "$src/lk.c"
printf '#include "lk.h"\n' > libwrap.h
$cc -I"$src" -E libwrap.h > libwrap.i
CC=$cc "$gen" --quiet --name lk -x c --target $host --ldflags "-L$here" --libs -llk -o gen libwrap.i
grep -q 'libwrap_answer_pointer' gen/lk.wrappers.c || fail "lk_lookup has no shim"
for mode in linktime runtime; do
    MODE=$(echo $mode | tr a-z A-Z)
    $cc -O2 -fPIC -Wall -Wextra -Werror -DLIBWRAP_$MODE -I"$inc" -c gen/lk.wrappers.c -o $mode.o
done
rt=(-L"$rtlib" -llibwrap_runtime -Wl,-rpath,"$rtlib" -Wl,-rpath,"$here")
$cc -shared -o libwrap_lk_linktime.so linktime.o -Wl,@gen/lk.wrap -L. -llk "${rt[@]}"
$cc -shared -o libwrap_lk_runtime.so runtime.o "${rt[@]}" -ldl
$cc -O2 -I"$src" -c "$src/lk_app.c" -o app.o
$cc -o plain app.o -L. -llk -Wl,-rpath,"$here"
$cc -o linked app.o -Wl,@gen/lk.wrap -L. -lwrap_lk_linktime -llk "${rt[@]}" -Wl,-rpath,"$here"

s=0; ./plain > plain.out 2> plain.err || s=$?; echo $s > plain.status
grep -qx 'sum 232' plain.out || fail "the unwrapped program printed $(cat plain.out)"
for run in linked preload; do
    cmd=(./linked)
    [ $run = preload ] && cmd=(env LD_PRELOAD=$here/libwrap_lk_runtime.so ./plain)
    LIBWRAP_EXPERIMENT_DIRECTORY=$here/exp-$run same_run $run "${cmd[@]}"
    $CHECK "$here/exp-$run" "visits('lk_lookup') == 4" "visits('lk_leaf') == 6" "visits('lk_twice') == 3" \
        "visits('lk_foreign') == 1" "visits('lk_sum') == 1" || fail "$run: visits differ from the calls made"
    echo "ok $run"
done
echo PASS
