#!/bin/bash
# generator_symcheck_probe: `libwrap-gen check` confirms the candidates of inventories
# the generator wrote with compile-and-link probes, writes missing.filter /
# uncertain.filter through the emitter's template, caches its results.
. "$(dirname "$0")/lib.sh"
GEN=$DRIVER # the staged libwrap-gen

# libprobe: p_one and p_two exported; p_hidden hidden; labs is libc's too.
# libdep.a: p_needs_dep pulls a member with an undefined symbol, so its link
# fails without naming p_needs_dep itself (the bisection path).
mkdir -p "$S/lib" "$S/out"
cat > "$S/probe.c" <<'EOS'
int p_one(void) { return 1; }
int p_two(void) { return 2; }
__attribute__((visibility("hidden"))) int p_hidden(void) { return 3; }
long labs(long x) { return x < 0 ? -x : x; }
EOS
"$CC" -fPIC -shared "$S/probe.c" -o "$S/lib/libprobe.so"
printf 'int p_dep_ok(void) { return 4; }\n%s\n' \
    '__attribute__((visibility("hidden"))) int p_dep_hidden(void) { return 5; }' > "$S/dep1.c"
printf 'extern int dep_absent(void);\nint p_needs_dep(void) { return dep_absent(); }\n' > "$S/dep2.c"
"$CC" -c "$S/dep1.c" -o "$S/dep1.o" && "$CC" -c "$S/dep2.c" -o "$S/dep2.o"
ar rcs "$S/lib/libdep.a" "$S/dep1.o" "$S/dep2.o"

# inventory DIR NAME HEADER [GEN_ARGS...]: DIR/NAME.inventory.json, written
# by the staged generator from S/HEADER as `make` does (libwrap.h includes
# the header, preprocessed, generated); a .hh header is C++.
inventory() {
    local dir=$1 name=$2 header=$3 x=c cc=$CC; shift 3
    [ "${header##*.}" = hh ] && x=c++ cc="${CXX:-c++} -x c++"
    mkdir -p "$dir" && cp "$S/$header" "$dir/" || exit 1
    printf '#include "%s"\n' "$header" > "$dir/libwrap.h"
    (cd "$dir" && $cc -E libwrap.h > libwrap.i &&
        "$GEN" --quiet --name "$name" -x $x -o . "$@" libwrap.i) ||
        { echo "FAIL generating $dir/$name.inventory.json"; exit 1; }
}

