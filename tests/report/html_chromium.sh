#!/usr/bin/env bash
# Renders the HTML report in headless Chromium: a screenshot is taken, and
# the rendered DOM holds the flame graph, the table rows and a drawn
# timeline. Skips (77) when Chromium is not installed.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
report=$LIBWRAP_STAGE/bin/libwrap-report
make_trace=$1
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [[ -z $browser ]]; then
    echo "SKIP: chromium is not installed (apt-get install --no-install-recommends chromium)"
    exit 77
fi
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
cp -r "$here/fixtures/two_threads" exp
"$make_trace" exp 400 2 2000000000 1
"$report" --html exp > /dev/null

# The page adds a marker once its scripts ran, so the DOM dump proves the
# timeline was drawn rather than merely shipped.
run_browser() { # PAGE ARGS...
    local page=$1 profile; shift
    profile=$(mktemp -d "$LIBWRAP_SCRATCH/profile.XXXX")
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync --disable-dev-shm-usage \
        --user-data-dir="$profile" --window-size=1280,2000 "$@" "file://$LIBWRAP_SCRATCH/$page" \
        2> browser.log
}
run_browser exp/report.html --screenshot="$LIBWRAP_SCRATCH/report.png" > /dev/null
run_browser exp/report.html --virtual-time-budget=2000 --dump-dom > dom.html
# A click on thread 0's compress2 frame zooms the flame graph into it.
sed 's|</body>|<script>Array.prototype.forEach.call(document.querySelectorAll("#flamegraph g.frame"), function (g) {\
  if (g.querySelector("title").textContent.indexOf("compress2 (10 visits") === 0) g.dispatchEvent(new MouseEvent("click")); });\
</script></body>|' exp/report.html > exp/zoom.html
run_browser exp/zoom.html --virtual-time-budget=2000 --dump-dom > zoom.html
[[ -s report.png ]] || { echo "FAIL: no screenshot"; cat browser.log; exit 1; }

python3 - report.png dom.html zoom.html <<'PY'
import sys, struct, zlib
png = open(sys.argv[1], "rb").read()
assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", png[16:24])
assert (w, h) == (1280, 2000), (w, h)
# Decode enough of the image to see that it is not blank: count distinct colours.
data, pos = b"", 8
while pos < len(png):
    n, kind = struct.unpack(">I4s", png[pos:pos + 8])
    if kind == b"IDAT": data += png[pos + 8:pos + 8 + n]
    pos += 12 + n
raw = zlib.decompress(data)
colours = len(set(raw[i:i + 3] for i in range(0, min(len(raw), 4_000_000), 3)))
assert colours > 50, f"screenshot looks blank ({colours} colours)"
dom = open(sys.argv[2], encoding="utf-8").read()
assert '<svg id="flamegraph"' in dom, "flame graph missing from the rendered DOM"
assert dom.count('class="frame"') == 12, dom.count('class="frame"')
assert dom.count('<tr class="fn">') == 14, dom.count('<tr class="fn">')
assert "std::vector&lt;int&gt;::push_back" in dom
assert 'data-drawn="2"' in dom, "timeline script did not run"
import re
zoom = open(sys.argv[3], encoding="utf-8").read()
frames = re.findall(r'<g class="frame"( style="[^"]*")?><title>([^<]*)</title><rect x="([0-9.]+)" y="[0-9.]+" width="([0-9.]+)"', zoom)
z = {t.split(",")[0]: (st, float(x), float(w)) for st, t, x, w in frames}   # "compress2 (10 visits"
assert z["compress2 (10 visits"][1:] == (10.0, 1180.0), z
assert z["deflate (20 visits"][1:] == (10.0, 472.1), z     # its child, widened with it
assert "none" in z["thread 1 (1.05 ms"][0], z               # outside the zoomed subtree
assert "none" in z["deflate (10 visits"][0], z
assert "none" not in z["all (3.06 ms"][0], z                # ancestors stay
print("chromium ok:", w, "x", h, colours, "colours; zoom works")
PY
