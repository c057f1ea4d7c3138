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
echo '{"functions": [{"symbol": "f", "visits": 1, "inclusive_ns": 1, "exclusive_ns": 1}],
  "threads": [{"id": 0, "callpath": [{"symbol": "f", "visits": 1, "inclusive_ns": 1, "exclusive_ns": 1,
  "children": [{"symbol": "g", "visits": 1}]}]}]}' | profile badnode
expect 1 'badnode/profile.json: threads\[0\]\.callpath\[0\]\.children\[0\]: missing "inclusive_ns"' badnode --tree
echo '{"functions": []} trailing' | profile trailing
expect 1 'trailing/profile.json: invalid JSON at byte 18: unexpected data' trailing
expect 1 'nowhere/profile.json: no such file' nowhere
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
mkdir -p garbage && echo "not otf2" > garbage/traces.otf2
expect 1 'garbage/traces.otf2: not an OTF2 archive' --timeline garbage
mk() { rm -rf "$1"; mkdir -p "$1"; cp "$good" "$1/"; "$make_trace" "$1" 4000 2 > /dev/null; }
mk cut_evt && truncate -s 200 cut_evt/traces/0.evt
expect 1 'cut_evt/traces.otf2: cannot read events: .*OTF2 archive' --timeline cut_evt
[[ ! -e cut_evt/timeline.json ]] || { echo "FAIL: partial timeline.json left behind"; fail=1; }
expect 1 'cut_evt/traces.otf2: cannot read events' --html cut_evt
mk cut_def && truncate -s 40 cut_def/traces.def
expect 1 'cut_def/traces.otf2: cannot read the global definitions' --timeline cut_def
mk no_evt && rm no_evt/traces/1.evt
expect 1 'no_evt/traces.otf2: cannot open the events of location thread 1' --timeline no_evt
mk no_def && rm no_def/traces.def
expect 1 'no_def/traces.otf2: cannot open the global definitions' --timeline no_def
expect 1 'cannot create' --timeline=/nonexistent/dir/t.json no_def

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