# listed FILE: the symbols the filter file excludes (the entries under
# "EXCLUDE MANGLED" inside the region block), sorted, space-separated.
listed() {
    awk '/^LIBWRAP_REGION_NAMES_BEGIN$/ { r = 1; next }
         /^LIBWRAP_REGION_NAMES_END$/ { r = 0 }
         r && /^  EXCLUDE MANGLED$/ { e = 1; next }
         r && e && /^    [^ #]/ { print $1 }' "$1" | sort | tr '\n' ' '
}

# The library's public view: p_hidden is declared like the others (the
# library hides it), p_inline has no symbol and is no candidate. Generated
# with the targets, so that the symbol tables already left p_absent and
# p_hidden out as MISSING: the probes confirm or overturn that.
cat > "$S/probe.h" <<'EOS'
int p_one(void);
int p_two(void);
int p_absent(void);
int p_hidden(void);
long labs(long x);
int p_dep_ok(void);
int p_dep_hidden(void);
int p_needs_dep(void);
static inline int p_inline(void) { return 0; }
EOS
inventory "$S/gen" probe probe.h --ldflags "-L$S/lib" --libs "-lprobe -ldep"
expect "inventory: p_absent left out by the symbol tables" '^p_absent .* skip=missing' \
    "$(cat "$S/gen/probe.functions.txt")"
expect "inventory: p_inline is inline" '^p_inline .* skip=inline' "$(cat "$S/gen/probe.functions.txt")"
check() {
    "$GEN" check --inventory "$S/gen/probe.inventory.json" --cc "$CC" \
        --ldflags "-L$S/lib -Wl,-rpath,$S/lib" --libs "-lprobe -ldep" -o "$S/out" "$@" 2>&1
}
out=$(check -j 2); rc=$?
expect "check: exit 0 with MISSING symbols" '^0$' "$rc"
expect "check: counts" '^CHECK probe: 8 symbols, 4 linked, 3 MISSING .*missing\.filter\), 1 UNCERTAIN' "$out"
expect "check: progress counter" '^check: 8/8$' "$out"
# p_absent (absent), p_hidden (hidden visibility), p_needs_dep (bisected).
miss=$(cat "$S/out/missing.filter")
expect "missing.filter: exactly p_absent p_hidden p_needs_dep" '^p_absent p_hidden p_needs_dep $' \
    "$(listed "$S/out/missing.filter")"
reject "missing.filter: not p_one" 'p_one|p_two|p_dep_ok|p_dep_hidden|labs|p_inline' "$miss"
expect "missing.filter: a region block" '^LIBWRAP_REGION_NAMES_BEGIN$' "$miss"
expect "missing.filter: says how to undo" 'INCLUDE MANGLED' "$miss"
expect "missing.filter: the declaration and the probe's verdict" \
    '^    p_absent  # (.*/)?probe\.h:3  \(link probe: ' "$miss"
expect "missing.filter: the emitter's template" '^# probe: functions left out as MISSING \(3\)' "$miss"
unc=$(cat "$S/out/uncertain.filter")
expect "uncertain.filter: exactly labs (libc has it)" '^labs $' "$(listed "$S/out/uncertain.filter")"
expect "uncertain.filter: the probe's verdict" '^    labs  # (.*/)?probe\.h:5  \(link probe: ' "$unc"
reject "uncertain.filter: only labs" 'p_' "$(listed "$S/out/uncertain.filter")"

# INCLUDE MANGLED labs in NAME.filter wraps it though uncertain, by the
# symbol tables and by the probes' verdicts (docs/symcheck.md); a glob does
# not.
printf 'LIBWRAP_REGION_NAMES_BEGIN\n  INCLUDE MANGLED labs\nLIBWRAP_REGION_NAMES_END\n' > "$S/inc.filter"
for how in tables probes; do
    extra=()
    [ $how = tables ] || extra=(--probed "$S/out/check.cache")
    inventory "$S/gen-$how" probe probe.h --ldflags "-L$S/lib" --libs "-lprobe -ldep" --filter "$S/inc.filter" "${extra[@]}"
    expect "INCLUDE MANGLED labs ($how): wrapped" '^labs name=labs [^ ]* ret=long \(long x\)$' \
        "$(cat "$S/gen-$how/probe.functions.txt")"
done
printf 'LIBWRAP_REGION_NAMES_BEGIN\n  INCLUDE MANGLED lab*\nLIBWRAP_REGION_NAMES_END\n' > "$S/glob.filter"
inventory "$S/gen-glob" probe probe.h --ldflags "-L$S/lib" --libs "-lprobe -ldep" --filter "$S/glob.filter"
expect "INCLUDE MANGLED lab*: still uncertain" '^labs .* skip=uncertain' "$(cat "$S/gen-glob/probe.functions.txt")"

out=$(check --quiet); rc=$?
expect "rerun: from the cache" '^CHECK probe: 8 symbols, 4 linked, 3 MISSING .*, cached$' "$out"
reject "--quiet: no progress" '^check: ' "$out"

# A new build of the library invalidates the cache.
printf 'int p_absent(void) { return 5; }\n' >> "$S/probe.c"
"$CC" -fPIC -shared "$S/probe.c" -o "$S/lib/libprobe.so"
out=$(check -j 1 --quiet)
expect "rebuilt library: probed again" '^CHECK probe: 8 symbols, 5 linked, 2 MISSING' "$out"
reject "rebuilt library: p_absent now found" 'p_absent' "$(cat "$S/out/missing.filter")"
expect "rebuilt library: the libelf verdict overturned" '^p_hidden p_needs_dep $' \
    "$(listed "$S/out/missing.filter")"

# lld: it names at most 20 undefined symbols and pulls archive members for
# defsym'd names; the results must not change.
if command -v clang >/dev/null && command -v ld.lld >/dev/null; then
    rm -f "$S/out/check.cache"
    out=$("$GEN" check --inventory "$S/gen/probe.inventory.json" --cc "clang -fuse-ld=lld" \
          --ldflags "-L$S/lib" --libs "-lprobe -ldep" -o "$S/out" --quiet 2>&1)
    expect "lld: same answer" '^CHECK probe: 8 symbols, 5 linked, 2 MISSING .* 1 UNCERTAIN' "$out"
    expect "lld: same filter" '^p_hidden p_needs_dep $' "$(listed "$S/out/missing.filter")"
fi

# More symbols than one batch per job, most of them missing.
{
    for i in $(seq 1 300); do echo "int p_gone_$i(void);"; done
    echo 'int p_one(void);'
} > "$S/many.h"
inventory "$S/many" many many.h
out=$("$GEN" check --inventory "$S/many/many.inventory.json" --cc "$CC" --ldflags "-L$S/lib" \
      --libs -lprobe -o "$S/out" -j 2 2>&1)
expect "batches: 300 missing, 1 linked" '^CHECK many: 301 symbols, 1 linked, 300 MISSING' "$out"
expect "batches: 300 in missing.filter" '^300$' \
    "$(listed "$S/out/missing.filter" | wc -w)"

# Errors: a library that is not there, a compiler that is not there.
out=$(check --libs "-lnosuch_libwrap"); rc=$?
expect "missing library: exit 1" '^1$' "$rc"
expect "missing library: says which" 'no libnosuch_libwrap\.so or libnosuch_libwrap\.a' "$out"
out=$("$GEN" check --inventory "$S/gen/probe.inventory.json" --cc /nonexistent/cc \
      --ldflags "-L$S/lib" --libs -lprobe -o "$S/out" 2>&1); rc=$?
expect "missing compiler: exit 1" '^1$' "$rc"
expect "missing compiler: says so" 'cannot run the compiler /nonexistent/cc' "$out"
out=$("$GEN" check --cc "$CC" 2>&1); rc=$?
expect "usage: exit 2" '^2$' "$rc"
# The strict inventory reader: a file that is not an inventory is refused.
printf '{ "name": "x", "functions": [ { "symbol": "p_one", "skip": "wrap" } ] }\n' > "$S/bad.json"
out=$("$GEN" check --inventory "$S/bad.json" --cc "$CC" --libs -lprobe --ldflags "-L$S/lib" \
      -o "$S/out" 2>&1); rc=$?
expect "not an inventory: exit 1" '^1$' "$rc"
expect "not an inventory: says so" 'bad\.json: not a libwrap inventory' "$out"
out=$(check --templates "$S/nosuch"); rc=$?
expect "--templates: a missing dir fails" '^1$' "$rc"
expect "--templates: names the template" 'nosuch/skip\.filter\.in' "$out"

# C++: mangled names, probed with the C++ compiler.
if command -v "${CXX:-c++}" >/dev/null; then
    printf 'namespace ns { int f(int x) { return x; } }\n' > "$S/pp.cc"
    "${CXX:-c++}" -fPIC -shared "$S/pp.cc" -o "$S/lib/libpp.so"
    printf 'namespace ns { int f(int x); int g(int x); }\n' > "$S/pp.hh"
    inventory "$S/pp" pp pp.hh
    out=$("$GEN" check --inventory "$S/pp/pp.inventory.json" --cc "${CXX:-c++}" \
          --ldflags "-L$S/lib" --libs -lpp -o "$S/out" 2>&1)
    expect "C++: one linked, one missing" '^CHECK pp: 2 symbols, 1 linked, 1 MISSING' "$out"
    expect "C++: the mangled name" '^_ZN2ns1gEi $' "$(listed "$S/out/missing.filter")"
fi

# Wrapping libc itself: its functions are linked, not UNCERTAIN; libm's sin
# and a libc-only name in a libm inventory are told apart by the symbol tables.
printf '#include <stddef.h>\nvoid *malloc(size_t n);\nint atexit(void (*f)(void));\n%s\n' \
    'double sin(double x);' > "$S/libc.h"
inventory "$S/libc" c libc.h
out=$("$GEN" check --inventory "$S/libc/c.inventory.json" --cc "$CC" --libs -lc -o "$S/out" 2>&1)
expect "libc target: malloc and atexit linked, sin missing" '^CHECK c: 3 symbols, 2 linked, 1 MISSING .* 0 UNCERTAIN' "$out"
printf 'double sin(double x);\nint isnan(double x);\ndouble frexp(double x, int *e);\n' > "$S/libm.h"
inventory "$S/libm" m libm.h
out=$("$GEN" check --inventory "$S/libm/m.inventory.json" --cc "$CC" --libs -lm -o "$S/out" 2>&1)
expect "libm: sin linked, isnan (libc only) missing, frexp uncertain" '^CHECK m: 3 symbols, 1 linked, 1 MISSING .* 1 UNCERTAIN' "$out"
expect "libm: isnan is MISSING" '^isnan $' "$(listed "$S/out/missing.filter")"
expect "libm: frexp is UNCERTAIN" '^frexp $' "$(listed "$S/out/uncertain.filter")"

finish
