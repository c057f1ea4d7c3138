#!/usr/bin/env bash
# The HTML report parses, is balanced and self-contained, and carries the
# tables, the flame graph and the timeline data; big traces stay small.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
report=$LIBWRAP_STAGE/bin/libwrap-report
make_trace=$1
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
cp -r "$here/fixtures/two_threads" with_trace
cp -r "$here/fixtures/two_threads" no_trace
"$make_trace" with_trace 400 2 2000000000 1

out=$("$report" --html with_trace)
[[ $out == "HTML report: with_trace/report.html" ]] || { echo "FAIL: unexpected output: $out"; exit 1; }
"$report" --html=no_trace.html no_trace > /dev/null
# --top prints the table too, as `make installcheck` uses it.
out=$("$report" --top 2 --html=top.html no_trace)
grep -q '^compress2 ' <<<"$out" && grep -q '^HTML report: top.html$' <<<"$out" || { echo "FAIL: $out"; exit 1; }

check_html() { # FILE WANT_TIMELINE
python3 - "$1" "$2" <<'PY'
import sys, json, re
from html.parser import HTMLParser
VOID = {"meta", "br", "img", "input", "link", "hr", "col", "area", "base", "wbr", "source"}
SVG_VOID = {"rect", "path", "line", "circle"}   # self-closing inside SVG
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.stack = []; s.tags = []; s.ids = set(); s.rows = 0; s.frames = 0; s.ext = []
    def handle_starttag(s, tag, attrs):
        a = dict(attrs); s.tags.append(tag)
        if "id" in a: s.ids.add(a["id"])
        if tag == "tr" and a.get("class") == "fn": s.rows += 1
        if tag == "g" and a.get("class") == "frame": s.frames += 1
        for k in ("src", "href"):
            if k in a and not a[k].startswith("#"): s.ext.append(a[k])
        if tag not in VOID: s.stack.append((tag, s.getpos()))
    def handle_startendtag(s, tag, attrs):
        s.handle_starttag(tag, attrs)
        if tag not in VOID: s.stack.pop()
    def handle_endtag(s, tag):
        if not s.stack or s.stack[-1][0] != tag:
            sys.exit(f"FAIL: </{tag}> at {s.getpos()} closes {s.stack[-1] if s.stack else 'nothing'}")
        s.stack.pop()
text = open(sys.argv[1], encoding="utf-8").read()
p = P(); p.feed(text); p.close()
assert not p.stack, f"FAIL: unclosed {p.stack}"
assert not p.ext, f"FAIL: external resources {p.ext}"
assert text.startswith("<!DOCTYPE html>")
assert {"functions-table", "flamegraph", "thread-0-table", "thread-1-table"} <= p.ids, p.ids
# 6 summed rows + 4 + 4 per-thread rows.
assert p.rows == 14, p.rows
assert p.frames == 12, p.frames
assert "std::vector&lt;int&gt;::push_back(const int&amp;)" in text
m = re.search(r"var LIBWRAP_TIMELINE=(.*?);\n", text, re.S)
if sys.argv[2] == "1":
    t = json.loads(m.group(1))
    assert [th["name"] for th in t["threads"]] == ["thread 0", "thread 1"], t["threads"]
    assert t["regions"][3] == "std::vector<int>::push_back(const int&)"
    # The regions the trace defines (make_trace: 4), no more.
    assert len(t["regions"]) == 4, t["regions"]
    assert "timeline-canvas" in p.ids
else:
    assert m is None and "No trace in this experiment" in text
print("html ok:", sys.argv[1], len(text), "bytes")
PY
}
check_html with_trace/report.html 1
check_html no_trace.html 0

# 2 million events: the timeline is merged down, the page stays small.
rm -rf with_trace/traces with_trace/traces.def with_trace/traces.otf2
"$make_trace" with_trace 2000000 2 1000000000 0
"$report" --html=big.html with_trace > /dev/null
size=$(stat -c %s big.html)
(( size < 4000000 )) || { echo "FAIL: big.html is $size bytes"; exit 1; }
python3 - big.html <<'PY'
import sys, json, re
t = json.loads(re.search(r"var LIBWRAP_TIMELINE=(.*?);\n", open(sys.argv[1]).read(), re.S).group(1))
spans = sum(len(th["spans"]) for th in t["threads"])
calls = sum(s[4] for th in t["threads"] for s in th["spans"]) + t["dropped"]
assert calls == 2000000 // 8 // 2 * 2 * 4, calls   # every call is drawn, merged or counted as dropped
assert spans < 70000, spans
print("big html ok:", spans, "spans for", calls, "calls")
PY
