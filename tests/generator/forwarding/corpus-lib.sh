# corpus-lib.sh CASE (sourced by corpus-*.sh): loads a C case of the corpus
# ($LIBWRAP_CORPUS/CASE/case.env), enters a fresh scratch directory
# (tests/lib.sh, which defines fail), and generates the case's wrappers (NAME.wrappers.c, NAME.wrap) from
# its HEADERS with the staged libwrap-gen. Exits 77 (skipped) without the case.
case_name=$1
gen=$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen
inc=$LIBWRAP_STAGE/include
corpus=$LIBWRAP_CORPUS
[ -f "$corpus/$case_name/case.env" ] || { echo "SKIP: no corpus case $case_name"; exit 77; }
# shellcheck disable=SC1090
source "$corpus/$case_name/case.env"

. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"

printf '%s\n' "$HEADERS" > libwrap.h
# shellcheck disable=SC2086
$CC -E $CPPFLAGS libwrap.h > libwrap.i
"$gen" --quiet --name "$NAME" -x c --forward typed --cppflags "$CPPFLAGS" --ldflags "$LDFLAGS" --libs "$LIBS" \
    libwrap.i
