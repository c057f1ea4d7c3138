"""test_libwrap.py NAME SETUP_DIR - one test of the Python package on the
results that setup.sh made with the real runtime:

  SETUP_DIR/fftw-job    the FFTW MPI job: 4 ranks x 2 threads, E fftw_execute
                        per thread, traced, LIBWRAP_ARGUMENTS=sizes
  SETUP_DIR/events.count  otf2-print's number of events of its trace
  SETUP_DIR/fork-exp    rt_app's fork scenario, run as ./caf\\xe9/rt_app
"""

import json
import os
import subprocess
import sys

import libwrap

NP, THREADS, E = 4, 2, 200
SETUP = sys.argv[2]
JOB = os.path.join(SETUP, "fftw-job")
FORK = os.path.join(SETUP, "fork-exp")


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def test_job():
    exp = libwrap.read(JOB)
    check(exp.is_job and exp.job["size"] == NP and exp.job["launcher"] == "Open MPI", "job identity %r" % exp.job)
    check(exp.job["id"] and os.path.basename(os.path.realpath(JOB)) == "libwrap-ompi-" + exp.job["id"],
          "job id %r" % exp.job)
    p = exp.processes
    check(list(p["rank"]) == list(range(NP)) and list(p["process"]) == ["rank-%d" % r for r in range(NP)],
          "processes:\n%s" % p)
    check((p["threads"] == THREADS).all() and not p["fork"].any(), "threads per rank:\n%s" % p)
    f = exp.functions
    ex = f[f["symbol"] == "fftw_execute"].set_index("rank")
    check(list(ex.index) == list(range(NP)), "fftw_execute on every rank")
    check((ex["visits"] == THREADS * E).all(), "fftw_execute visits per rank:\n%s" % ex["visits"])
    check((ex["exclusive_ns"] <= ex["inclusive_ns"]).all(), "exclusive within inclusive")
    # The same numbers as each rank's own profile.json.
    for r in range(NP):
        with open(os.path.join(JOB, "rank-%d" % r, "profile.json")) as fh:
            prof = json.load(fh)
        mine = {x["symbol"]: x for x in prof["functions"]}
        rows = f[f["rank"] == r].set_index("symbol")
        check(set(rows.index) == set(mine), "rank %d: functions" % r)
        for sym, x in mine.items():
            for k in ("visits", "inclusive_ns", "exclusive_ns", "min_ns", "max_ns"):
                check(rows.loc[sym, k] == x[k], "rank %d %s %s: %s != %s" % (r, sym, k, rows.loc[sym, k], x[k]))
    # The job's totals, per thread and the per-rank imbalance.
    tot = exp.function_table().set_index("symbol")
    check(tot.loc["fftw_execute", "visits"] == NP * THREADS * E, "job total of fftw_execute")
    check(tot.loc["fftw_execute", "exclusive_ns"] == ex["exclusive_ns"].sum(), "job total exclusive")
    per_thread = exp.function_table(by="thread")
    pt = per_thread[per_thread["symbol"] == "fftw_execute"]
    check(len(pt) == NP * THREADS and (pt["visits"] == E).all(), "per thread:\n%s" % pt)
    # Compensated times are rounded per call path: within 1 ns each.
    check(abs(pt["exclusive_ns"].sum() - tot.loc["fftw_execute", "exclusive_ns"]) <= len(pt),
          "threads add up to the job")
    imb = exp.imbalance("fftw_execute")
    check(list(imb.index) == list(range(NP)) and (imb["visits"] == THREADS * E).all(), "imbalance:\n%s" % imb)
    check(abs(imb["ratio"].mean() - 1.0) < 1e-9, "ratio's mean is 1")
    # Call paths: every node's parent is in the same thread, depth follows.
    cp = exp.callpaths
    nodes = cp.set_index("node")
    for _, row in cp[cp["parent"] >= 0].iterrows():
        up = nodes.loc[row["parent"]]
        check(up["thread"] == row["thread"] and up["process"] == row["process"] and up["depth"] == row["depth"] - 1
              and row["path"] == up["path"] + ";" + row["symbol"], "call path %s" % row["path"])
    check(cp[cp["symbol"] == "fftw_execute"]["visits"].sum() == NP * THREADS * E, "call paths' visits")
    print(exp.imbalance("fftw_execute"))


