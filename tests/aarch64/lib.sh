# shellcheck shell=bash
# lib.sh - sourced by the AArch64 lane's tests (tests/aarch64), after
# tests/lib.sh (the scratch directory, fail, skip, CHECK): the emulator (or
# a skip, 77), the staged toolchain on PATH, run_ok, visits and same_run.
set -euo pipefail
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
lane=$LIBWRAP_SOURCE_DIR/tests/aarch64
examples=$LIBWRAP_SOURCE_DIR/examples
host=aarch64-linux-gnu
bash "$lane/emulator.sh" -q || exit 77
[ -f "$LIBWRAP_STAGE/lib/$host/liblibwrap_runtime.so" ] ||
    skip "the toolchain has no $host runtime (cmake -DLIBWRAP_TARGETS=$host)"
export PATH=$LIBWRAP_STAGE/bin:$PATH
# run_ok LOG CMD...: runs CMD, its output in LOG, shown when it fails.
run_ok() {
    local log=$1; shift
    "$@" > "$log" 2>&1 || { cat "$log" >&2; fail "$* (exit $?)"; }
}
# visits DIR: "SYMBOL VISITS" of every function of DIR/profile.json.
visits() {
    python3 -c 'import json,sys
for f in json.load(open(sys.argv[1] + "/profile.json"))["functions"]:
    print(f["symbol"], f["visits"])' "$1"
}
# same_run NAME CMD...: CMD's stdout, stderr and exit status are those of
# the unwrapped run (plain.out, plain.err, plain.status).
same_run() {
    local name=$1 s=0; shift
    "$@" > "$name.out" 2> "$name.err" || s=$?
    [ "$s" = "$(cat plain.status)" ] || fail "$name: exit status $s, unwrapped $(cat plain.status)"
    cmp -s plain.out "$name.out" || { diff plain.out "$name.out" | head >&2; fail "$name: stdout differs"; }
    cmp -s plain.err "$name.err" || { diff plain.err "$name.err" | head >&2; fail "$name: stderr differs"; }
}
