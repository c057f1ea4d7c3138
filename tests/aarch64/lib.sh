# shellcheck shell=bash
# lib.sh - sourced by the AArch64 lane's tests (tests/aarch64): the
# emulator (or a skip, 77), the staged toolchain on PATH, fail, run_ok and
# visits. Each test runs in its scratch directory LIBWRAP_SCRATCH.
set -euo pipefail
lane=$LIBWRAP_SOURCE_DIR/tests/aarch64
examples=$LIBWRAP_SOURCE_DIR/examples
host=aarch64-linux-gnu
bash "$lane/emulator.sh" -q || exit 77
[ -f "$LIBWRAP_STAGE/lib/$host/liblibwrap_runtime.so" ] || {
    echo "aarch64 lane skipped: the toolchain has no $host runtime (cmake -DLIBWRAP_TARGETS=$host)"; exit 77; }
export PATH=$LIBWRAP_STAGE/bin:$PATH
rm -rf "$LIBWRAP_SCRATCH" && mkdir -p "$LIBWRAP_SCRATCH" && cd "$LIBWRAP_SCRATCH"
CHECK="python3 $LIBWRAP_SOURCE_DIR/tests/runtime/check_profile.py"

fail() { echo "FAIL: $*" >&2; exit 1; }
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
