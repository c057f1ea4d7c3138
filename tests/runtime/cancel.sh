#!/usr/bin/env bash
# cancel.sh - a thread with a deferred cancellation request waiting calls
# wrapped functions, traced, then reaches its cancellation point: the
# runtime's own I/O (the experiment directory at the first call, the trace's
# flushes with their lock held, messages) is no cancellation point, so the
# request acts where the program asked for it: every call returns, the
# output is the unwrapped run's, no hang, results written. The calls: 1,
# more than a trace buffer holds (flushes), and with LIBWRAP_VERBOSE=thread.
set -euo pipefail
TEST_LABEL=cancel
source "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
cc=${CC:-cc}
$cc -O2 -o app "$LIBWRAP_SOURCE_DIR/tests/runtime/cancel_app.c" -lz -lpthread
wrap_library zlib '<zlib.h>' "" "" -lz
for c in "1" "300000 early" "10 early:verbose"; do
    set -- $c
    n=$1 how=${2:-}
    name=run-$n
    ./app $n ${how%:*} > $name.plain 2>&1
    grep -q "cancelled" $name.plain || fail "$name: the unwrapped thread was not cancelled: $(cat $name.plain)"
    st=0
    env LD_PRELOAD=$PWD/libwrap_zlib_runtime.so LIBWRAP_ENABLE_TRACING=true LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/$name \
        $( [ "${how#*:}" = verbose ] && echo LIBWRAP_VERBOSE=thread ) timeout 60 ./app $n ${how%:*} > $name.out 2> $name.err || st=$?
    [ $st != 124 ] || fail "$name: hangs (killed after 60 s)"
    [ $st = 0 ] || fail "$name: exit status $st: $(cat $name.err)"
    cmp -s $name.plain $name.out || fail "$name: output '$(cat $name.out)', unwrapped '$(cat $name.plain)'"
    [ "${how#*:}" = verbose ] && { grep -q "thread 1 started" $name.err || fail "$name: the thread's message was lost"; }
    want=$n
    [ "${how%:*}" = early ] && want=$((n + 1))
    $CHECK $name "visits('crc32') == $want" || fail "$name: crc32 visits"
    [ -s $name/traces.otf2 ] || fail "$name: no trace"
done
echo ok
