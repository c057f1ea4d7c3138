#!/usr/bin/env bash
# libwrap-report on call paths as deep as the runtime measures them (32,768
# nested calls a thread: its return slots, docs/abi.md), in every mode:
# the table, the per-thread table (recursion found along the whole path),
# the tree, the HTML report with its flame graph; and at its own limit,
# LWR_MAX_CALL_DEPTH (65,536 levels): read at it, refused past it, in the
# reader and in json-c's tokener, with a message that says so. The
# profiles are written by deep_profile.py (a recursive function).
set -euo pipefail
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
report=$LIBWRAP_STAGE/bin/libwrap-report
gen() { python3 "$LIBWRAP_SOURCE_DIR/tests/report/deep_profile.py" "$@"; }
N=32768
MAX=65536

# run NAME ARGS...: the report, which must succeed; its stdout in NAME.out.
run() {
    local name=$1
    shift
    "$report" "$@" > "$name.out" 2> "$name.err" || fail "libwrap-report $*: status $?: $(head -c 400 "$name.err")"
}

gen e $N
run tsv --format=tsv e
run threads --format=tsv --threads e
run text e
run tree --tree e
run tree3 --tree --depth 3 e
run html --html e
grep -q "^HTML report: e/report.html$" html.out || fail "no HTML report: $(cat html.out)"
python3 - $N <<'PY' || fail "wrong figures for call paths $N levels deep"
import sys, re, xml.etree.ElementTree as ET
n = int(sys.argv[1])
LEAF, STEP = 1000000000, 10
top = LEAF + (n - 1) * STEP
def rows(path):
    lines = [l.rstrip("\n").split("\t") for l in open(path)]
    return [dict(zip(lines[0], l)) for l in lines[1:]]
# The table: visits, times and the metric of the outermost call.
t = {r["symbol"]: r for r in rows("tsv.out")}
w = t["rr_walk"]
assert (int(w["visits"]), int(w["inclusive_ns"]), int(w["exclusive_ns"]), int(w["min_ns"]), int(w["max_ns"]),
        float(w["ru_minflt"])) == (n, top, top, LEAF, top, n), w
# Per thread, from the call paths: the inner calls are recursive, their
# inclusive time and metric counted once, at the outermost.
th = {(r["thread"], r["symbol"]): r for r in rows("threads.out")}
w = th[("0", "rr_walk")]
assert (int(w["visits"]), int(w["inclusive_ns"]), int(w["exclusive_ns"]), float(w["ru_minflt"])) == (n, top, top, n), w
assert int(th[("1", "rr_leaf")]["visits"]) == 1
assert re.search(r"^rr_walk +%d " % n, open("text.out").read(), re.M), open("text.out").read()[:500]
# The tree: a line per call; past 64 levels the level is written, the
# indentation no deeper, so every line stays short.
lines = open("tree.out").read().split("\n")
calls = [l for l in lines if l.endswith("rr_walk")]
assert len(calls) == n, len(calls)
assert max(len(l) for l in lines) < 200, max(len(l) for l in lines)
assert calls[63].endswith(" " * 126 + "rr_walk") and "[depth" not in calls[63], calls[63]
assert calls[64].endswith(" " * 128 + "[depth 65] rr_walk"), calls[64]
assert calls[-1].split()[:4] == ["1.000", "s", "1.000", "s"] and calls[-1].endswith("[depth %d] rr_walk" % n), calls[-1]
assert lines[-2].endswith("rr_leaf"), lines[-2:]
assert re.search(r"^ .* {4}rr_walk  \[\+%d\]$" % (n - 3), open("tree3.out").read(), re.M), open("tree3.out").read()
# The HTML report's flame graph: a frame per call, one row per level.
html = open("e/report.html").read()
svg = html[html.index("<svg"):html.index("</svg>") + 6]
frames = ET.fromstring(svg).findall("{http://www.w3.org/2000/svg}g")
titles = [g.find("{http://www.w3.org/2000/svg}title").text for g in frames]
assert sum(t.startswith("rr_walk (") for t in titles) == n, len(titles)
ys = {float(g.find("{http://www.w3.org/2000/svg}rect").get("y")) for g in frames}
assert len(ys) == n + 2, len(ys)  # all, thread 0, n levels
PY

# At the limit: read. Past it: refused, saying why, whether the reader
# (one level past) or json-c (a hundred) finds it, in every mode.
gen at $MAX
run at at
grep -q "^rr_walk *$MAX " at.out || fail "the profile $MAX levels deep: $(head -5 at.out)"
gen over $((MAX + 1))
gen far $((MAX + 100))
for d in over far; do
    for mode in "" --tree --html; do
        if "$report" $mode $d > $d.out 2> $d.err; then
            fail "libwrap-report $mode $d: read call paths deeper than $MAX levels"
        fi
        grep -q "^libwrap-report: $d/profile.json: .*call paths deeper than $MAX levels, more than libwrap-report reads" $d.err ||
            fail "libwrap-report $mode $d: not the message: $(head -c 400 $d.err)"
        grep -q "invalid JSON" $d.err && fail "libwrap-report $mode $d: $(cat $d.err)"
    done
done
[[ ! -e over/report.html && ! -e far/report.html ]] || fail "a report.html was left behind"
echo "ok"
