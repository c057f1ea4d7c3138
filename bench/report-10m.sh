#!/usr/bin/env bash
# Benchmark: libwrap-report on a trace of 10 million events.
# Generates the trace with the test fixture writer, then times --timeline
# (Chrome JSON, every event) and --html (downsampled timeline) and prints
# wall time and peak memory against the 30 s target.
#   bench/report-10m.sh [BUILD_DIR] [EVENTS]     (default ./build, 10000000)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
events=${2:-10000000}
report=$build/stage/bin/libwrap-report
make_trace=$build/tests/report/report_make_trace
for f in "$report" "$make_trace"; do
    [[ -x $f ]] || { echo "report-10m: $f not built; run cmake --build $build first" >&2; exit 1; }
done
[[ -x /usr/bin/time ]] || { echo "report-10m: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/libwrap-report-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$here/tests/report/fixtures/two_threads/profile.json" "$work/"
"$make_trace" "$work" "$events" 4 2500000000 1
echo "trace: $events events on 4 threads, $(du -sh "$work/traces" | cut -f1) of OTF2"

target=30
measure() { # LABEL ARGS...
    local label=$1; shift
    /usr/bin/time -f "%e %M" -o "$work/time.txt" "$report" "$@" > /dev/null
    read -r secs kb < "$work/time.txt"
    awk -v l="$label" -v s="$secs" -v kb="$kb" -v t="$target" \
        'BEGIN { printf "%-10s %7.2f s  (%.3f of the %d s target)  max RSS %6.1f MB\n", l, s, s / t, t, kb / 1024 }'
}
measure timeline --timeline="$work/timeline.json" "$work"
echo "           output $(du -h "$work/timeline.json" | cut -f1)"
rm -f "$work/timeline.json"
measure html --html="$work/report.html" "$work"
echo "           output $(du -h "$work/report.html" | cut -f1)"
