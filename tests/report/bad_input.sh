#!/usr/bin/env bash
# Bad input gives exit 1 and one clear message naming the file; bad usage
# gives exit 2; nothing ever crashes.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
report=$LIBWRAP_STAGE/bin/libwrap-report
make_trace=$1
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
good=$here/fixtures/two_threads/profile.json
fail=0

expect() { # EXIT PATTERN ARGS...: exit status and a stderr line matching PATTERN
    local want=$1 pattern=$2 rc=0; shift 2
    "$report" "$@" > out.txt 2> err.txt || rc=$?
    if [[ $rc != "$want" ]] || ! grep -Eq -- "$pattern" err.txt; then
        echo "FAIL: libwrap-report $*: exit $rc (want $want), stderr:"; cat err.txt
        echo "  (wanted /$pattern/)"; fail=1
    fi
}
profile() { mkdir -p "$1"; cat > "$1/profile.json"; }

head -c 1000 "$good" | profile truncated
expect 1 '^libwrap-report: truncated/profile.json: truncated JSON at byte 1000' truncated
echo '{"program": "x", "threads": []}' | profile foreign
expect 1 '^libwrap-report: foreign/profile.json: not a libwrap profile \(no "functions" array\)' foreign
echo '[1, 2, 3]' | profile array
expect 1 'array/profile.json: not a libwrap profile' array
profile empty < /dev/null
expect 1 'empty/profile.json: empty file' empty
printf '\x89PNG\r\n\x1a\n\0\0binary' | profile binary
expect 1 'binary/profile.json: invalid JSON at byte' binary
echo '{"functions": [{"symbol": "f", "visits": "many", "inclusive_ns": 1, "exclusive_ns": 1}]}' | profile badtype
expect 1 'badtype/profile.json: functions\[0\]\.visits: expected a number' badtype
# json-c reads NaN and Infinity, which JSON has not (the runtime writes null):
# a type error, not 0 visits.
echo '{"functions": [{"symbol": "f", "visits": NaN, "inclusive_ns": 1, "exclusive_ns": 1}]}' | profile nan
expect 1 'nan/profile.json: functions\[0\]\.visits: expected a number' nan
echo '{"functions": [{"symbol": "f", "visits": 1, "inclusive_ns": 1, "exclusive_ns": 1,
  "metrics": {"m": -Infinity}}]}' | profile inf
expect 1 'inf/profile.json: functions\[0\]\.metrics\.m: expected a number' inf
echo '{"functions": [{"symbol": "f", "visits": 1, "inclusive_ns": 1, "exclusive_ns": 1}],
  "threads": [{"id": 0, "callpath": [{"symbol": "f", "visits": 1, "inclusive_ns": 1, "exclusive_ns": 1,
  "children": [{"symbol": "g", "visits": 1}]}]}]}' | profile badnode
expect 1 'badnode/profile.json: threads\[0\]\.callpath\[0\]\.children\[0\]: missing "inclusive_ns"' badnode --tree
echo '{"functions": []} trailing' | profile trailing
expect 1 'trailing/profile.json: invalid JSON at byte 18: unexpected data' trailing
expect 1 'nowhere/profile.json: no such file' nowhere
# --timeline of a directory that is not there says so, not that its output
# cannot be created.
expect 1 'nowhere/traces.otf2: no such file; is this a libwrap experiment directory' --timeline nowhere
# A directory whose process ended before writing (killed): said so; not
# one whose results are there, without the file asked for.
mkdir -p unfinished && printf 'LIBWRAP_ENABLE_PROFILING=true\nLIBWRAP_ENABLE_TRACING=true\n' > unfinished/config.txt
expect 1 'unfinished/profile.json: not written: the process that began this directory .* ended before writing' unfinished
expect 1 'unfinished/traces.otf2: not written: the process that began this directory' --timeline unfinished
mkdir -p untraced && cp "$good" untraced/ &&
    printf 'LIBWRAP_ENABLE_PROFILING=true\nLIBWRAP_ENABLE_TRACING=false\n' > untraced/config.txt
