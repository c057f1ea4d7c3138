# shellcheck shell=bash
# Shared helpers of the workflow tests (sourced), after tests/lib.sh (a
# fresh scratch directory as the working directory, no LIBWRAP_* inherited,
# fail, skip).
set -euo pipefail
: "${LIBWRAP_STAGE:?run through ctest}" "${LIBWRAP_SCRATCH:?run through ctest}"
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
export PATH=$LIBWRAP_STAGE/bin:$PATH
export CC=${CC:-cc} CXX=${CXX:-c++}
# A toolchain's user commands, nothing from the caller's environment.
unset LIBWRAP_PATH LIBWRAP_EXPERIMENT_DIRECTORY LIBWRAP_FILTERING_FILE LIBWRAP_ENABLE_TRACING MAKEFLAGS
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
examples=$LIBWRAP_SOURCE_DIR/examples
scratch=$LIBWRAP_SCRATCH

step() { echo "--- $*"; }

# expect_fail LOG PATTERN CMD...: CMD must fail and its output match PATTERN (ERE).
expect_fail() {
    local log=$1 pat=$2; shift 2
    if "$@" > "$log" 2>&1; then cat "$log"; fail "expected failure: $*"; fi
    grep -Eq -- "$pat" "$log" || { cat "$log"; fail "message of '$*' does not match /$pat/"; }
    echo "ok (fails as expected): $*"; grep -E -m1 -- "$pat" "$log" | sed 's/^/    /'
}
# run_ok LOG CMD...: CMD must succeed; its output is shown on failure.
run_ok() {
    local log=$1; shift
    "$@" > "$log" 2>&1 || { cat "$log"; fail "command failed: $*"; }
}

# visits DIR: "SYMBOL VISITS" of DIR/profile.json's "functions".
visits() {
    python3 - "$1/profile.json" <<'PY'
import json, sys
for f in json.load(open(sys.argv[1]))["functions"]:
    print(f["symbol"], f["visits"])
PY
}
