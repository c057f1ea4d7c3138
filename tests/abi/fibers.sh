#!/usr/bin/env bash
# fibers.sh - coroutines on stacks of their own that switch by a means the
# runtime does not see (coro/fiber_app.c: as Boost.Context and fiber
# libraries do, in their own assembly), suspended inside wrapped calls and
# resumed in another order: a call returning while a later one of another
# coroutine is open freed that one's return slot with its own, and a call
# made after took it: the suspended call then returned to the wrong place
# (Boost.Context's assertion, or SIGSEGV). With the ABI-level wrapper,
# under LD_PRELOAD and at link time: the program prints what it prints
# unwrapped and exits the same, stderr as unwrapped, and every call is
# counted.
set -euo pipefail
source "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
src=$LIBWRAP_SOURCE_DIR/tests/abi/coro
cc=${CC:-cc}
$cc -O2 -fPIC -shared -Wl,-soname,libcoro.so -o libcoro.so "$src/corolib.c"
$cc -O2 -I"$src" -o plain "$src/fiber_app.c" -L. -lcoro -Wl,-rpath,"$PWD" -ldl
wrap_library coro '"corolib.h"' "-I$src" "-L$PWD" -lcoro
$cc -O2 -I"$src" -o linked "$src/fiber_app.c" -Wl,@gen-coro/coro.wrap -L. -lwrap_coro_linktime -lcoro \
    -Wl,-rpath,"$PWD" -ldl
n=200
s=0; ./plain $n > plain.out 2> plain.err || s=$?
[ $s = 0 ] && [ ! -s plain.err ] || fail "the unwrapped program: status $s, $(head -3 plain.err)"
for mode in preload linktime; do
    w=0
    if [ $mode = preload ]; then
        LD_PRELOAD=$PWD/libwrap_coro_runtime.so LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-$mode \
            timeout 60 ./plain $n > $mode.out 2> $mode.err || w=$?
    else
        LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-$mode timeout 60 ./linked $n > $mode.out 2> $mode.err || w=$?
    fi
    [ $w = 0 ] || fail "$mode: exit status $w (unwrapped 0): $(head -3 $mode.err)"
    cmp -s plain.out $mode.out || fail "$mode: stdout differs: $(head -3 $mode.out)"
    cmp -s plain.err $mode.err || fail "$mode: stderr differs: $(head -3 $mode.err)"
    # Each round: co_call in A, in B, in main and in its callback; co_leaf
    # in main and in that callback.
    $CHECK exp-$mode "visits('co_call') == $((4 * n))" "visits('co_leaf') == $((2 * n))" ||
        fail "$mode: the visits"
done
# Many coroutines suspended inside calls, resumed round-robin: the newest
# slot is always a suspended call's, and the slots freed below fill the
# thread's 32,768 (later calls were forwarded unmeasured, with a warning
# of calls nested that deep): they are taken again.
nf=70 nr=600
s=0; ./plain many $nf $nr > many.plain.out 2> many.plain.err || s=$?
[ $s = 0 ] && [ ! -s many.plain.err ] || fail "many, unwrapped: status $s, $(head -3 many.plain.err)"
for mode in preload linktime; do
    w=0
    if [ $mode = preload ]; then
        LD_PRELOAD=$PWD/libwrap_coro_runtime.so LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/many-$mode \
            timeout 120 ./plain many $nf $nr > many.$mode.out 2> many.$mode.err || w=$?
    else
        LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/many-$mode timeout 120 ./linked many $nf $nr > many.$mode.out \
            2> many.$mode.err || w=$?
    fi
    [ $w = 0 ] || fail "many, $mode: exit status $w: $(head -3 many.$mode.err)"
    cmp -s many.plain.out many.$mode.out || fail "many, $mode: stdout differs: $(cat many.$mode.out)"
    cmp -s many.plain.err many.$mode.err || fail "many, $mode: stderr differs: $(head -3 many.$mode.err)"
    $CHECK many-$mode "visits('co_call') == $((nf * nr))" "visits('co_leaf') == $((nf * nr))" ||
        fail "many, $mode: the visits"
done
# Calls a signal handler makes on the signal stack, left by siglongjmp,
# over and over: taken back once the thread calls from its own stack
# (kept as a coroutine's, they used up the thread's slots).
na=40000
./plain altjmp $na > alt.plain.out 2> alt.plain.err || fail "altjmp, unwrapped: status $?"
w=0
LD_PRELOAD=$PWD/libwrap_coro_runtime.so LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/alt-preload \
    timeout 120 ./plain altjmp $na > alt.out 2> alt.err || w=$?
[ $w = 0 ] || fail "altjmp: exit status $w: $(head -3 alt.err)"
cmp -s alt.plain.out alt.out && cmp -s alt.plain.err alt.err || fail "altjmp: output differs: $(head -3 alt.err)"
$CHECK alt-preload "visits('co_call') == $na" "visits('co_leaf') == $((2 * na))" || fail "altjmp: the visits"
echo "ok: coroutines resumed out of order inside wrapped calls run as unwrapped, every call counted"
