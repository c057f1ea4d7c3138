#!/usr/bin/env bash
# libwrap-report on what the runtime really writes:
#  - profile and trace of a two-thread program with known call counts
#    (real_run.c, the runtime API called as generated wrappers call it);
#    the trace was asked for, and is required;
#  - a small library with a recursive function (recurse/rr.c), wrapped by
#    libwrap-gen and preloaded, run on two threads with an accumulated and
#    an absolute metric (perf task-clock, rusage ru_minflt and ru_maxrss):
#    the per-thread table (--threads) and the summed table agree, figure by
#    figure, and no function's min is below its smallest call.
set -euo pipefail
TEST_LABEL=report_real_run
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
report=$LIBWRAP_STAGE/bin/libwrap-report
program=$1
src=$LIBWRAP_SOURCE_DIR/tests/report

# agree SUMMED.tsv THREADS.tsv PROFILE.json: every figure of the summed
# table is that of the per-thread rows, combined as the runtime combines
# them: visits, times and accumulated metrics add up, an absolute metric
# is the largest, min and max those of all calls.
agree() {
    python3 - "$@" <<'PY'
import sys, json, collections
def rows(path):
    lines = [l.rstrip("\n").split("\t") for l in open(path)]
    return [dict(zip(lines[0], l)) for l in lines[1:]]
modes = {m["name"]: m.get("mode", "accumulated") for m in json.load(open(sys.argv[3]))["metrics"]}
summed = {r["symbol"]: r for r in rows(sys.argv[1])}
per = collections.defaultdict(list)
for r in rows(sys.argv[2]):
    per[r["symbol"]].append(r)
assert set(per) == set(summed), (sorted(per), sorted(summed))
for sym, s in summed.items():
    t = per[sym]
    for k in ("visits", "inclusive_ns", "exclusive_ns"):
        got = sum(int(r[k]) for r in t)
        assert got == int(s[k]), f"{sym} {k}: per thread {got}, summed {s[k]}"
    got = min(int(r["min_ns"]) for r in t)
    assert got == int(s["min_ns"]), f"{sym} min_ns: per thread {got}, summed {s['min_ns']}"
    got = max(int(r["max_ns"]) for r in t)
    assert got == int(s["max_ns"]), f"{sym} max_ns: per thread {got}, summed {s['max_ns']}"
    for m, mode in modes.items():
        vals = [float(r[m]) for r in t]
        got = max(vals) if mode == "absolute" else sum(vals)
        assert got == float(s[m]), f"{sym} {m} ({mode}): per thread {vals} give {got}, summed {s[m]}"
PY
}

LIBWRAP_EXPERIMENT_DIRECTORY=exp LIBWRAP_ENABLE_TRACING=true LIBWRAP_TIMER=clock_gettime "$program"
[[ -f exp/profile.json ]] || { ls -R exp || true; fail "the runtime wrote no exp/profile.json"; }

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
agree summed.tsv threads.tsv exp/profile.json || fail "real_run: the per-thread and the summed tables differ"

# Tracing was on: the trace must be there.
[[ -f exp/traces.otf2 ]] || { ls -R exp || true; fail "LIBWRAP_ENABLE_TRACING=true wrote no exp/traces.otf2"; }
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
grep -q 'var LIBWRAP_TIMELINE=' exp/report.html || fail "report.html holds no timeline"

# A recursive library function, wrapped and preloaded, with metrics.
cc=${CC:-cc}
$cc -O0 -g -fPIC -shared -Wl,-soname,librr.so -o librr.so "$src/recurse/rr.c"
$cc -O0 -g -pthread -I"$src/recurse" -o rr_app "$src/recurse/rr_app.c" -L"$PWD" -Wl,-rpath,"$PWD" -lrr
wrap_library recurse '"rr.h"' "-I$src/recurse" "-L$PWD" "-lrr"
LIBWRAP_EXPERIMENT_DIRECTORY=rr LIBWRAP_TIMER=clock_gettime LIBWRAP_METRIC_PERF=task-clock \
    LIBWRAP_METRIC_RUSAGE=ru_minflt,ru_maxrss LD_PRELOAD=$PWD/libwrap_recurse_runtime.so ./rr_app > rr.out 2> rr.err ||
    fail "rr_app failed: $(cat rr.err)"
grep -qx 'calls 24 12' rr.out || fail "rr_app printed $(cat rr.out)"
[[ ! -s rr.err ]] || fail "rr_app measured wrote to stderr: $(cat rr.err)"
"$report" --threads rr
"$report" --format=tsv --threads rr > rr_threads.tsv
"$report" --format=tsv rr > rr_summed.tsv
python3 - rr_summed.tsv rr_threads.tsv rr/profile.json <<'PY' || fail "rr: wrong profile"
import sys, json
def rows(path):
    lines = [l.rstrip("\n").split("\t") for l in open(path)]
    return [dict(zip(lines[0], l)) for l in lines[1:]]
prof = json.load(open(sys.argv[3]))
modes = {m["name"]: m["mode"] for m in prof["metrics"]}
assert modes == {"task-clock": "accumulated", "ru_minflt": "accumulated", "ru_maxrss": "absolute"}, modes
s = rows(sys.argv[1])
assert [r["symbol"] for r in s] == ["rr_walk"], s
assert int(s[0]["visits"]) == 36, s
assert sorted(int(r["visits"]) for r in rows(sys.argv[2])) == [12, 24], rows(sys.argv[2])
# Every call spins at least 200 us in its innermost call: no min below it
# (the inclusive time counts the outermost calls only; their mean over all
# 36 visits is about a quarter of that).
assert int(s[0]["min_ns"]) >= 200000, s
# The innermost calls touch fresh memory and spin: the outermost calls
# hold their CPU time and page faults.
assert all(float(s[0][m]) > 0 for m in modes), s
PY
agree rr_summed.tsv rr_threads.tsv rr/profile.json || fail "rr: the per-thread and the summed tables differ"
echo "ok"
