# Shared set-up of the runtime test scripts (sourced): a fresh scratch
# directory as the working directory, no LIBWRAP_* setting inherited from the
# caller (each test makes its own), CHECK (the profile checker) and fail.
# The sourcing script sets TEST_LABEL first.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CHECK="python3 $here/check_profile.py"
: "${LIBWRAP_SCRATCH:?LIBWRAP_SCRATCH must name the scratch directory of the test}"
rm -rf "$LIBWRAP_SCRATCH"
mkdir -p "$LIBWRAP_SCRATCH"
cd "$LIBWRAP_SCRATCH"
for v in $(compgen -e); do
    case $v in
        LIBWRAP_STAGE | LIBWRAP_SOURCE_DIR | LIBWRAP_BINARY_DIR | LIBWRAP_CORPUS | LIBWRAP_SCRATCH) ;;
        LIBWRAP_*) unset "$v" ;;
    esac
done

fail() {
    echo "FAIL ($TEST_LABEL): $*" >&2
    exit 1
}
