#!/bin/bash
# generator-10k.sh [BUILD_DIR]: times libwrap-gen (parse + scope + filter +
# variadic twins + emit) on a synthetic header of 10,000 functions with
# varied signatures, and prints the time and its ratio to the 10 s target.
# A benchmark, not a test: nothing here fails on a slow machine.
set -eu
build=${1:-build}
gen=$build/stage/libexec/libwrap/libwrap-gen
[ -x "$gen" ] || { echo "usage: $0 BUILD_DIR (no $gen; build first)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/libwrap-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

{
    echo '#include <stddef.h>'
    echo '#include <stdarg.h>'
    echo 'typedef struct bench_obj { int id; double v[4]; } bench_obj;'
    echo 'typedef int (*bench_cb)(void *ctx, const char *name, size_t len);'
    for ((i = 0; i < 10000; i++)); do
        case $((i % 10)) in
        0) echo "int bench_f$i(int a, long b, const char *s);" ;;
        1) echo "void bench_f$i(bench_obj *o, size_t n, double scale);" ;;
        2) echo "bench_obj bench_f$i(bench_obj o, unsigned int flags);" ;;
        3) echo "int bench_f$i(bench_cb cb, void *ctx, int (*alt)(int, double));" ;;
        4) echo "double bench_f$i(const double v[], size_t n, long double w);" ;;
        5) echo "char *bench_f$i(char *restrict dst, const char *restrict src, size_t n);" ;;
        6) echo "int bench_f$i(const char *fmt, ...); int bench_vf$i(const char *fmt, va_list ap);" ;;
        7) echo "void (*bench_f$i(int sig, void (*h)(int)))(int);" ;;
        8) echo "_Bool bench_f$i(unsigned char c, short s, float f);" ;;
        9) echo "unsigned long long bench_f$i(int m[][4], int n);" ;;
        esac
    done
} > bench.h
printf '#include "bench.h"\n' > libwrap.h
cat > bench.filter <<'F'
LIBWRAP_REGION_NAMES_BEGIN
  EXCLUDE bench_f*7 bench_f*77
  INCLUDE bench_f777
LIBWRAP_REGION_NAMES_END
F
"${CC:-cc}" -E libwrap.h > libwrap.i

start=$(date +%s.%N)
"$gen" --name bench -o out --filter bench.filter libwrap.i
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" 'BEGIN {
    t = e - s
    printf "generator-10k: %.2f s for 10000 functions (+1000 va_list twins); %.2f of the 10 s target\n", t, t / 10
}'
