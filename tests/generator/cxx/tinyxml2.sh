#!/usr/bin/env bash
# tinyxml2.sh RUNTIME_LIB - the corpus's C++ case: wrappers generated from
# the case's HEADERS compile under -Wall -Wextra -Werror in both linkages;
# its main.cc, linked with the link-time wrappers and run with the runtime
# wrappers preloaded (the corpus's check-case.sh), prints the unwrapped
# output digest; the visits per symbol equal the reference counts
# (expected-ltrace-main.txt and expected-uftrace-main.txt agree on them):
# the "exe" column at link time, the "all" column at run time, except for
# the virtual calls listed in tinyxml2-differences.txt.
set -euo pipefail

runtime_lib=$1
case_name=tinyxml2
gen=$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen
inc=$LIBWRAP_STAGE/include
src=$LIBWRAP_SOURCE_DIR/tests/generator/cxx
corpus=$LIBWRAP_CORPUS
rtdir=$(dirname "$runtime_lib")
CXX=${CXX:-g++}
[ -f "$corpus/$case_name/case.env" ] || { echo "SKIP: no corpus case $case_name"; exit 77; }
# shellcheck disable=SC1090
source "$corpus/$case_name/case.env"
[ -f "$SHARED_LIB" ] || { echo "SKIP: $SHARED_LIB is not installed"; exit 77; }

. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
here=$PWD

printf '%s\n' "$HEADERS" > libwrap.h
# shellcheck disable=SC2086
$CXX -E -x c++ $CPPFLAGS libwrap.h > libwrap.i
"$gen" --quiet --name "$NAME" -x c++ --forward typed --cppflags "$CPPFLAGS" --ldflags "$LDFLAGS" --libs "$LIBS" \
    libwrap.i
grep -q '^_ZN8tinyxml210XMLPrinter5PrintEPKcz.*no va_list twin' "$NAME.skipped.txt" ||
    fail "the variadic XMLPrinter::Print is not reported as left out"

for mode in linktime runtime; do
    MODE=$(echo "$mode" | tr a-z A-Z)
    # shellcheck disable=SC2086
    $CXX -O2 -fPIC -Wall -Wextra -Werror -DLIBWRAP_$MODE $CPPFLAGS -I"$inc" -x c++ \
        -c "$NAME.wrappers.c" -o $mode.o 2> $mode.log ||
        { head -n 30 $mode.log >&2; fail "the $mode wrappers do not compile cleanly"; }
done
ar rcs "libwrap_${NAME}_linktime.a" linktime.o
$CXX -shared -Wl,--no-undefined -o "libwrap_${NAME}_runtime.so" runtime.o "$runtime_lib" -ldl \
    -Wl,-rpath,"$rtdir"
sed -n 's/^--wrap=//p' "$NAME.wrap" | LC_ALL=C sort > wrapped

visits() {
    python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["functions"]:
    print(f["symbol"], f["visits"])' "$1" | LC_ALL=C sort
}

# reference TOOL COLUMN: symbol -> count, zeros left out. Every symbol with a
# count must be wrapped, or the comparison would hide it.
reference() {
    awk -v col="$2" '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && $4 ~ /^[A-Za-z_]/ && $col > 0 { print $4, $col }' \
        "$corpus/$case_name/expected-$1-main.txt" | LC_ALL=C sort > ref.$1.$2
    join -v1 ref.$1.$2 wrapped > unwrapped.$1.$2
    [ ! -s unwrapped.$1.$2 ] || { cat unwrapped.$1.$2 >&2; fail "$1: called but not wrapped"; }
}

check() {
    local mode=$1 column=$2
    shift 2
    mkdir -p "$mode"
    LIBWRAP_EXPERIMENT_DIRECTORY=$here/$mode/experiment BUILD_DIR=$here/$mode CXX=$CXX "$@" \
        bash "$corpus/check-case.sh" "$case_name" > "$mode/sums" ||
        fail "$mode: check-case.sh failed (output digest or run)"
    visits "$mode/experiment/profile.json" > "$mode/visits"
    for tool in ltrace uftrace; do
        reference $tool "$column"
        if [ "$mode" = runtime ]; then
            # The listed differences replace the reference's counts.
            grep -v '^#' "$src/tinyxml2-differences.txt" | LC_ALL=C sort > differences
            join -v1 ref.$tool.$column differences | cat - differences | LC_ALL=C sort > expected.$tool
        else
            cp ref.$tool.$column expected.$tool
        fi
        diff expected.$tool "$mode/visits" >&2 ||
            fail "$mode: measured visits (right) differ from the $tool reference (left)"
    done
    echo "ok $mode: $(wc -l < "$mode/visits") functions measured"
}

check linktime 1 env MAIN_LINK_EXTRA="-Wl,@$here/$NAME.wrap $here/libwrap_${NAME}_linktime.a $runtime_lib -Wl,-rpath,$rtdir"
check runtime 2 env MAIN_RUN="env LD_PRELOAD=$here/libwrap_${NAME}_runtime.so"
