#!/usr/bin/env bash
# libwrap.read (docs/python.md) on call paths as deep as the runtime
# measures them (32,768 nested calls a thread), where json.loads raises
# RecursionError (about 500 calls deep): the profile is read, with the
# same values json.loads gives with room enough; the functions, the Hatchet
# literal (a tree 32,768 deep, built without recursion) and, on a
# profile 2,000 calls deep, the call-path table and the per-thread table
# computed from it. A deep file cut short is still a clear ValueError.
# With Debian's python3 and the package from `libwrap-info python-path`;
# skipped without pandas.
set -euo pipefail
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
PY=${PYTHON3:-/usr/bin/python3}
[ -x "$PY" ] || skip "no python3 found"
"$PY" -c 'import pandas, numpy' 2> /dev/null ||
    skip "$PY lacks pandas or numpy (Debian: apt-get install python3-pandas python3-numpy)"
gen() { "$PY" "$LIBWRAP_SOURCE_DIR/tests/report/deep_profile.py" "$@"; }
N=32768
gen e $N
gen e2 2000
mkdir -p cut && head -c 1000000 e/profile.json > cut/profile.json
PYTHONPATH=$("$LIBWRAP_STAGE/bin/libwrap-info" python-path) "$PY" - $N <<'PY' || fail "libwrap.read on deep call paths"
import json, sys, threading
import libwrap
from libwrap import _files

n = int(sys.argv[1])
LEAF, STEP = 1000000000, 10
top = LEAF + (n - 1) * STEP

exp = libwrap.read("e")
f = exp.functions.set_index("symbol")
assert (f.loc["rr_walk", "visits"], f.loc["rr_walk", "inclusive_ns"], f.loc["rr_walk", "ru_minflt"]) == (n, top, n), f
assert list(exp.processes["threads"]) == [2]
assert exp.arguments.empty

# The Hatchet literal: a root per thread, the call path n deep below it.
roots = exp.to_hatchet_literal()
assert [r["frame"]["name"] for r in roots] == ["thread 0", "thread 1"], roots
node, depth = roots[0], 0
while node["children"]:
    assert len(node["children"]) == 1
    node = node["children"][0]
    depth += 1
assert depth == n and node["metrics"]["time"] == LEAF, (depth, node)
assert roots[0]["metrics"]["time (inc)"] == top

# The values are json.loads's, given a recursion limit and a stack that
# fit (comparing them recurses too).
text = open("e/profile.json").read()
try:
    json.loads(text)
    raise SystemExit("json.loads read a profile %d calls deep: the test shows nothing" % n)
except RecursionError:
    pass
got = _files.load_profile("e/profile.json")
same = []
def compare():
    same.append(json.loads(text) == got)
limit = sys.getrecursionlimit()
sys.setrecursionlimit(4 * n + 1000)
threading.stack_size(1 << 29)
t = threading.Thread(target=compare)
t.start()
t.join()
sys.setrecursionlimit(limit)
assert same == [True], same
# And bad text is said as json.loads says it, deep or not.
for bad, same in (('{"a": [1, 2,]}', False), ('{"a" 1}', True), ('[1] 2', True), ('', True),
                  ('{"a": tru}', True), ('[' * 5000 + ']' * 4999, False)):
    try:
        _files._loads_deep(bad)
        raise SystemExit("_loads_deep read %r" % bad[:40])
    except json.JSONDecodeError as e:
        if same:
            try:
                json.loads(bad)
            except json.JSONDecodeError as j:
                assert (e.msg, e.pos) == (j.msg, j.pos), (bad, e, j)
for good in ('{"a": [1, -2.5e3, "x\\u00e9", true, false, null, {}, []], "a": NaN, "b": {"c": -Infinity}}', ' 7 '):
    assert repr(_files._loads_deep(good)) == repr(json.loads(good)), good
try:
    libwrap.read("cut")
    raise SystemExit("a profile cut short was read")
except ValueError as e:
    assert "cut/profile.json: not a valid profile.json" in str(e), e

# 2,000 calls deep: the call-path table (its paths are as long as their
# depth) and the per-thread table computed from it.
exp = libwrap.read("e2")
cp = exp.callpaths
walk = cp[cp.symbol == "rr_walk"]
assert len(walk) == 2000 and walk.depth.max() == 2000 and walk.outermost.sum() == 1, walk
assert walk.path.str.count(";").max() == 1999
t = exp.function_table(by="thread").set_index(["thread", "symbol"])
row = t.loc[(0, "rr_walk")]
assert (row.visits, row.inclusive_ns, row.ru_minflt) == (2000, LEAF + 1999 * STEP, 2000), row
print("ok")
PY
echo "ok"
