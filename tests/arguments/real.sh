#!/usr/bin/env bash
# real.sh zlib|sqlite3|fftw3 - argument recording with a real library, as
# examples/arguments/run.sh does it (libwrap-init, make install, the link-time
# wrapper and LD_PRELOAD), and the exact values its example program passes:
# zlib's buffer sizes (compress*:sourceLen) and gzwrite results, the SQL
# text of sqlite3's prepare calls, FFTW's plan sizes. Under LD_PRELOAD the
# library's calls of its own functions through the PLT are measured too
# (compress calls compress2; sqlite3 prepares its schema queries; FFTW's
# planners call each other): those are the documented differences.
source "$LIBWRAP_SOURCE_DIR/tests/workflow/lib.sh"
lib=${1:?usage: real.sh zlib|sqlite3|fftw3}
header=$(case $lib in zlib) echo zlib.h ;; sqlite3) echo sqlite3.h ;; fftw3) echo fftw3.h ;; esac)
[ -f "/usr/include/$header" ] || { echo "/usr/include/$header not installed: skipped"; exit 77; }

step "examples/arguments/run.sh $lib"
run_ok run.log bash "$examples/arguments/run.sh" "$lib" "$scratch/ex"
cat run.log

step "the recorded values"
python3 - "$lib" "$scratch/ex" <<'PY'
import json, sys
lib, d = sys.argv[1], sys.argv[2]

def args(mode):
    p = json.load(open("%s/%s/profile.json" % (d, mode)))
    return {(f["symbol"], a["name"]): a for f in p["functions"] for a in f.get("arguments", [])}

def numbers(a, values, where):
    want = (len(values), sum(values), min(values), max(values))
    got = (a["count"], a["sum"], a["min"], a["max"])
    assert got == want, "%s: count, sum, min, max %r, expected %r" % (where, got, want)

sizes = [100, 1000, 10000, 100000]
for mode in ("linktime", "preload"):
    got = args(mode)
    if lib == "zlib":
        want = {("compress2", "sourceLen"): sizes * (2 if mode == "preload" else 1),  # compress calls compress2
                ("compress", "sourceLen"): sizes,
                ("compressBound", "sourceLen"): [100000] + [s for s in sizes for _ in (0, 1)],
                ("gzwrite", "return"): sizes + [0]}
        assert set(got) == set(want), "%s: recorded %r" % (mode, sorted(got))
        for k, v in want.items():
            numbers(got[k], v, "%s %s:%s" % (mode, *k))
        h = got[("gzwrite", "return")]["histogram"]
        assert h == [{"lo": 0, "hi": 0, "count": 1}, {"lo": 64, "hi": 127, "count": 1},
                     {"lo": 512, "hi": 1023, "count": 1}, {"lo": 8192, "hi": 16383, "count": 1},
                     {"lo": 65536, "hi": 131071, "count": 1}], "%s: gzwrite histogram %r" % (mode, h)
    elif lib == "sqlite3":
        v2 = {"INSERT INTO t VALUES(?1, ?2)": 10, "CREATE TABLE t(a INTEGER, b TEXT)": 1,
              "SELECT b FROM t ORDER BY a": 1}
        assert set(got) == {("sqlite3_prepare_v2", "zSql"), ("sqlite3_prepare_v3", "zSql")}, sorted(got)
        vals = {v["value"]: v["count"] for v in got[("sqlite3_prepare_v2", "zSql")]["values"]}
        own = {k: c for k, c in vals.items() if k not in v2}
        assert {k: vals.get(k) for k in v2} == v2, "%s: prepare_v2 %r" % (mode, vals)
        # Under LD_PRELOAD sqlite3 prepares its schema queries through the PLT.
        assert (not own) if mode == "linktime" else all("sqlite_master" in k for k in own), own
        assert got[("sqlite3_prepare_v2", "zSql")]["count"] == 12 + sum(own.values())
        v3 = got[("sqlite3_prepare_v3", "zSql")]
        assert v3["values"] == [{"value": "SELECT count(*) FROM t WHERE a > ?1", "count": 3}] and v3["other"] == 0, v3
    else:
        want = {("fftw_plan_dft_1d", "n"): [16, 64, 256, 1024, 64, 256],
                ("fftw_plan_dft_r2c_1d", "n"): [128, 512],
                ("fftw_plan_dft_2d", "n0"): [32], ("fftw_plan_dft_2d", "n1"): [64]}
        # FFTW's own calls (fftw_plan_dft, fftw_plan_many_dft ...) take the
        # sizes as arrays: nothing of them is recorded.
        assert set(got) == set(want), "%s: recorded %r" % (mode, sorted(got))
        for k, v in want.items():
            numbers(got[k], v, "%s %s:%s" % (mode, *k))
    print("ok", lib, mode)
PY
[ $? = 0 ] || fail "the recorded values differ"
echo PASS
