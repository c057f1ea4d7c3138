#!/usr/bin/env bash
# corpus-counts.sh CASE RUNTIME_LIB - a corpus case's example program, built
# by the corpus's own check-case.sh, wrapped at link time and preloaded at
# run time with the real runtime: its output digest must stay the unwrapped
# one, and profile.json's visits per symbol must equal the reference counts
# (expected-ltrace-main.txt: the "exe" column for ld --wrap, which sees the
# program's own calls; the "all" column for LD_PRELOAD, which also sees the
# library calling its own exported functions).
set -euo pipefail

runtime_lib=$2
source "$LIBWRAP_SOURCE_DIR/tests/generator/forwarding/corpus-lib.sh" "$1"
here=$PWD
rtdir=$(dirname "$runtime_lib")
for mode in linktime runtime; do
    MODE=$(echo "$mode" | tr a-z A-Z)
    # shellcheck disable=SC2086
    $CC -O2 -fPIC -DLIBWRAP_$MODE $CPPFLAGS -I"$inc" -c "$NAME.wrappers.c" -o $mode.o
done
ar rcs "libwrap_${NAME}_linktime.a" linktime.o
$CC -shared -o "libwrap_${NAME}_runtime.so" runtime.o "$runtime_lib" -ldl -Wl,-rpath,"$rtdir"

# symbol -> visits, from the "functions" list (it precedes "threads").
visits() {
    awk '/"threads"/ { exit }
         /"symbol":/ { gsub(/[",]/, "", $2); sym = $2 }
         /"visits":/ { gsub(/[^0-9]/, "", $2); print sym, $2 }' "$1" | sort
}

# expected COLUMN: symbol -> count for the header's functions, zeros left out.
expected() {
    awk -v col="$1" '!/^#/ && $3 == "y" && $4 !~ /^\(/ && $col > 0 { print $4, $col }' \
        "$corpus/$case_name/expected-ltrace-main.txt" | sort
}

check() {
    local mode=$1 column=$2
    shift 2
    mkdir -p "$mode"
    LIBWRAP_EXPERIMENT_DIRECTORY=$here/$mode/experiment BUILD_DIR=$here/$mode "$@" \
        bash "$corpus/check-case.sh" "$case_name" > "$mode/sums" ||
        fail "$mode: check-case.sh failed (output digest or run)"
    visits "$mode/experiment/profile.json" > "$mode/visits"
    expected "$column" > "$mode/expected"
    diff "$mode/expected" "$mode/visits" >&2 ||
        fail "$mode: measured visits (right) differ from the reference counts (left)"
    echo "ok $mode: $(wc -l < "$mode/visits") functions measured"
}

check linktime 1 env MAIN_LINK_EXTRA="-Wl,@$here/$NAME.wrap $here/libwrap_${NAME}_linktime.a $runtime_lib -Wl,-rpath,$rtdir"
check runtime 2 env MAIN_RUN="env LD_PRELOAD=$here/libwrap_${NAME}_runtime.so"
