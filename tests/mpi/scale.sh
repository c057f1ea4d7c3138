#!/bin/bash
# scale.sh SETUP_DIR [CALLS [NP...]] - how a traced job scales on this
# machine (docs/mpi.md, "Scale"): for each number of ranks, the MPI program
# of the tests (2 threads per rank, CALLS calls each) under mpirun
# --oversubscribe, unmeasured and traced; prints wall time of both, trace
# bytes per event, each rank's time to write its results, the merge time
# and the files in the job directory. Not part of ctest: run it by hand
# after `ctest -R mpi_setup` (SETUP_DIR is build/tests/scratch/mpi_setup).
#   tests/mpi/scale.sh build/tests/scratch/mpi_setup 10000 4 16 64 128
set -eu
S=$(cd "$1" && pwd)
CALLS=${2:-10000}
shift $(($# > 1 ? 2 : 1))
NPS=("$@")
[ ${#NPS[@]} -gt 0 ] || NPS=(4 16 64)
stage=$(cd "$(dirname "$0")/../.." && pwd)
for d in "$S/../../../stage" "$stage/build/stage"; do
    [ -x "$d/bin/libwrap-info" ] && export PATH=$d/bin:$PATH && break
done
export LIBWRAP_PATH=$S/prefix
PRELOAD=$(libwrap-info preload mlib)
opts=(--oversubscribe)
[ "$(id -u)" = 0 ] && opts+=(--allow-run-as-root)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

now() { date +%s.%N; }
printf '%6s %10s %10s %10s %12s %10s %12s %12s %10s %8s\n' ranks plain_s traced_s events bytes bytes/ev \
    write_mean_ms write_max_ms merge_ms files
for np in "${NPS[@]}"; do
    rm -rf run
    mkdir run
    t0=$(now)
    (cd run && mpirun "${opts[@]}" -np "$np" "$S/app" "$CALLS" > /dev/null 2>&1) || { echo "$np ranks: the unmeasured run fails"; break; }
    t1=$(now)
    rm -rf run
    mkdir run
    (cd run && mpirun "${opts[@]}" -np "$np" -x LD_PRELOAD="$PRELOAD" -x LIBWRAP_ENABLE_TRACING=true \
        -x LIBWRAP_VERBOSE=lifecycle,job "$S/app" "$CALLS" > /dev/null 2> ../log) || { echo "$np ranks: the traced run fails"; break; }
    t2=$(now)
    d=$(ls -d run/libwrap-*)
    events=$(otf2-print -G "$d/traces.otf2" | awk '/^LOCATION / { for (i = 1; i <= NF; i++) if ($i == "Events:") n += $(i + 1) } END { print n + 0 }')
    bytes=$(cat "$d"/traces/*.evt | wc -c)
    write=$(sed -n 's/.*results written to .*trace \([0-9.]*\) ms.*/\1/p' log |
        awk '{ s += $1; if ($1 > m) m = $1 } END { printf "%.1f %.1f", s / NR, m }')
    merge=$(sed -n 's/.*merged [0-9]* trace parts .* in \([0-9.]*\) ms/\1/p' log)
    files=$(find "$d" | wc -l)
    printf '%6s %10.2f %10.2f %10s %12s %10.1f %12s %12s %10s %8s\n' "$np" "$(echo "$t1 - $t0" | bc)" \
        "$(echo "$t2 - $t1" | bc)" "$events" "$bytes" "$(echo "$bytes / $events" | bc -l)" \
        ${write% *} ${write#* } "${merge:-?}" "$files"
done
