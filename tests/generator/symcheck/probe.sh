#!/bin/bash
# symcheck_probe: `libwrap-gen check` confirms candidates with compile-and-link
# probes, writes missing.filter / uncertain.filter, caches its results.
. "$(dirname "$0")/lib.sh"

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

cat > "$S/probe.inventory.json" <<'EOS'
{ "name": "probe", "language": "c", "functions": [
  { "symbol": "p_one", "skip": "wrap" },
  { "symbol": "p_two", "skip": "wrap" },
  { "symbol": "p_absent", "skip": "wrap" },
  { "symbol": "p_hidden", "skip": "missing" },
  { "symbol": "labs", "skip": "wrap" },
  { "symbol": "p_dep_ok", "skip": "wrap" },
  { "symbol": "p_dep_hidden", "skip": "wrap" },
  { "symbol": "p_needs_dep", "skip": "wrap" },
  { "symbol": "p_inline", "skip": "inline" }
] }
EOS
check() {
    "$DRIVER" check --inventory "$S/probe.inventory.json" --cc "$CC" \
        --ldflags "-L$S/lib -Wl,-rpath,$S/lib" --libs "-lprobe -ldep" -o "$S/out" "$@" 2>&1
}
out=$(check -j 2); rc=$?
expect "check: exit 0 with MISSING symbols" '^0$' "$rc"
expect "check: counts" '^CHECK probe: 8 symbols, 4 linked, 3 MISSING .*missing\.filter\), 1 UNCERTAIN' "$out"
expect "check: progress counter" '^check: 8/8$' "$out"
miss=$(cat "$S/out/missing.filter")
expect "missing.filter: p_absent" '^  EXCLUDE MANGLED p_absent$' "$miss"
expect "missing.filter: p_hidden (hidden visibility)" '^  EXCLUDE MANGLED p_hidden$' "$miss"
expect "missing.filter: p_needs_dep (bisected)" '^  EXCLUDE MANGLED p_needs_dep$' "$miss"
reject "missing.filter: not p_one" 'p_one|p_two|p_dep_ok|p_dep_hidden|labs|p_inline' "$miss"
expect "missing.filter: a region block" '^LIBWRAP_REGION_NAMES_BEGIN$' "$miss"
expect "missing.filter: says how to undo" 'INCLUDE MANGLED' "$miss"
unc=$(cat "$S/out/uncertain.filter")
expect "uncertain.filter: labs (libc has it)" '^  EXCLUDE MANGLED labs$' "$unc"
reject "uncertain.filter: only labs" 'EXCLUDE MANGLED (p_)' "$unc"

out=$(check --quiet); rc=$?
expect "rerun: from the cache" '^CHECK probe: 8 symbols, 4 linked, 3 MISSING .*, cached$' "$out"
reject "--quiet: no progress" '^check: ' "$out"

# A new build of the library invalidates the cache.
printf 'int p_absent(void) { return 5; }\n' >> "$S/probe.c"
"$CC" -fPIC -shared "$S/probe.c" -o "$S/lib/libprobe.so"
out=$(check -j 1 --quiet)
expect "rebuilt library: probed again" '^CHECK probe: 8 symbols, 5 linked, 2 MISSING' "$out"
reject "rebuilt library: p_absent now found" 'p_absent' "$(cat "$S/out/missing.filter")"

# lld: it names at most 20 undefined symbols and pulls archive members for
# defsym'd names; the results must not change.
if command -v clang >/dev/null && command -v ld.lld >/dev/null; then
    rm -f "$S/out/check.cache"
    out=$("$DRIVER" check --inventory "$S/probe.inventory.json" --cc "clang -fuse-ld=lld" \
          --ldflags "-L$S/lib" --libs "-lprobe -ldep" -o "$S/out" --quiet 2>&1)
    expect "lld: same answer" '^CHECK probe: 8 symbols, 5 linked, 2 MISSING .* 1 UNCERTAIN' "$out"
fi

