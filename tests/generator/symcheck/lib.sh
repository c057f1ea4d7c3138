# Helpers shared by the generator_symcheck_ tests (sourced), after tests/lib.sh.
set -u
DRIVER=$1
: "${LIBWRAP_SCRATCH:?run through ctest}"
CC=${CC:-cc}
S=$LIBWRAP_SCRATCH
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
fails=0

# expect DESCRIPTION PATTERN TEXT: TEXT must match the extended regex.
expect() {
    if printf '%s\n' "$3" | grep -Eq -- "$2"; then
        echo "ok   $1"
    else
        echo "FAIL $1: /$2/ not in:"; printf '%s\n' "$3" | sed 's/^/    /'
        fails=$((fails + 1))
    fi
}

# reject DESCRIPTION PATTERN TEXT: TEXT must not match.
reject() {
    if printf '%s\n' "$3" | grep -Eq -- "$2"; then
        echo "FAIL $1: /$2/ unexpectedly in:"; printf '%s\n' "$3" | sed 's/^/    /'
        fails=$((fails + 1))
    else
        echo "ok   $1"
    fi
}

finish() {
    echo "$fails failure(s)"
    [ "$fails" -eq 0 ]
}
