#!/usr/bin/env bash
# greenlet.sh - Python greenlets (stack-copying coroutines: gevent's,
# SQLAlchemy's asyncio's) that switch inside a wrapped call's callback
# while others make wrapped calls, or leave one suspended there for good,
# under the preloaded ABI-level wrapper of a library that calls back
# (greenlet/cb.c, through ctypes) and zlib's. The program's output and
# status are the unwrapped run's (it crashed: a resumed call returned
# through a return slot another call had taken back as abandoned), and the
# visits are the calls made.
set -euo pipefail
TEST_LABEL=greenlet
source "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
src=$LIBWRAP_SOURCE_DIR/tests/runtime/greenlet
py=/usr/bin/python3
$py -c 'import greenlet' 2> /dev/null || fail "no greenlet for $py (scripts/install-deps.sh installs python3-greenlet)"
mkdir -p lib
${CC:-cc} -O2 -fPIC -shared -Wl,-soname,libcb.so -o lib/libcb.so "$src/cb.c"
wrap_library callback '"cb.h"' "-I$src" "-L$PWD/lib -Wl,-rpath,$PWD/lib" -lcb
wrap_library zlib '<zlib.h>' "" "" -lz
pre="$PWD/libwrap_callback_runtime.so $PWD/libwrap_zlib_runtime.so"

for run in inside:300 abandon:300; do
    mode=${run%:*} n=${run#*:}
    st=0
    $py "$src/switch.py" "$PWD/lib/libcb.so" $mode $n > $mode.plain.out 2> $mode.plain.err || st=$?
    [ $st = 0 ] || fail "$mode: the unwrapped run failed ($st): $(cat $mode.plain.err)"
    st=0
    LD_PRELOAD=$pre LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-$mode timeout 120 \
        $py "$src/switch.py" "$PWD/lib/libcb.so" $mode $n > $mode.out 2> $mode.err || st=$?
    [ $st = 0 ] || fail "$mode: status $st under the wrappers: $(head -5 $mode.err)"
    cmp -s $mode.plain.out $mode.out || fail "$mode: stdout differs: $(diff $mode.plain.out $mode.out | head -5)"
    grep -v '^libwrap: ' $mode.err > $mode.rest || true
    cmp -s $mode.plain.err $mode.rest || fail "$mode: stderr differs: $(diff $mode.plain.err $mode.rest | head -5)"
    read -r _ _ leaf_n _ _ call_n < <(sed 's/calls cb_call \([0-9]*\) calls cb_leaf \([0-9]*\)/x x \2 x x \1/' $mode.err | tail -1)
    $CHECK exp-$mode "visits('cb_call') == $call_n" "visits('cb_leaf') == $leaf_n" >/dev/null ||
        fail "$mode: visits are not the calls ($call_n cb_call, $leaf_n cb_leaf)"
    echo "ok: $mode: output, status and visits as made ($call_n cb_call, $leaf_n cb_leaf)"
done
