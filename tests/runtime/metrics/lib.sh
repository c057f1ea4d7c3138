# Helpers for the metric tests: run the driver with only the given
# LIBWRAP_METRIC_* variables, keep its stdout/stderr, and check them.
# After tests/lib.sh; a failure shows the driver's stdout and stderr
# (out.txt, err.txt).
set -euo pipefail
FAIL_SHOW="out.txt err.txt"
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"

# run NAME VAR=VALUE... : runs the driver into NAME.out / NAME.err (also out.txt, err.txt)
run() {
    local name=$1; shift
    local rc=0
    env "$@" "$DRIVER" > "$name.out" 2> "$name.err" || rc=$?
    cp "$name.out" out.txt; cp "$name.err" err.txt
    [ "$rc" -eq 0 ] || fail "$name: driver exited with $rc"
}

# value WHO NAME : the delta the driver printed for metric NAME on WHO (main|thread)
value() { awk -v w="$1" -v n="$2" '$1=="delta" && $2==w && $3==n {print $4}' out.txt; }

expect_count() { grep -qx "count $1" out.txt || fail "expected $1 metrics"; }
expect_no_warning() { [ ! -s err.txt ] || fail "unexpected output on stderr"; }
# expect_one_warning PATTERN : stderr is exactly one line, a libwrap warning matching PATTERN
expect_one_warning() {
    [ "$(wc -l < err.txt)" -eq 1 ] || fail "expected exactly one line on stderr"
    grep -q "^libwrap: warning: .*$1" err.txt || fail "warning does not match '$1'"
}
expect_positive() {
    local v; v=$(value "$1" "$2")
    [ -n "$v" ] && [ "$v" -gt 0 ] || fail "$2 on $1: expected a positive delta, got '${v}'"
}
