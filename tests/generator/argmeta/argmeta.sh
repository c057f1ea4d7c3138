#!/usr/bin/env bash
# argmeta.sh [neon]: the argument metadata of the inventory against the
# "// ARG:" and "// A64:" expectations of argmeta.h (kind, width, size_t-ness,
# x86-64 and AAPCS64 location of every parameter and result).
# neon: those of neon.h, gcc's arm_neon.h types preprocessed by
# aarch64-linux-gnu-gcc and generated with --target aarch64-linux-gnu
# (skipped, 77, without that compiler), with not one warning of libwrap-gen
# and no declaration left out for its errors.
set -euo pipefail
src=$LIBWRAP_SOURCE_DIR/tests/generator/argmeta
gen=$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
check() { # HEADER LANGUAGE COMPILER [TARGET]
printf '#include "%s"\n' "$1" > libwrap.h
$3 -x $2 -E -I"$src" libwrap.h > libwrap.i
rm -rf gen
"$gen" --quiet --name am -x $2 --cppflags "-I$src" ${4:+--target "$4"} -o gen libwrap.i 2> gen.err ||
    { cat gen.err >&2; fail "libwrap-gen failed on $1"; }
if [ -n "${4:-}" ]; then
    [ ! -s gen.err ] || { head -5 gen.err >&2; fail "libwrap-gen warns on $1 ($(wc -l < gen.err) lines)"; }
    ! grep -q '^\[diagnostic\]\|does not parse' gen/am.skipped.txt ||
        fail "declarations of $1 left out for errors: $(grep -m3 'does not parse\|diagnostic' gen/am.skipped.txt)"
else
    cat gen.err >&2
fi
python3 - "$src/$1" gen/am.inventory.json <<'PY'
import json, re, sys
want, want64 = {}, {}
for line in open(sys.argv[1]):
    m = re.match(r"// (ARG|A64): (\S+) (.*)", line)
    if m:
        (want if m.group(1) == "ARG" else want64)[m.group(2)] = dict(w.split("=", 1) for w in m.group(3).split())
funcs = {f["symbol"]: f for f in json.load(open(sys.argv[2]))["functions"]}

def text(a):
    t = "%s/%d/%s" % (a["kind"], a["width"], a["abi"] or "-")
    return t + ("/size" if a["size"] else "") + ("/zext" if a["zext"] else "")

bad = 0
for sym, exp in want.items():
    f = funcs.get(sym)
    if not f:
        print("argmeta: %s is not in the inventory" % sym); bad += 1; continue
    got = {p["name"]: text(p["arg"]) for p in f["params"]}
    got["return"] = text(f["return"]["arg"])
    if got != exp:
        bad += 1
        for k in sorted(set(got) | set(exp)):
            if got.get(k) != exp.get(k):
                print("argmeta: %s %s: %s, expected %s" % (sym, k, got.get(k), exp.get(k)))
    got = {p["name"]: p["arg"]["abi_a64"] or "-" for p in f["params"]}
    got["return"] = f["return"]["arg"]["abi_a64"] or "-"
    exp = want64.get(sym)
    if got != exp:
        bad += 1
        for k in sorted(set(got) | set(exp or {})):
            if got.get(k) != (exp or {}).get(k):
                print("argmeta: AArch64 %s %s: %s, expected %s" % (sym, k, got.get(k), (exp or {}).get(k)))
print("argmeta: %d functions, %d wrong" % (len(want), bad))
sys.exit(1 if bad else 0)
PY
}
if [ "${1:-}" = neon ]; then
    command -v aarch64-linux-gnu-gcc > /dev/null ||
        skip "no aarch64-linux-gnu-gcc (scripts/install-deps.sh installs gcc-aarch64-linux-gnu)"
    check neon.h c aarch64-linux-gnu-gcc aarch64-linux-gnu
    # In C++, the stand-ins mangle as gcc's types do (10__Int8x8_t, the
    # tuples as structs): the symbol is the one g++ defines. a-h take
    # v0-v7, i and j the stack, k x0, l x2 and x3 (from an even one), n x4.
    if command -v aarch64-linux-gnu-g++ > /dev/null; then
        cat > nq.h <<'H'
#include <arm_neon.h>
int nq_all(float32x4_t a, int8x8_t b, poly8x16_t c, float16x4_t d, bfloat16x8_t e, int64x1_t f,
           uint64x2_t g, float64x1_t h, poly64x2_t i, float32x4x2_t j, poly8_t k, poly128_t l, int n);
H
        printf '#include "nq.h"\nint nq_all(float32x4_t, int8x8_t, poly8x16_t, float16x4_t, bfloat16x8_t, int64x1_t,\n uint64x2_t, float64x1_t, poly64x2_t, float32x4x2_t, poly8_t, poly128_t, int n) { return n; }\n' > nq.cc
        aarch64-linux-gnu-g++ -c -I. nq.cc -o nq.o
        sym=$(aarch64-linux-gnu-nm nq.o | awk '$2 == "T" && $3 ~ /nq_all/ { print $3 }')
        printf '#include "nq.h"\n' > libwrap.h
        aarch64-linux-gnu-g++ -x c++ -E -I. libwrap.h > libwrap.i
        rm -rf gen
        "$gen" --quiet --name nq -x c++ --target aarch64-linux-gnu -o gen libwrap.i 2> gen.err ||
            { cat gen.err >&2; fail "libwrap-gen failed on nq.h (C++)"; }
        [ ! -s gen.err ] || { head -5 gen.err >&2; fail "libwrap-gen warns on nq.h (C++)"; }
        python3 - "$sym" gen/nq.inventory.json <<'PY' || fail "C++: not g++'s symbol $sym, or n not in x4"
import json, sys
f = [f for f in json.load(open(sys.argv[2]))["functions"] if f["name"] == "nq_all"]
print("argmeta: C++ %s, n in %s (g++: %s)" % (f[0]["symbol"] if f else None,
      f[0]["params"][-1]["arg"]["abi_a64"] if f else None, sys.argv[1]))
sys.exit(0 if f and f[0]["symbol"] == sys.argv[1] and f[0]["params"][-1]["arg"]["abi_a64"] == "x4" else 1)
PY
    fi
    exit
fi
check argmeta.h c "${CC:-cc}"
check argmeta_cxx.h c++ "${CXX:-c++}"
