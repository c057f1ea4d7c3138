#!/usr/bin/env bash
# The flame graph is valid, self-contained SVG whose frames match the profile.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
report=$LIBWRAP_STAGE/bin/libwrap-report
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
cp -r "$here/fixtures/two_threads" .

out=$("$report" --flamegraph two_threads)
[[ $out == "flame graph: two_threads/flamegraph.svg" ]] || { echo "FAIL: unexpected output: $out"; exit 1; }
"$report" --flamegraph=custom.svg two_threads > /dev/null
cmp two_threads/flamegraph.svg custom.svg   # deterministic

python3 - two_threads/flamegraph.svg <<'PY'
import sys, re, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()          # raises on invalid XML
assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
text = open(sys.argv[1]).read()
assert "http" not in text.replace("http://www.w3.org/2000/svg", ""), "external reference in the SVG"
frames = root.findall("s:g[@class='frame']", ns)
titles = [f.find("s:title", ns).text for f in frames]
def frame(prefix):
    hits = [t for t in titles if t.startswith(prefix + " (")]
    assert hits, f"no frame {prefix!r} in {titles}"
    return hits
# all, 2 threads, and every call path: t0 3 roots + deflate; t1 compress2/deflate/crc32, walk/walk.
assert len(frames) == 1 + 2 + 4 + 5, titles
assert frame("all")[0] == "all (3.06 ms, 100.00%)", frame("all")
frame("thread 0"); frame("thread 1")
assert len(frame("compress2")) == 2 and len(frame("walk")) == 2
assert "compress2 (10 visits, inclusive 2.00 ms, exclusive 1.20 ms, 65.46%)" in titles, titles
assert frame("std::vector<int>::push_back(const int&)")   # escaped in the file, intact once parsed
assert "std::vector&lt;int&gt;::push_back" in text
# Widths follow inclusive time: compress2 on thread 0 is twice compress2 on thread 1.
w = {}
for f in frames:
    t = f.find("s:title", ns).text
    w.setdefault(t.split(" (")[0], []).append(float(f.find("s:rect", ns).get("width")))
assert abs(w["compress2"][0] / w["compress2"][1] - 2.0) < 0.01, w["compress2"]
assert abs(w["all"][0] - 1180.0) < 0.1
print("flame graph ok:", len(frames), "frames")
PY

# Children never stick out of their parent: every frame lies inside the
# frame of the row below it that encloses it (frames are written parent
# first, so its parent is the last frame written one row lower), and
# siblings do not overlap. Coordinates are written with one decimal.
cat > nesting.py <<'PY'
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
frames = []
for g in ET.parse(sys.argv[1]).getroot().findall("s:g[@class='frame']", ns):
    r = g.find("s:rect", ns)
    frames.append((g.find("s:title", ns).text, float(r.get("x")), float(r.get("y")), float(r.get("width"))))
rows = sorted({y for _, _, y, _ in frames}, reverse=True)   # the root's row is the lowest
depth = {y: d for d, y in enumerate(rows)}
eps = 0.15
last = {}       # depth -> the last frame written at that depth
prev_child = {} # id of a parent frame -> the end of its last child so far
bad = []
for i, (t, x, y, w) in enumerate(frames):
    d = depth[y]
    if d == 0:
        assert i == 0, f"{t}: a second frame in the root's row"
    else:
        assert d - 1 in last, f"{t}: no parent frame below it"
        pi, (pt, px, py, pw) = last[d - 1]
        if x < px - eps or x + w > px + pw + eps:
            bad.append(f"{t} [{x}, {x + w}] sticks out of its parent {pt} [{px}, {px + pw}]")
        if x < prev_child.get(pi, px) - eps:
            bad.append(f"{t} at {x} overlaps its previous sibling, which ends at {prev_child[pi]}")
        prev_child[pi] = x + w
    last[d] = (i, (t, x, y, w))
    for k in [k for k in last if k > d]:
        del last[k]
assert not bad, "\n".join(bad)
assert len(depth) >= 4, rows     # all, thread, and two levels of calls at least
print("nesting ok:", len(frames), "frames in", len(rows), "rows")
PY
python3 nesting.py two_threads/flamegraph.svg
# The check catches a child wider than its parent: crc32 (under deflate on
# thread 1) widened.
sed -E '/<title>crc32 /s/width="[0-9.]+"/width="900.0"/' two_threads/flamegraph.svg > broken.svg
! cmp -s broken.svg two_threads/flamegraph.svg || { echo "FAIL: the broken copy is no different"; exit 1; }
if python3 nesting.py broken.svg > broken.out 2>&1; then
    echo "FAIL: the nesting check passes a frame wider than its parent"; exit 1
fi
grep -q "crc32.*sticks out of its parent deflate" broken.out || { echo "FAIL: unexpected: $(cat broken.out)"; exit 1; }
