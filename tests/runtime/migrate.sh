#!/usr/bin/env bash
# migrate.sh - a ucontext coroutine switched out inside a wrapped call on
# one thread and resumed on another, where the call returns (greenlet/
# migrate.c), under the preloaded ABI-level wrapper: the program runs as
# without libwrap (the second thread took the first one's return slot as
# its own, unmapped once the first thread ended), and the second thread's
# own calls are measured; so are the first thread's once the call has
# returned on the second (its frame is closed then: they were not
# measured at all).
set -euo pipefail
TEST_LABEL=migrate
source "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
src=$LIBWRAP_SOURCE_DIR/tests/runtime/greenlet
mkdir -p lib
${CC:-cc} -O2 -fPIC -shared -Wl,-soname,libcb.so -o lib/libcb.so "$src/cb.c"
wrap_library callback '"cb.h"' "-I$src" "-L$PWD/lib -Wl,-rpath,$PWD/lib" -lcb
${CC:-cc} -O1 -pthread -I"$src" "$src/migrate.c" -o migrate -Llib -Wl,-rpath,"$PWD/lib" -lcb
n=1000
for mode in join live after; do
    ./migrate $mode $n > $mode.plain.out 2> $mode.plain.err || fail "$mode: the unwrapped run failed"
    st=0
    LD_PRELOAD=$PWD/libwrap_callback_runtime.so LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-$mode timeout 60 \
        ./migrate $mode $n > $mode.out 2> $mode.err || st=$?
    [ $st = 0 ] || fail "$mode: status $st under the wrapper: $(head -3 $mode.err)"
    cmp -s $mode.plain.out $mode.out || fail "$mode: stdout differs: $(cat $mode.out)"
    grep -v '^libwrap: ' $mode.err > $mode.rest || true
    cmp -s $mode.plain.err $mode.rest || fail "$mode: stderr differs: $(cat $mode.rest)"
    # The second thread's calls are its own, measured (its first call is
    # the one its coroutine returned from: not measured there).
    $CHECK exp-$mode "visits('cb_leaf') >= $n" >/dev/null || fail "$mode: the resuming thread's calls are not measured"
    if [ $mode = after ]; then
        # Every cb_leaf call at the top of its thread: none under the
        # migrated call's frame, whose visit is counted once.
        $CHECK exp-$mode "path('cb_leaf') == $((2 * n))" "visits('cb_call') == 1" ||
            fail "after: the first thread's calls once the call returned elsewhere"
    fi
    echo "ok: $mode: output and status as without libwrap, the resuming thread's $n calls measured"
done
