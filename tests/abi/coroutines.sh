#!/usr/bin/env bash
# coroutines.sh - ucontext coroutines (coro/coro_app.c) whose callbacks,
# inside the wrapped co_call, switch to another coroutine that calls it
# too: the calls of the two interleave, each returning while the other's
# is open. With the ABI-level wrapper, under LD_PRELOAD and at link time:
# the program prints what it prints unwrapped and exits the same (the
# return slots once went back out of order and a return address was
# overwritten: SIGSEGV); stderr holds one line that says the calls made
# while a switched-out call was open were not measured; the profile is
# whole, and main's calls after the coroutines end are measured again.
set -euo pipefail
source "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
src=$LIBWRAP_SOURCE_DIR/tests/abi/coro
cc=${CC:-cc}
$cc -O2 -fPIC -shared -Wl,-soname,libcoro.so -o libcoro.so "$src/corolib.c"
$cc -O2 -I"$src" -o plain "$src/coro_app.c" -L. -lcoro -Wl,-rpath,"$PWD"
wrap_library coro '"corolib.h"' "-I$src" "-L$PWD" -lcoro
$cc -O2 -I"$src" -o linked "$src/coro_app.c" -Wl,@gen-coro/coro.wrap -L. -lwrap_coro_linktime -lcoro \
    -Wl,-rpath,"$PWD"
s=0; ./plain > plain.out 2> plain.err || s=$?
[ $s = 0 ] && [ ! -s plain.err ] || fail "the unwrapped program: status $s, $(head -3 plain.err)"
for mode in preload linktime; do
    w=0
    if [ $mode = preload ]; then
        LD_PRELOAD=$PWD/libwrap_coro_runtime.so LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-$mode \
            timeout 60 ./plain > $mode.out 2> $mode.err || w=$?
    else
        LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-$mode timeout 60 ./linked > $mode.out 2> $mode.err || w=$?
    fi
    [ $w = 0 ] || fail "$mode: exit status $w (unwrapped 0): $(head -3 $mode.err)"
    cmp -s plain.out $mode.out || fail "$mode: stdout differs: $(cat $mode.out)"
    [ "$(wc -l < $mode.err)" = 1 ] &&
        grep -q '^libwrap: warning: a thread switched execution contexts (swapcontext, setcontext) inside a measured call ([0-9]* times): the calls made until that call returned were not measured' $mode.err ||
        fail "$mode: stderr: $(head -3 $mode.err)"
    # The 100 calls of co_leaf after the coroutines are measured; every
    # count within the calls made (400 co_call, 500 co_leaf).
    $CHECK exp-$mode "visits('co_leaf') >= 100" "visits('co_leaf') <= 500" "visits('co_call') <= 400" ||
        fail "$mode: the profile"
done
echo "ok: interleaved coroutines run as unwrapped, in both modes"
