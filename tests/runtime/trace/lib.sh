# Helpers for the trace tests: run a program, print its archive with
# otf2-print, and count events.
# After tests/lib.sh; a failure shows the head of out.txt and err.txt.
set -euo pipefail
FAIL_SHOW="out.txt err.txt"
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"

# print_trace DIR : events into events.txt, definitions into defs.txt; fails unless otf2-print accepts both
print_trace() {
    "$OTF2_PRINT" "$1/traces.otf2" > events.txt 2> print.err || fail "otf2-print rejects $1/traces.otf2: $(head -3 print.err)"
    "$OTF2_PRINT" -G "$1/traces.otf2" > defs.txt 2>> print.err || fail "otf2-print -G rejects $1/traces.otf2"
    [ ! -s print.err ] || fail "otf2-print complains: $(head -3 print.err)"
}

# count KIND [REGION [LOCATION]] : number of KIND records (ENTER, LEAVE, METRIC, BUFFER_FLUSH)
count() {
    awk -v k="$1" -v r="${2:-}" -v l="${3:-}" '
        $1 == k && (r == "" || index($0, "Region: \"" r "\" <")) && (l == "" || $2 == l) { n++ }
        END { print n + 0 }' events.txt
}

expect_eq() { [ "$2" = "$3" ] || fail "$1: expected $3, got $2"; }
