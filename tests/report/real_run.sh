#!/usr/bin/env bash
# libwrap-report on what the runtime really writes: profile and trace of a
# two-thread program with known call counts (real_run.c).
set -euo pipefail
report=$LIBWRAP_STAGE/bin/libwrap-report
program=$1
rm -rf "$LIBWRAP_SCRATCH"; mkdir -p "$LIBWRAP_SCRATCH"
cd "$LIBWRAP_SCRATCH"
LIBWRAP_EXPERIMENT_DIRECTORY=exp LIBWRAP_ENABLE_TRACING=true LIBWRAP_TIMER=clock_gettime "$program"
[[ -f exp/profile.json ]] || { echo "FAIL: the runtime wrote no exp/profile.json"; ls -R exp || true; exit 1; }

"$report" exp
"$report" --tree exp
"$report" --format=tsv --threads exp > threads.tsv
"$report" --format=tsv exp > summed.tsv
"$report" --flamegraph --html exp
python3 - summed.tsv threads.tsv exp/flamegraph.svg <<'PY'
import sys, xml.etree.ElementTree as ET
def rows(path):
    lines = [l.rstrip("\n").split("\t") for l in open(path)]
    return [dict(zip(lines[0], l)) for l in lines[1:]]
visits = {r["symbol"]: int(r["visits"]) for r in rows(sys.argv[1])}
assert visits == {"fx_outer": 15, "fx_inner": 30, "fx_recurse": 4}, visits
per = {(r["thread"], r["symbol"]): int(r["visits"]) for r in rows(sys.argv[2])}
assert sorted(per.values()) == sorted([10, 20, 4, 5, 10]), per
for r in rows(sys.argv[1]):
    assert int(r["inclusive_ns"]) >= int(r["exclusive_ns"]) > 0, r
ET.parse(sys.argv[3])
PY

if [[ -f exp/traces.otf2 ]]; then
    "$report" --timeline exp
    python3 - exp/timeline.json <<'PY'
import sys, json, collections
ev = json.load(open(sys.argv[1]))["traceEvents"]
n = collections.Counter(e["name"] for e in ev if e["ph"] == "X")
assert n == {"fx_outer": 15, "fx_inner": 30, "fx_recurse": 4}, n
assert len({e["tid"] for e in ev if e["ph"] == "X"}) == 2
# inner() spins 20 us: a timeline in wrong units would show it clearly.
d = sorted(e["dur"] for e in ev if e["name"] == "fx_inner")
assert 15 <= d[len(d) // 2] <= 5000, d
PY
    grep -q 'var LIBWRAP_TIMELINE=' exp/report.html
else
    echo "note: the runtime wrote no trace; timeline not checked"
fi
