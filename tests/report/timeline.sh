#!/usr/bin/env bash
# OTF2 -> Chrome trace-event JSON: golden output, tick conversion, metrics,
# and a larger trace to exercise streaming over OTF2 chunk boundaries.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
report=$LIBWRAP_STAGE/bin/libwrap-report
make_trace=$1
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
mkdir -p small big

# 2 threads x 2 iterations, 2 GHz ticks, metrics on.
"$make_trace" small 32 2 2000000000 1
out=$("$report" --timeline small)
[[ $out == "timeline: small/timeline.json "* ]] || { echo "FAIL: unexpected output: $out"; exit 1; }
if [[ ${LIBWRAP_UPDATE_GOLDEN:-0} == 1 ]]; then cp small/timeline.json "$here/expected/timeline_small.json"; fi
diff -u "$here/expected/timeline_small.json" small/timeline.json

python3 - small/timeline.json <<'PY'
import sys, json
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
x = [e for e in ev if e["ph"] == "X"]
assert len(x) == 2 * 2 * 4, len(x)
# make_trace: compress2 lasts 120000 ticks at 2 GHz = 60 us; crc32 30000 ticks = 15 us;
# thread 1 starts 37000 ticks (18.5 us) after the global offset.
c = [e for e in x if e["name"] == "compress2"]
assert all(abs(e["dur"] - 60.0) < 1e-9 for e in c), c
assert sorted(e["ts"] for e in c if e["tid"] == 1) == [18.5, 168.5], c
assert all(abs(e["dur"] - 15.0) < 1e-9 for e in x if e["name"] == "crc32")
assert {e["name"] for e in x} == {"compress2", "deflate", "crc32", "std::vector<int>::push_back(const int&)"}
names = {e["tid"]: e["args"]["name"] for e in ev if e["ph"] == "M"}
assert names == {0: "thread 0", 1: "thread 1"}, names
counters = [e for e in ev if e["ph"] == "C"]
assert len(counters) == 8 and counters[1]["args"]["value"] == 700, counters
# Nesting: every deflate lies inside a compress2 of the same thread.
for e in x:
    if e["name"] == "deflate":
        assert any(p["tid"] == e["tid"] and p["ts"] <= e["ts"] and e["ts"] + e["dur"] <= p["ts"] + p["dur"] for p in c)
PY

# 400000 events on 3 threads: many OTF2 chunks per location; a fourth
# thread is defined without events or event file.
"$make_trace" big 400000 3 1000000000 0 1
"$report" --timeline=big/t.json big > /dev/null
python3 - big/t.json <<'PY'
import sys, json, collections
ev = json.load(open(sys.argv[1]))["traceEvents"]
n = collections.Counter(e["tid"] for e in ev if e["ph"] == "X")
expect = 400000 // 8 // 3 * 4
assert n == {0: expect, 1: expect, 2: expect}, n
PY
echo "timeline ok"
