#!/bin/bash
# json-roundtrip.sh DRIVER: the inventory written by libwrap-gen, read back
# and written again, is byte-identical; its keys carry what the dump shows;
# a damaged inventory is rejected with a message.
set -u
driver=$1
gen=$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen
fixtures=$LIBWRAP_SOURCE_DIR/tests/generator/parse
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
fail=0
for f in attrs types variadic; do
    "${CC:-cc}" -E "$fixtures/$f.h" > $f.i || exit 1
    args=(--declare-void legacy_void)
    [ $f = variadic ] && args+=(--va-twin lib_log=lib_log_with_list)
    "$gen" --name $f --quiet -o . "${args[@]}" $f.i || { echo "FAIL: generate $f"; fail=1; continue; }
    "$driver" $f.inventory.json $f.again.json || { echo "FAIL: read $f"; fail=1; continue; }
    cmp $f.inventory.json $f.again.json || { echo "FAIL: $f: round trip differs"; diff $f.inventory.json $f.again.json | head; fail=1; }
    ls ./*.tmp 2>/dev/null && { echo "FAIL: temporary files left"; fail=1; }
done

# Keys: the attrs fixture's asm label, format attribute and skip reasons.
python3 - attrs.inventory.json <<'PY' || fail=1
import json, sys
inv = json.load(open(sys.argv[1]))
assert inv["libwrap_inventory"] == 1 and inv["language"] == "c" and inv["name"] == "attrs"
assert inv["header"].endswith("attrs.h"), inv["header"]
by = {f["symbol"]: f for f in inv["functions"]}
f = by["f_asm64"]
assert f["name"] == "f_asm" and f["wrapped"] and f["skip"] is None and f["params"][0]["name_invented"]
assert f["params"][0]["decl"] == "int libwrap_a1" and f["params"][0]["fwd"] == "libwrap_a1"
assert f["declarator"] == "int @@(int libwrap_a1)", f["declarator"]
assert by["logf_"]["format"] == {"index": 2, "first": 3} and by["logf_"]["va_twin"] == "vlogf_"
assert by["die"]["noreturn"] and by["old_api"]["deprecated"] and by["secret"]["hidden"]
assert by["helper"]["skip"] == "inline" and by["internal"]["skip"] == "static"
assert by["legacy"]["skip"] == "unprototyped" and not by["legacy"]["wrapped"]
assert by["printf"]["skip"] == "out-of-scope" and by["printf"]["file"].startswith("/")
for f in inv["functions"]:
    assert f["wrapped"] == (f["skip"] is None)
print("keys ok")
PY

# Damage: a wrong type and a missing key are reported, not crashed on.
sed 's/"line": \([0-9]*\)/"line": "\1"/' attrs.inventory.json > bad1.json
"$driver" bad1.json out.json 2> bad1.err && { echo "FAIL: bad line type accepted"; fail=1; }
grep -q 'key "line" has the wrong type' bad1.err || { echo "FAIL: no message for bad type"; cat bad1.err; fail=1; }
printf '{"libwrap_inventory": 2, "functions": []}\n' > bad2.json
"$driver" bad2.json out.json 2> bad2.err && { echo "FAIL: version 2 accepted"; fail=1; }
grep -q 'version 1 expected' bad2.err || { echo "FAIL: no message for the version"; fail=1; }
printf '{"libwrap_inventory": 1, "functions": [' > bad3.json
"$driver" bad3.json out.json 2> bad3.err && { echo "FAIL: truncated file accepted"; fail=1; }
[ -e out.json ] && { echo "FAIL: output written from a bad input"; fail=1; }
[ $fail = 0 ] && echo ok
exit $fail
