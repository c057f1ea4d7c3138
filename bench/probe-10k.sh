#!/bin/bash
# probe-10k.sh - how fast `libwrap-gen check` confirms 10,000 symbols.
#
#   bench/probe-10k.sh [BUILD_DIR] [JOBS]
#
# Builds a library that exports 9,000 of 10,000 declared functions, runs the
# compile-and-link probes once cold and once from the cache, and prints the
# times against the 60 s target. Uses BUILD_DIR's staged libwrap-gen (or the
# symcheck test driver when the generator is not built).
set -eu
build=${1:-build}
jobs=${2:-$(nproc)}
cc=${CC:-cc}
gen=$build/stage/libexec/libwrap/libwrap-gen
[ -x "$gen" ] || gen=$build/tests/generator/symcheck/symcheck_driver
[ -x "$gen" ] || { echo "probe-10k: no libwrap-gen in $build: build it first" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/probe-10k.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lib" "$work/out"

awk 'BEGIN { for (i = 0; i < 9000; i++) printf "int bench_fn_%d(int x) { return x + %d; }\n", i, i }' \
    > "$work/bench.c"
"$cc" -O0 -fPIC -shared "$work/bench.c" -o "$work/lib/libbench.so"
awk 'BEGIN {
    printf "{ \"name\": \"bench\", \"language\": \"c\", \"functions\": [\n"
    for (i = 0; i < 10000; i++)
        printf "  { \"symbol\": \"bench_fn_%d\", \"skip\": \"wrap\" }%s\n", i, i < 9999 ? "," : ""
    printf "] }\n"
}' > "$work/bench.inventory.json"

run() {
    "$gen" check --inventory "$work/bench.inventory.json" --cc "$cc" \
        --ldflags "-L$work/lib" --libs -lbench -o "$work/out" -j "$jobs" --quiet
}
t0=$(date +%s.%N); out=$(run); t1=$(date +%s.%N)
echo "$out"
cold=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
t0=$(date +%s.%N); run >/dev/null; t1=$(date +%s.%N)
warm=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
missing=$(grep -c '^  EXCLUDE MANGLED' "$work/out/missing.filter")
[ "$missing" -eq 1000 ] || { echo "probe-10k: expected 1000 MISSING, got $missing" >&2; exit 1; }
printf 'probe-10k: 10000 symbols, -j %s: cold %.2f s (target 60 s, %.1f%% of it), cached %.3f s\n' \
    "$jobs" "$cold" "$(awk -v c="$cold" 'BEGIN { print 100 * c / 60 }')" "$warm"
