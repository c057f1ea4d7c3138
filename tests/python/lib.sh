# Shared set-up of the Python tests (sourced after TEST_LABEL is set): the
# runtime tests' set-up (scratch directory, no inherited LIBWRAP_*, fail),
# skip (77), and PY: Debian's own python3 with the package on its path.
. "$LIBWRAP_SOURCE_DIR/tests/runtime/lib.sh"

skip() {
    echo "SKIP ($TEST_LABEL): $*"
    exit 77
}

PY=${PYTHON3:-/usr/bin/python3}
[ -x "$PY" ] || skip "no python3 found"
"$PY" -c 'import pandas, numpy, matplotlib, otf2' 2> /dev/null ||
    skip "$PY lacks pandas, numpy, matplotlib or otf2 (Debian: apt-get install python3-pandas python3-numpy python3-matplotlib python3-otf2)"
