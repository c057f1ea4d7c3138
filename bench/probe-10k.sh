#!/bin/bash
# probe-10k.sh - how fast `libwrap-gen check` confirms 10,000 symbols.
#
#   bench/probe-10k.sh [BUILD_DIR] [JOBS]
#
# Builds a library that exports 9,000 of 10,000 declared functions, runs the
# compile-and-link probes once cold and once from the cache, and prints the
# times against the 60 s target. Uses BUILD_DIR's staged libwrap-gen, which
# also writes the inventory from a header of the 10,000 declarations.
set -eu
build=${1:-build}
jobs=${2:-$(nproc)}
cc=${CC:-cc}
gen=$build/stage/libexec/libwrap/libwrap-gen
[ -x "$gen" ] || { echo "probe-10k: no libwrap-gen in $build: build it first" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/probe-10k.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lib" "$work/out"

awk 'BEGIN { for (i = 0; i < 9000; i++) printf "int bench_fn_%d(int x) { return x + %d; }\n", i, i }' \
    > "$work/bench.c"
"$cc" -O0 -fPIC -shared "$work/bench.c" -o "$work/lib/libbench.so"
awk 'BEGIN { for (i = 0; i < 10000; i++) printf "int bench_fn_%d(int x);\n", i }' \
    > "$work/out/bench.h"
printf '#include "bench.h"\n' > "$work/out/libwrap.h"
(cd "$work/out" && "$cc" -E libwrap.h > libwrap.i && "$gen" --quiet --name bench libwrap.i)

run() {
    "$gen" check --inventory "$work/out/bench.inventory.json" --cc "$cc" \
        --ldflags "-L$work/lib" --libs -lbench -o "$work/out" -j "$jobs" --quiet
}
t0=$(date +%s.%N); out=$(run); t1=$(date +%s.%N)
echo "$out"
cold=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
t0=$(date +%s.%N); run >/dev/null; t1=$(date +%s.%N)
warm=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
# The symbols under the EXCLUDE MANGLED rule of the region block.
missing=$(awk '/^  EXCLUDE MANGLED$/ { e = 1; next } /^LIBWRAP_REGION_NAMES_END$/ { e = 0 }
               e && /^    [^ #]/ { n++ } END { print n + 0 }' "$work/out/missing.filter")
[ "$missing" -eq 1000 ] || { echo "probe-10k: expected 1000 MISSING, got $missing" >&2; exit 1; }
printf 'probe-10k: 10000 symbols, -j %s: cold %.2f s (target 60 s, %.1f%% of it), cached %.3f s\n' \
    "$jobs" "$cold" "$(awk -v c="$cold" 'BEGIN { print 100 * c / 60 }')" "$warm"