def test_fork():
    exp = libwrap.read(FORK)
    p = exp.processes
    check(not exp.is_job and len(p) == 2, "a process and its fork child:\n%s" % p)
    parent, child = p.iloc[0], p.iloc[1]
    check(parent["process"] == "." and not parent["fork"], "the parent first")
    check(child["fork"] and child["parent"] == "." and child["process"] == "fork-%d" % child["pid"],
          "the child named by its pid:\n%s" % p)
    with open(os.path.join(SETUP, "fork.out")) as fh:
        check("child %d\n" % child["pid"] in fh.read(), "the child's pid as it printed it")
    f = exp.functions.set_index(["process", "symbol"])
    check(f.loc[(".", "lib_add"), "visits"] == 3 and f.loc[(".", "lib_fork"), "visits"] == 1, "parent's visits")
    check(f.loc[(child["process"], "lib_add"), "visits"] == 6 and f.loc[(child["process"], "lib_call"), "visits"] == 1,
          "child's visits")
    check((".", "lib_call") not in f.index, "the parent made no lib_call")


def test_arguments():
    exp = libwrap.read(JOB)
    a = exp.arguments
    fa = a[(a["level"] == "function") & (a["symbol"] == "fftw_malloc")]
    check(len(fa) == NP and set(fa["argument"]) == {"n"} and (fa["type"] == "size_t").all(),
          "fftw_malloc's size per rank:\n%s" % fa)
    # fftw_app allocates in and out, 256 complex numbers each, per thread.
    check((fa["count"] == 2 * THREADS).all() and (fa["min"] == 4096).all() and (fa["max"] == 4096).all()
          and (fa["sum"] == 2 * THREADS * 4096).all() and (fa["mean"] == 4096).all(), "sizes:\n%s" % fa)
    check(set(a["argument"]) <= {"n"} | set(a[a["kind"] != "unsigned"]["argument"]),
          "the sizes rule records size_t only")
    cpa = a[(a["level"] == "callpath") & (a["symbol"] == "fftw_malloc")]
    check(len(cpa) == NP * THREADS and (cpa["count"] == 2).all() and cpa["thread"].notna().all(),
          "per call path and thread:\n%s" % cpa)
    h = exp.argument_histograms
    fh = h[(h["level"] == "function") & (h["symbol"] == "fftw_malloc")]
    check(len(fh) == NP and (fh["lo"] == 4096).all() and (fh["hi"] == 8191).all() and (fh["count"] == 4).all(),
          "the log2 bucket [4096, 8191]:\n%s" % fh)