expect 1 'untraced/traces.otf2: no trace here; run the program with LIBWRAP_ENABLE_TRACING=true' --timeline untraced
mkdir -p forkchild && cp "$good" forkchild/ &&
    printf 'LIBWRAP_ENABLE_PROFILING=true\nLIBWRAP_ENABLE_TRACING=true\n' > forkchild/config.txt
expect 1 'forkchild/traces.otf2: no trace here' --timeline forkchild
mkdir -p untraced_killed && printf 'LIBWRAP_ENABLE_PROFILING=true\nLIBWRAP_ENABLE_TRACING=false\n' > untraced_killed/config.txt
expect 1 'untraced_killed/traces.otf2: no trace here' --timeline untraced_killed
# Deep nesting (a hostile file) is refused, not a stack overflow.
python3 -c 'print("{\"functions\": " + "[" * 200000 + "]" * 200000 + "}")' | profile deep
expect 1 'deep/profile.json: invalid JSON' deep

# Traces.
mkdir -p notrace && cp "$good" notrace/
expect 1 'notrace/traces.otf2: no trace here; run the program with LIBWRAP_ENABLE_TRACING=true' --timeline notrace
[[ ! -e notrace/timeline.json ]] || { echo "FAIL: timeline.json left behind"; fail=1; }
# A failure never removes nor truncates a file that was there: the input is
# read first, the output written beside it and renamed into place.
kept() { # FILE: still "kept", and no temporary file beside it
    if [[ "$(cat "$1" 2>/dev/null)" != kept ]]; then echo "FAIL: $1 removed or changed by a failed run"; fail=1; fi
    if compgen -G "$(dirname "$1")/.*.tmp.*" > /dev/null; then echo "FAIL: temporary file left beside $1"; fail=1; fi
}
echo kept > notrace/timeline.json
expect 1 'notrace/traces.otf2: no trace here' --timeline notrace
kept notrace/timeline.json
echo kept > elsewhere.json
expect 1 'notrace/traces.otf2: no trace here' --timeline=elsewhere.json notrace
kept elsewhere.json
mkdir -p garbage && echo "not otf2" > garbage/traces.otf2
expect 1 'garbage/traces.otf2: not an OTF2 archive' --timeline garbage
mk() { rm -rf "$1"; mkdir -p "$1"; cp "$good" "$1/"; "$make_trace" "$1" 4000 2 > /dev/null; }
mk cut_evt && truncate -s 200 cut_evt/traces/0.evt
expect 1 'cut_evt/traces.otf2: cannot read events: .*OTF2 archive' --timeline cut_evt
[[ ! -e cut_evt/timeline.json ]] || { echo "FAIL: partial timeline.json left behind"; fail=1; }
expect 1 'cut_evt/traces.otf2: cannot read events' --html cut_evt
# Found bad only after the output was begun: the file there stays.
echo kept > cut_evt/timeline.json && echo kept > cut_evt/report.html
expect 1 'cut_evt/traces.otf2: cannot read events' --timeline cut_evt
kept cut_evt/timeline.json
expect 1 'cut_evt/traces.otf2: cannot read events' --html cut_evt
kept cut_evt/report.html
mk cut_def && truncate -s 40 cut_def/traces.def
expect 1 'cut_def/traces.otf2: cannot read the global definitions' --timeline cut_def
mk no_evt && rm no_evt/traces/1.evt
expect 1 'no_evt/traces.otf2: cannot open the events of location thread 1' --timeline no_evt
mk no_def && rm no_def/traces.def
expect 1 'no_def/traces.otf2: cannot open the global definitions' --timeline no_def
mk good_trace
expect 1 '/nonexistent/dir/t.json: cannot create' --timeline=/nonexistent/dir/t.json good_trace
expect 1 '/nonexistent/dir/f.svg: cannot create' --flamegraph=/nonexistent/dir/f.svg good_trace
# Success replaces the file, with a new file's mode, and leaves no
# temporary file.
echo old > good_trace/timeline.json && echo old > good_trace/flamegraph.svg && echo old > good_trace/report.html
chmod 600 good_trace/report.html
"$report" --timeline --flamegraph --html good_trace > /dev/null 2> err.txt || { echo "FAIL: good trace"; cat err.txt; fail=1; }
grep -q '"traceEvents"' good_trace/timeline.json || { echo "FAIL: timeline.json not replaced"; fail=1; }
grep -q '<svg' good_trace/flamegraph.svg || { echo "FAIL: flamegraph.svg not replaced"; fail=1; }
grep -q '<!DOCTYPE html>' good_trace/report.html || { echo "FAIL: report.html not replaced"; fail=1; }
[[ -z "$(find good_trace -maxdepth 1 -name '.*.tmp.*')" ]] || { echo "FAIL: temporary files left"; fail=1; }
[[ $(stat -c %a good_trace/timeline.json) == $(printf '%o' $((0666 & ~$(umask)))) ]] ||
    { echo "FAIL: timeline.json has mode $(stat -c %a good_trace/timeline.json)"; fail=1; }
