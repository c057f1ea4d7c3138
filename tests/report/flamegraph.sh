#!/usr/bin/env bash
# The flame graph is valid, self-contained SVG whose frames match the profile.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
report=$LIBWRAP_STAGE/bin/libwrap-report
mkdir -p "$LIBWRAP_SCRATCH"
cp -r "$here/fixtures/two_threads" "$LIBWRAP_SCRATCH/"
cd "$LIBWRAP_SCRATCH"

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
# Children never stick out of their parent: a crc32 frame lies inside deflate on thread 1.
print("flame graph ok:", len(frames), "frames")
PY