# More symbols than one batch per job, most of them missing.
{
    echo '{ "name": "many", "language": "c", "functions": ['
    for i in $(seq 1 300); do echo "{ \"symbol\": \"p_gone_$i\", \"skip\": \"wrap\" },"; done
    echo '{ "symbol": "p_one", "skip": "wrap" } ] }'
} > "$S/many.inventory.json"
out=$("$DRIVER" check --inventory "$S/many.inventory.json" --cc "$CC" --ldflags "-L$S/lib" \
      --libs -lprobe -o "$S/out" -j 2 2>&1)
expect "batches: 300 missing, 1 linked" '^CHECK many: 301 symbols, 1 linked, 300 MISSING' "$out"

# Errors: a library that is not there, a compiler that is not there.
out=$(check --libs "-lnosuch_libwrap"); rc=$?
expect "missing library: exit 1" '^1$' "$rc"
expect "missing library: says which" 'no libnosuch_libwrap\.so or libnosuch_libwrap\.a' "$out"
out=$("$DRIVER" check --inventory "$S/probe.inventory.json" --cc /nonexistent/cc \
      --ldflags "-L$S/lib" --libs -lprobe -o "$S/out" 2>&1); rc=$?
expect "missing compiler: exit 1" '^1$' "$rc"
expect "missing compiler: says so" 'cannot run the compiler /nonexistent/cc' "$out"
out=$("$DRIVER" check --cc "$CC" 2>&1); rc=$?
expect "usage: exit 2" '^2$' "$rc"

# C++: mangled names, probed with the C++ compiler.
if command -v "${CXX:-c++}" >/dev/null; then
    printf 'namespace ns { int f(int x) { return x; } }\n' > "$S/pp.cc"
    "${CXX:-c++}" -fPIC -shared "$S/pp.cc" -o "$S/lib/libpp.so"
    printf '{ "name": "pp", "language": "c++", "functions": [ %s, %s ] }\n' \
        '{ "symbol": "_ZN2ns1fEi", "skip": "wrap" }' '{ "symbol": "_ZN2ns1gEi", "skip": "wrap" }' \
        > "$S/pp.inventory.json"
    out=$("$DRIVER" check --inventory "$S/pp.inventory.json" --cc "${CXX:-c++}" \
          --ldflags "-L$S/lib" --libs -lpp -o "$S/out" 2>&1)
    expect "C++: one linked, one missing" '^CHECK pp: 2 symbols, 1 linked, 1 MISSING' "$out"
    expect "C++: the mangled name" '^  EXCLUDE MANGLED _ZN2ns1gEi$' "$(cat "$S/out/missing.filter")"
fi

# Wrapping libc itself: its functions are linked, not UNCERTAIN; libm's sin
# and a libc-only name in a libm inventory are told apart by the symbol tables.
printf '{ "name": "c", "language": "c", "functions": [ %s, %s, %s ] }\n' \
    '{ "symbol": "malloc", "wrapped": true }' '{ "symbol": "atexit", "wrapped": true }' \
    '{ "symbol": "sin", "wrapped": true }' > "$S/libc.inventory.json"
out=$("$DRIVER" check --inventory "$S/libc.inventory.json" --cc "$CC" --libs -lc -o "$S/out" 2>&1)
expect "libc target: malloc and atexit linked, sin missing" '^CHECK c: 3 symbols, 2 linked, 1 MISSING .* 0 UNCERTAIN' "$out"
printf '{ "name": "m", "language": "c", "functions": [ %s, %s, %s ] }\n' \
    '{ "symbol": "sin", "wrapped": true }' '{ "symbol": "isnan", "wrapped": true }' \
    '{ "symbol": "frexp", "wrapped": true }' > "$S/libm.inventory.json"
out=$("$DRIVER" check --inventory "$S/libm.inventory.json" --cc "$CC" --libs -lm -o "$S/out" 2>&1)
expect "libm: sin linked, isnan (libc only) missing, frexp uncertain" '^CHECK m: 3 symbols, 1 linked, 1 MISSING .* 1 UNCERTAIN' "$out"
expect "libm: isnan is MISSING" '^  EXCLUDE MANGLED isnan$' "$(cat "$S/out/missing.filter")"
expect "libm: frexp is UNCERTAIN" '^  EXCLUDE MANGLED frexp$' "$(cat "$S/out/uncertain.filter")"

finish
