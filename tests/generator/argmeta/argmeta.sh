#!/usr/bin/env bash
# argmeta.sh: the argument metadata of the inventory against the "// ARG:"
# and "// A64:" expectations of argmeta.h (kind, width, size_t-ness, x86-64
# and AAPCS64 location of every parameter and result).
set -euo pipefail
src=$LIBWRAP_SOURCE_DIR/tests/generator/argmeta
gen=$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
check() { # HEADER LANGUAGE COMPILER
printf '#include "%s"\n' "$1" > libwrap.h
$3 -x $2 -E -I"$src" libwrap.h > libwrap.i
rm -rf gen
"$gen" --quiet --name am -x $2 --cppflags "-I$src" -o gen libwrap.i
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
check argmeta.h c "${CC:-cc}"
check argmeta_cxx.h c++ "${CXX:-c++}"
