#!/usr/bin/env bash
# runaway.sh - a process ends while three threads still call zlib under
# LD_PRELOAD, traced: output as unwrapped, no warning; every thread's record
# ends at the one end tick: in each thread, at most the one adler32 call
# open at the end lacks its nested adler32_z, and the trace has a LEAVE for
# every ENTER on every location, in time order (OTF2 refuses events that go
# back in time). Repeated, since where the threads are at the end varies.
set -euo pipefail
TEST_LABEL=runaway
source "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
cc=${CC:-cc}
command -v "${OTF2_PRINT:-otf2-print}" > /dev/null || { echo "no otf2-print: skipped"; exit 77; }
$cc -O2 -o app "$LIBWRAP_SOURCE_DIR/tests/runtime/runaway_app.c" -lz -lpthread
wrap_library zlib '<zlib.h>' "" "" -lz
./app > plain.out 2> plain.err
for run in 1 2 3; do
    rm -rf exp
    LD_PRELOAD=$PWD/libwrap_zlib_runtime.so LIBWRAP_ENABLE_TRACING=true LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp \
        ./app > out 2> err || fail "run $run: exit status $?"
    cmp -s plain.out out || fail "run $run: stdout differs"
    cmp -s plain.err err || fail "run $run: stderr differs: $(cat err)"
    $CHECK exp "len(threads) == 3" "all(sum(1 for c in t['callpath']) >= 1 for t in threads)" \
        "all(0 <= a['visits'] - sum(c['visits'] for c in a['children'] if c['symbol'] == 'adler32_z') <= 1
             for t in threads for a in t['callpath'] if a['symbol'] == 'adler32')" ||
        fail "run $run: an adler32 call counted without its nested adler32_z"
    "${OTF2_PRINT:-otf2-print}" exp/traces.otf2 > trace.txt || fail "run $run: otf2-print cannot read the trace"
    awk '$1 == "ENTER" || $1 == "LEAVE" {
             if ($3 < last[$2]) { print "location " $2 ": time goes back"; bad = 1 }
             last[$2] = $3; n[$1 " " $2]++; locs[$2] = 1 }
         END { for (l in locs) if (n["ENTER " l] != n["LEAVE " l]) { print "location " l ": " n["ENTER " l] " ENTER, " n["LEAVE " l] " LEAVE"; bad = 1 }
               exit bad }' trace.txt || fail "run $run: the trace does not end consistently"
done
echo ok
