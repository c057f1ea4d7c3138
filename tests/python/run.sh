#!/bin/bash
# run.sh NAME - one Python test (test_libwrap.py's test_NAME) on the results
# made by setup.sh, with the package as `libwrap-info python-path` gives it.
set -eu
TEST_LABEL=py_$1
pyhere=$(cd "$(dirname "$0")" && pwd)
. "$pyhere/lib.sh"
[ -f "$PY_SETUP/ready" ] || skip "python_setup did not run or was skipped"
export PYTHONPATH=$("$LIBWRAP_STAGE/bin/libwrap-info" python-path)
export MPLBACKEND=Agg
"$PY" "$pyhere/test_libwrap.py" "$1" "$PY_SETUP" || fail "test_$1 failed"
echo "PASS ($TEST_LABEL)"
