# Shared set-up of the Python tests (sourced): tests/lib.sh (scratch
# directory, no inherited LIBWRAP_*, fail, skip), and PY: Debian's own
# python3 with the package on its path.
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"

PY=${PYTHON3:-/usr/bin/python3}
[ -x "$PY" ] || skip "no python3 found"
"$PY" -c 'import pandas, numpy, matplotlib, otf2' 2> /dev/null ||
    skip "$PY lacks pandas, numpy, matplotlib or otf2 (Debian: apt-get install python3-pandas python3-numpy python3-matplotlib python3-otf2)"
