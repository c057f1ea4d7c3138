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

# Traced: the archive is written a thread's events at a time, each
# thread's writer closed after its last events (each kept its OTF2 chunk,
# up to 1 MiB, to the end: 50,000 threads made the kernel kill the
# process for memory there). The peak memory of the whole run stays far
# below a chunk a thread.
peak=$(/usr/bin/python3 - "$PWD" $n <<'PY'
import os, resource, subprocess, sys
d, n = sys.argv[1], sys.argv[2]
env = dict(os.environ, LD_PRELOAD=d + "/libwrap_zlib_runtime.so", LIBWRAP_ENABLE_TRACING="true",
           LIBWRAP_EXPERIMENT_DIRECTORY=d + "/exp-traced")
r = subprocess.run([d + "/seq_threads", n], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
)
[ "${peak%% *}" = 0 ] || fail "traced: status ${peak%% *}"
[ "${peak#* }" -lt 1048576 ] || fail "traced: peak memory ${peak#* } kB for $n threads"
"$OTF2_PRINT" exp-traced/traces.otf2 > events.txt || fail "traced: otf2-print rejects the trace"
[ "$(grep -c '^ENTER.*Region: "adler32"' events.txt)" = $n ] &&
    [ "$(grep -c '^ENTER' events.txt)" = "$(grep -c '^LEAVE' events.txt)" ] ||
    fail "traced: expected $n ENTER events of adler32, as many LEAVE events as ENTER ones"
echo "ok: traced: peak memory ${peak#* } kB, $n calls of adler32 entered and left"