"$report" --timeline=/dev/null good_trace > /dev/null 2> err.txt || { echo "FAIL: --timeline=/dev/null"; cat err.txt; fail=1; }

# A rank whose directory cannot be read (another user's) is an error naming
# it, not a rank that is missing ("3 of 4 ranks", status 0). Root reads
# every directory: the check then runs as nobody, where that is possible.
for r in 0 1 2 3; do
    mkdir -p job/rank-$r
    sed "s/\"pid\": 4242,/\"pid\": 4242, \"rank\": $r, \"size\": 4, \"launcher\": \"mpirun\", \"job\": \"7\",/" "$good" \
        > job/rank-$r/profile.json
done
"$report" job > out.txt 2> err.txt && grep -q '4 ranks' out.txt || { echo "FAIL: the job of 4 ranks"; cat out.txt err.txt; fail=1; }
chmod -R a+rX job && chmod 000 job/rank-2
trap 'chmod 755 "$LIBWRAP_SCRATCH/job/rank-2" 2> /dev/null || true' EXIT
as_other=()
if [[ $(id -u) == 0 ]]; then
    as_other=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    "${as_other[@]}" test -r job/rank-0/profile.json -a -x "$report" 2> /dev/null || as_other=(skip)
fi
if [[ ${as_other[0]:-} == skip ]]; then
    echo "note: the unreadable rank is not checked (root, and nobody cannot reach $PWD)"
else
    rc=0
    "${as_other[@]}" "$report" job > out.txt 2> err.txt || rc=$?
    if [[ $rc != 1 ]] || ! grep -q '^libwrap-report: job/rank-2: permission denied' err.txt; then
        echo "FAIL: an unreadable rank: exit $rc (want 1), stderr:"; cat err.txt; fail=1
    fi
    "${as_other[@]}" "$report" --rank 1 job > out.txt 2> err.txt ||
        { echo "FAIL: --rank 1 of a job whose rank 2 cannot be read"; cat err.txt; fail=1; }
fi
chmod 755 job/rank-2

# Usage.
expect 2 'missing DIR' 
expect 2 "unknown or incomplete option '--frobnicate'" --frobnicate x
expect 2 '--format=xml: expected text, tsv or json' --format=xml x
expect 2 '--sort=size: expected' --sort=size x
expect 2 '--top -3: expected a number' --top -3 x
expect 2 '--diff needs two experiment directories' --diff x
expect 2 'expected one experiment directory, got 2 arguments' a b
"$report" --help | grep -q '^usage: libwrap-report' || { echo "FAIL: --help"; fail=1; }
exit $fail