def test_trace():
    exp = libwrap.read(JOB)
    with open(os.path.join(SETUP, "events.count")) as fh:
        want = int(fh.read())
    total, chunks, enters = 0, 0, {}
    for chunk in exp.trace(chunksize=1000):
        check(len(chunk) <= 1000, "a chunk larger than asked")
        total += len(chunk)
        chunks += 1
        for (r, t), n in chunk[chunk["event"] == "enter"].groupby(["rank", "thread"]).size().items():
            enters[(r, t)] = enters.get((r, t), 0) + n
    check(total == want, "trace events %d, otf2-print %d" % (total, want))
    check(chunks == -(-want // 1000), "%d chunks of 1000 for %d events" % (chunks, want))
    df = exp.trace()
    check(len(df) == want and df["time"].is_monotonic_increasing, "the whole trace at once, in time order")
    ex = df[(df["event"] == "enter") & (df["region"] == "fftw_execute")]
    check(len(ex) == NP * THREADS * E, "fftw_execute enters %d" % len(ex))
    check(set(zip(ex["rank"], ex["thread"])) == {(r, t) for r in range(NP) for t in (1, 2)},
          "ranks and threads of the enters: %s" % sorted(set(zip(ex["rank"], ex["thread"]))))
    f = exp.function_table().set_index("symbol")
    enters_by_region = df[df["event"] == "enter"].groupby("symbol", observed=True).size()
    for sym, n in enters_by_region.items():
        check(f.loc[sym, "visits"] == n, "%s: enters %d, visits %d" % (sym, n, f.loc[sym, "visits"]))
    par = df[df["event"] == "parameter"]
    check(len(par) == NP * THREADS * 2 and set(par["parameter"]) == {"n"} and set(par["value"]) == {4096},
          "parameter events:\n%s" % par)


def _check_literal_node(node, depth):
    check(isinstance(node, dict) and set(node) == {"frame", "metrics", "children"}, "node keys %s" % list(node))
    check(isinstance(node["frame"], dict) and isinstance(node["frame"].get("name"), str) and node["frame"]["name"],
          "frame with a name")
    check(set(node["metrics"]) == {"time (inc)", "time", "visits"}
          and all(isinstance(v, (int, float)) for v in node["metrics"].values()), "metrics %r" % node["metrics"])
    check(node["metrics"]["time"] <= node["metrics"]["time (inc)"], "exclusive within inclusive")
    check(isinstance(node["children"], list), "children is a list")
    count = 1
    for c in node["children"]:
        count += _check_literal_node(c, depth + 1)
    return count


def test_hatchet():
    exp = libwrap.read(JOB)
    lit = exp.to_hatchet_literal()
    # Hatchet's literal format (hatchet/readers/literal_reader.py): a list
    # of root dicts, each with "frame" (a dict with "name"), "metrics" (a
    # dict of numbers, the same keys everywhere; "(inc)" in a name makes it
    # inclusive) and "children" (a list of such dicts).
    check(isinstance(lit, list) and len(lit) == NP * THREADS, "a root per rank and thread")
    names = [r["frame"]["name"] for r in lit]
    check(names == ["rank %d thread %d" % (r, t) for r in range(NP) for t in (1, 2)], "roots %s" % names)
    nodes = sum(_check_literal_node(r, 0) for r in lit)
    check(nodes - len(lit) == len(exp.callpaths), "a node per call path")
    for root in lit:
        ex = [c for c in root["children"] if c["frame"]["name"] == "fftw_execute"]
        check(len(ex) == 1 and ex[0]["metrics"]["visits"] == E, "fftw_execute under %s" % root["frame"]["name"])
    json.dumps(lit)  # plain data
    try:
        import hatchet
    except ImportError:
        return
    gf = hatchet.GraphFrame.from_literal(lit)
    check(len(gf.dataframe) == nodes, "Hatchet reads every node")


def _png(fig, name):
    path = os.path.join(os.getcwd(), name)
    fig.savefig(path)
    with open(path, "rb") as fh:
        check(fh.read(8) == b"\x89PNG\r\n\x1a\n", "%s is a PNG" % name)
    check(os.path.getsize(path) > 2000, "%s is not empty" % name)


def test_plot():
    import libwrap.plot
    import matplotlib
    exp = libwrap.read(JOB)
    fig = libwrap.plot.imbalance(exp, "fftw_execute")
    check(isinstance(fig, matplotlib.figure.Figure), "a matplotlib Figure")
    check(len(fig.axes[0].patches) == NP, "a bar per rank")
    _png(fig, "imbalance.png")
    fig = libwrap.plot.histogram(exp, "fftw_malloc", "n")
    check(len(fig.axes[0].patches) == 1 and fig.axes[0].patches[0].get_height() == NP * 2 * THREADS,
          "one bucket with every call")
    _png(fig, "histogram.png")
    fig = libwrap.plot.top(exp, 5)
    check(len(fig.axes[0].patches) == 5, "five bars")
    _png(fig, "top.png")
    check("matplotlib.pyplot" not in sys.modules, "no pyplot, no display")


def test_diff():
    a, b = libwrap.read(JOB), libwrap.read(FORK)
    d = libwrap.diff(a, a)
    check((d["visits_diff"] == 0).all() and (d["status"] == "both").all() and (d["ratio"].dropna() == 1).all(),
          "a run against itself:\n%s" % d)
    d = libwrap.diff(a, b).set_index("symbol")
    check(d.loc["fftw_execute", "status"] == "only a" and d.loc["lib_add", "status"] == "only b", "only a, only b")
    check(d.loc["fftw_execute", "visits_a"] == NP * THREADS * E and d.loc["lib_add", "visits_b"] == 9,
          "visits of both")
    c = libwrap.diff(a, a, by="callpath")
    check(set(c["path"]) == set(a.callpaths["path"]) and (c["visits_diff"] == 0).all(), "by call path")


def test_utf8():
    raw = os.path.join(SETUP, "fork-exp", "profile.json")
    with open(raw, "rb") as fh:
        data = fh.read()
    text = data.decode("utf-8")  # strict: raises if not UTF-8
    prof = json.loads(text)
    want = b"./caf\xe9/rt_app"
    check(prof["program"] == "./caf\ufffd/rt_app" and bytes.fromhex(prof["program_bytes"]) == want,
          "program %r %r" % (prof["program"], prof.get("program_bytes")))
    exp = libwrap.read(FORK)
    p = exp.processes
    check((p["program"] == "./caf\ufffd/rt_app").all(), "the readable name:\n%s" % p["program"])
    check(list(p["program_bytes"]) == [want, want], "the original bytes, parent and child")
    # The report's JSON: valid UTF-8 too, the same bytes.
    out = subprocess.run([os.path.join(os.environ["LIBWRAP_STAGE"], "bin", "libwrap-report"), "--format=json",
                          FORK], check=True, stdout=subprocess.PIPE).stdout
    rep = json.loads(out.decode("utf-8"))
    check(bytes.fromhex(rep["program_bytes"]) == want, "libwrap-report --format=json: %r" % rep.get("program"))


def test_errors():
    # Directories begun by runs that never wrote results (killed, still
    # running; a job's ranks ended by their launcher) are said to be so;
    # a directory of something else is not an experiment.
    import math
    import shutil
    for d, files in (("unfinished", ["config.txt"]), ("killed-job", ["config.txt", "rank-0/config.txt"]),
                     ("other", [])):
        for f in files:
            os.makedirs(os.path.dirname(os.path.join(d, f)) or d, exist_ok=True)
            open(os.path.join(d, f), "w").close()
        os.makedirs(d, exist_ok=True)
    for d, want in (("unfinished", "profile.json not written: the process that began this directory"),
                    ("killed-job", "profile.json not written: the processes that began this directory"),
                    ("other", "not a libwrap experiment")):
        try:
            libwrap.read(d)
            check(False, "%s: read" % d)
        except ValueError as e:
            check(want in str(e), "%s: %s" % (d, e))
    # A process that measured nothing itself, whose forked children did (a
    # pre-fork server's master): they are named.
    # One that measured (config.txt) and ended without writing (_exit).
    for name, drop, want in (("master", ("profile.json", "profile.txt", "config.txt"),
                              "the process measured no call (no profile.json), "),
                             ("exited", ("profile.json", "profile.txt"),
                              "the process wrote no results (no profile.json: it ended by _exit or SIGKILL, or "
                              "runs on), ")):
        shutil.copytree(FORK, name, dirs_exist_ok=True)
        for f in drop:
            if os.path.exists(os.path.join(name, f)):
                os.remove(os.path.join(name, f))
        try:
            libwrap.read(name)
            check(False, "%s: read" % name)
        except ValueError as e:
            check(want in str(e) and ("read one with libwrap.read('%s/fork-" % name) in str(e), "%s: %s" % (name, e))
    # A profile without the measured (raw) times, as a job's reduced one:
    # the summed table says missing, not 0.
    shutil.copytree(FORK, "noraw", dirs_exist_ok=True)
    for top, _, names in os.walk("noraw"):
        if "profile.json" not in names:
            continue
        with open(os.path.join(top, "profile.json")) as fh:
            prof = json.load(fh)
        for f in prof["functions"]:
            f.pop("inclusive_raw_ns", None)
            f.pop("exclusive_raw_ns", None)
        with open(os.path.join(top, "profile.json"), "w") as fh:
            json.dump(prof, fh)
    t = libwrap.read("noraw").function_table()
    check(len(t) > 0 and all(math.isnan(v) for v in t["inclusive_raw_ns"]),
          "raw times summed where the profile has none:\n%s" % t)


def test_install():
    # libwrap-info python-path (run.sh put it on PYTHONPATH) holds the
    # package that was imported; pip installs python/ without a network.
    path = subprocess.run([os.path.join(os.environ["LIBWRAP_STAGE"], "bin", "libwrap-info"), "python-path"],
                          check=True, stdout=subprocess.PIPE).stdout.decode().strip()
    check(os.path.realpath(libwrap.__file__) ==
          os.path.realpath(os.path.join(path, "libwrap", "__init__.py")), "imported from %s" % libwrap.__file__)
    for name in ("read", "diff", "Experiment"):
        check(callable(getattr(libwrap, name)), name)
    src = os.path.join(os.environ["LIBWRAP_SOURCE_DIR"], "python")
    wheel = os.path.join(os.getcwd(), "wheel")
    os.makedirs(wheel, exist_ok=True)
    # The in-tree backend builds the wheel with the standard library alone.
    sys.path.insert(0, os.path.join(src, "backend"))
    import libwrap_build
    name = libwrap_build.build_wheel(wheel)
    import zipfile
    with zipfile.ZipFile(os.path.join(wheel, name)) as z:
        files = set(z.namelist())
    check({"libwrap/__init__.py", "libwrap/plot.py", "libwrap-0.1.0.dist-info/RECORD"} <= files, "wheel %s" % files)
    r = subprocess.run([sys.executable, "-m", "pip", "--version"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode == 0:
        subprocess.run([sys.executable, "-m", "pip", "install", "--no-index", "--no-deps", "--quiet",
                        "--target", os.path.join(os.getcwd(), "site"), src], check=True)
        check(os.path.isfile(os.path.join(os.getcwd(), "site", "libwrap", "experiment.py")), "pip install ./python")


if __name__ == "__main__":
    globals()["test_" + sys.argv[1]]()
