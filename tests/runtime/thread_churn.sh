#!/usr/bin/env bash
# thread_churn.sh - a process that makes many threads in turn (a server's thread
# a request), each calling a wrapped function once, under the preloaded
# ABI-level zlib wrapper: visits as made, and the address space does not
# grow with the threads the process ever had (each kept its 1.5 MiB of
# return slots: 3,000 threads took 4.5 GB, and under a limit on it the
# later threads' calls went unmeasured with a warning about memory).
set -euo pipefail
TEST_LABEL=thread_churn
source "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
src=$LIBWRAP_SOURCE_DIR/tests/runtime/threads
wrap_library zlib '<zlib.h>' "" "" -lz
${CC:-cc} -O2 -pthread "$src/seq_threads.c" -o seq_threads -lz
n=3000
./seq_threads $n > plain.out 2> plain.err || fail "the unwrapped program failed"
LD_PRELOAD=$PWD/libwrap_zlib_runtime.so LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp ./seq_threads $n > out 2> err ||
    fail "status $?: $(cat err)"
cmp -s plain.out out || fail "stdout differs: $(cat out)"
grep -v '^grew ' err > own.err || true
[ ! -s own.err ] || fail "libwrap said: $(cat own.err)"
grew=$(sed -n 's/^grew \(-*[0-9]*\) kB$/\1/p' err)
[ -n "$grew" ] && [ "$grew" -lt 262144 ] || fail "the address space grew by $grew kB over $n threads"
$CHECK exp "visits('adler32') == $n" "len(threads) == $n" >/dev/null
echo "ok: $n threads one after another: $n visits, the address space grew by $grew kB"
