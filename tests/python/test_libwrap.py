"""test_libwrap.py NAME SETUP_DIR - one test of the Python package on the
results that setup.sh made with the real runtime:

  SETUP_DIR/fftw-job    the FFTW MPI job: 4 ranks x 2 threads, E fftw_execute
                        per thread, traced, LIBWRAP_ARGUMENTS=sizes
  SETUP_DIR/events.count  otf2-print's number of events of its trace
  SETUP_DIR/fork-exp    rt_app's fork scenario, run as ./caf\\xe9/rt_app
  SETUP_DIR/wisdom-exp  a lone process, traced: fftw_import_wisdom_from_filename
                        ("cafe.wisdom") with its file name recorded, and the
                        rusage metrics ru_minflt, ru_nvcsw

The tests of damaged or odd input make it in their scratch directory (the
working directory) from these.
"""

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys

import libwrap

NP, THREADS, E = 4, 2, 200
SETUP = sys.argv[2]
JOB = os.path.join(SETUP, "fftw-job")
FORK = os.path.join(SETUP, "fork-exp")
WISDOM = os.path.join(SETUP, "wisdom-exp")
HINT = "is it a complete OTF2 archive written with LIBWRAP_ENABLE_TRACING=true?"


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def patch_bytes(path, old, new, count, what):
    """Replaces the `count` occurrences of `old` in the file `path` with
    `new`; returns the file as it was."""
    with open(path, "rb") as fh:
        data = fh.read()
    check(data.count(old) == count, what)
    with open(path, "wb") as fh:
        fh.write(data.replace(old, new))
    return data


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


def _report(*args):
    """libwrap-report's exit status, stdout and stderr (text)."""
    r = subprocess.run([os.path.join(os.environ["LIBWRAP_STAGE"], "bin", "libwrap-report")] + list(args),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")


def _report_error(*args):
    """libwrap-report's message for bad input, less its "libwrap-report: "."""
    rc, _, err = _report(*args)
    check(rc != 0, "libwrap-report %s: exit 0" % " ".join(args))
    return err.strip().splitlines()[0].split(": ", 1)[1]


def _raises(fn, kind, *want):
    """The message of the kind of exception fn() raises, which holds each
    of want."""
    try:
        fn()
    except kind as e:
        for w in want:
            check(w in str(e), "%r not in the message: %s" % (w, e))
        return str(e)
    except Exception as e:
        raise AssertionError("expected %s with %r, got %s: %s" % (kind.__name__, want, type(e).__name__, e))
    raise AssertionError("expected %s with %r: nothing raised" % (kind.__name__, want))


@contextlib.contextmanager
def _stderr_to(path):
    """File descriptor 2 (what C writes, and Python's sys.stderr) into path."""
    sys.stderr.flush()
    saved = os.dup(2)
    with open(path, "wb") as f:
        os.dup2(f.fileno(), 2)
    try:
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)


def _copy_job(dst, drop=()):
    """A copy of the FFTW job without its trace (nor the parts' traces),
    leaving out the parts named in drop."""
    def ignore(folder, names):
        return [n for n in names if n in drop or n.startswith("traces") or n.endswith(".lwrt")]
    shutil.copytree(JOB, dst, ignore=ignore)


def _edit_profile(path, edit):
    with open(path) as fh:
        prof = json.load(fh)
    edit(prof)
    with open(path, "w") as fh:
        json.dump(prof, fh)


def test_trace_utf8():
    # An archive written before the runtime wrote valid UTF-8 into traces:
    # the recorded file name "cafe.wisdom" made "caf\xe9.wisdom" in a copy
    # of the real run's definitions (a string definition, as OTF2 keeps a
    # ParameterString's value). It reads with U+FFFD, as profile.json has
    # it; the otf2 module's own state is left as it was.
    import _otf2.Config as config
    import otf2
    before = config.encoding
    shutil.copytree(WISDOM, "old-trace")
    patch_bytes(os.path.join("old-trace", "traces.def"), b"cafe.wisdom", b"caf\xe9.wisdom", 1,
                "the file name once in traces.def")
    for d, want in (("old-trace", "caf\ufffd.wisdom"), (WISDOM, "cafe.wisdom")):
        t = libwrap.read(d).trace()
        par = t[t["event"] == "parameter"]
        check(list(par["parameter"]) == ["filename"] and list(par["value"]) == [want],
              "%s: the recorded string:\n%s" % (d, par))
        check(list(t[t["event"] == "enter"]["region"]) == ["fftw_import_wisdom_from_filename"], "%s: enter" % d)
    check(config.encoding == before, "the binding's encoding restored: %r" % config.encoding)
    # In chunks: restored while the reader waits between them too.
    chunks = libwrap.read("old-trace").trace(chunksize=2)
    first = next(chunks)
    check(config.encoding == before, "the binding's encoding while a chunked read waits")
    check(sum(len(c) for c in chunks) + len(first) == len(t), "the chunks hold every event")
    # The binding itself still refuses the bytes: libwrap changed nothing.
    with _stderr_to("binding.err"):
        try:
            with otf2.reader.open(os.path.join("old-trace", "traces.otf2")) as tr:
                [tr.definitions.strings[ref] for ref in range(len(tr.definitions.strings))]
            strict = False
        except Exception:
            strict = True
    check(strict, "the otf2 module read the bytes by itself: its state was not restored")


def test_fork_exec():
    # A fork child's exec'd program writes fork-PID.1 beside fork-PID, and
    # a rank's, rank-N/fork-PID.1 (docs/runtime.md "fork and exec"): read
    # as processes, and the same that libwrap-report lists. The program a
    # lone process exec'd writes DIR.1 beside DIR: another experiment.
    shutil.copytree(FORK, "fx")
    child = [d for d in os.listdir("fx") if d.startswith("fork-")]
    check(len(child) == 1, "one fork child: %s" % child)
    child = child[0]
    grandchild = "%s.1/fork-%d" % (child, int(child[5:]) + 1)
    shutil.copytree(os.path.join("fx", child), os.path.join("fx", child + ".1"))
    shutil.copytree(os.path.join("fx", child), os.path.join("fx", grandchild))
    shutil.copytree(os.path.join("fx", child), "fx.1")
    exp = libwrap.read("fx")
    p = exp.processes
    want = [".", child, child + ".1", grandchild]
    check(list(p["process"]) == want, "processes:\n%s" % p)
    q = p.set_index("process")
    check(q.loc[child + ".1", "fork"] and q.loc[child + ".1", "parent"] == "." and q.loc[child + ".1", "image"] == 1,
          "the exec'd image of the fork child:\n%s" % p)
    check(q.loc[grandchild, "parent"] == child + ".1" and q.loc[grandchild, "image"] == 1, "its fork child:\n%s" % p)
    f = exp.functions
    check(f[f["process"] == child + ".1"]["visits"].sum() == f[f["process"] == child]["visits"].sum(),
          "its functions are read")
    names = [r["frame"]["name"] for r in exp.to_hatchet_literal()]
    check(len(set(names)) == len(names), "distinct Hatchet roots: %s" % names)
    _, _, err = _report("fx")
    listed = re.findall(r"fx/(fork-[0-9./fork-]+) \(", err)
    check(sorted(listed) == sorted(want[1:]), "libwrap-report lists %s, libwrap.read %s" % (listed, want[1:]))
    # A job: rank-1/fork-4242 and rank-1/fork-4242.1.
    _copy_job("jx")
    for d in ("fork-4242", "fork-4242.1"):
        shutil.copytree(os.path.join("fx", child), os.path.join("jx", "rank-1", d))
    p = libwrap.read("jx").processes.set_index("process")
    check(list(p.index) == ["rank-0", "rank-1", "rank-1/fork-4242", "rank-1/fork-4242.1", "rank-2", "rank-3"],
          "the job's processes:\n%s" % p)
    row = p.loc["rank-1/fork-4242.1"]
    check(row["rank"] == 1 and row["image"] == 1 and row["parent"] == "rank-1" and row["fork"],
          "rank-1/fork-4242.1:\n%s" % row)
    _, _, err = _report("jx")
    check(sorted(re.findall(r"jx/(rank-1/fork-[0-9.]+) \(", err)) == ["rank-1/fork-4242", "rank-1/fork-4242.1"],
          "libwrap-report: %s" % err)


def test_format():
    # Each member the tables read is checked when the profile is read: the
    # file, the JSON path, what was expected, as libwrap-report says it.
    def bad(name, edit):
        shutil.copytree(FORK, name, ignore=shutil.ignore_patterns("fork-*"))
        _edit_profile(os.path.join(name, "profile.json"), edit)
        return name

    def visits(p):
        p["functions"][0]["visits"] = "1"

    def no_inclusive(p):
        del p["threads"][0]["callpath"][1]["inclusive_ns"]

    def no_symbol(p):
        del p["threads"][0]["callpath"][0]["symbol"]

    def old_layout(p):
        p["functions"] = {f["symbol"]: f for f in p["functions"]}

    for name, edit, want in (
            ("v99", lambda p: p.update(libwrap_profile=99),
             "v99/profile.json: profile format 99 (\"libwrap_profile\"), newer than this reader knows (format 1)"),
            ("v0", lambda p: p.update(libwrap_profile=0),
             "v0/profile.json: profile format 0 (\"libwrap_profile\"): this reader knows format 1 only"),
            ("nover", lambda p: p.pop("libwrap_profile"), "nover/profile.json: no \"libwrap_profile\" format version"),
            ("visits", visits, "visits/profile.json: functions[0].visits: expected a number"),
            ("noincl", no_inclusive,
             "noincl/profile.json: threads[0].callpath[1]: missing \"inclusive_ns\"; is the profile complete?"),
            ("nosym", no_symbol, "nosym/profile.json: threads[0].callpath[0]: missing \"symbol\" string"),
            ("oldlayout", old_layout, "oldlayout/profile.json: functions: expected an array"),
            ("throttled", lambda p: p["functions"][1].update(throttled="1/8"),
             "throttled/profile.json: functions[1].throttled: expected an object"),
            ("mode", lambda p: p.update(metrics=[{"name": "m", "unit": "#", "mode": "sum"}]),
             "mode/profile.json: metrics[0].mode: expected \"accumulated\" or \"absolute\""),
            ("argcount", lambda p: p["functions"][0].update(arguments=[{"name": "n", "count": "2"}]),
             "argcount/profile.json: functions[0].arguments[0].count: expected a number"),
            ("threads", lambda p: p.update(threads={"0": []}), "threads/profile.json: threads: expected an array"),
            ("rank", lambda p: p.update(rank="0"), "rank/profile.json: rank: expected an integer")):
        d = bad(name, edit)
        _raises(lambda: libwrap.read(d), ValueError, want)
    # The same words as libwrap-report's.
    for d in ("visits", "noincl", "nosym", "oldlayout"):
        try:
            libwrap.read(d)
        except ValueError as e:
            mine = str(e)
        theirs = _report_error(d)
        check(theirs.split(": ", 1)[1] in mine or d == "oldlayout" and "\"functions\" array" in theirs,
              "%s: libwrap-report says %r, libwrap %r" % (d, theirs, mine))
    libwrap.read(bad("good", lambda p: None)).functions  # the unchanged copy reads


def test_missing_rank():
    # rank-2's part is gone (the rank died): per-rank figures are those of
    # the 3 ranks present, as libwrap-report's ("3 of 4 ranks"), and the
    # missing rank is named; a rank present that did not call a function
    # counts 0.
    import libwrap.plot
    _copy_job("dead", drop=("rank-2",))

    def drop_destroy(p):
        p["functions"] = [f for f in p["functions"] if f["symbol"] != "fftw_destroy_plan"]
    _edit_profile(os.path.join("dead", "rank-3", "profile.json"), drop_destroy)
    exp = libwrap.read("dead")
    imb = exp.imbalance("fftw_execute")
    check(list(imb.index) == [0, 1, 3] and (imb["visits"] == THREADS * E).all(), "imbalance:\n%s" % imb)
    check(abs(imb["ratio"].mean() - 1.0) < 1e-9, "ratio's mean is 1")
    rs = exp.rank_statistics.set_index("symbol")
    ex = rs.loc["fftw_execute"]
    check(ex["ranks"] == 3 and ex["visits_min"] == THREADS * E and ex["visits_mean"] == THREADS * E,
          "fftw_execute over the ranks present:\n%s" % ex)
    de = rs.loc["fftw_destroy_plan"]
    check(de["ranks"] == 2 and de["visits_min"] == 0 and de["visits_min_rank"] == 3,
          "a rank present that did not call it counts 0:\n%s" % de)
    # The missing rank is named.
    check(exp.ranks == [0, 1, 3] and exp.missing_ranks == [2], "ranks %s, missing %s" % (exp.ranks, exp.missing_ranks))
    check("3 of 4 ranks (rank 2 missing)" in repr(exp), repr(exp))
    check(imb.attrs.get("missing_ranks") == [2] and rs.attrs.get("missing_ranks") == [2],
          "imbalance and rank_statistics name the missing rank")
    # libwrap-report: the same statistics, and "3 of 4 ranks".
    _, out, _ = _report("dead")
    check("3 of 4 ranks" in out, "libwrap-report's header: %s" % out[:200])
    _, out, _ = _report("--format=json", "--top", "0", "dead")
    for f in json.loads(out)["functions"]:
        st, mine = f.get("ranks"), rs.loc[f["symbol"]]
        check(st is not None and st["called"] == mine["ranks"], "%s: ranks called" % f["symbol"])
        for k in ("visits", "exclusive_ns"):
            for s in ("min", "min_rank", "mean", "max", "max_rank"):
                # The report writes a mean with one decimal.
                check(abs(float(mine[k + "_" + s]) - float(st[k][s])) <= 0.05 + 1e-9 * abs(float(st[k][s])),
                      "%s %s_%s: libwrap %s, libwrap-report %s" % (f["symbol"], k, s, mine[k + "_" + s], st[k][s]))
    title = libwrap.plot.imbalance(exp, "fftw_execute").axes[0].get_title()
    check("3 of 4 ranks" in title, "the plot's title: %s" % title)


def test_trace_errors():
    # A damaged archive: an error naming traces.otf2 and what is wrong,
    # with libwrap-report's hints, and no lines of OTF2's own on stderr.
    import _otf2.Config as config
    import otf2

    def ignore(folder, names):
        if os.path.samefile(folder, JOB):
            return []
        return [n for n in names if n.startswith("traces") or n.endswith(".lwrt")]

    def cut(path, size=None):
        with open(path, "r+b") as fh:
            fh.truncate(os.path.getsize(path) // 2 if size is None else size)

    cases = {}
    for name in ("notraces", "emptydef", "cutanchor", "cutevt"):
        shutil.copytree(JOB, name, ignore=ignore)
    shutil.rmtree(os.path.join("notraces", "traces"))
    cut(os.path.join("emptydef", "traces.def"), 0)
    cut(os.path.join("cutanchor", "traces.otf2"))
    for evt in os.listdir(os.path.join("cutevt", "traces")):
        if evt.endswith(".evt"):
            cut(os.path.join("cutevt", "traces", evt))
    cases = (("notraces", "notraces/traces.otf2: cannot open the events of location rank 0 thread 1 "
                          "(is traces/0.evt missing?)"),
             ("emptydef", "emptydef/traces.otf2: cannot read the global definitions: traces.def is empty; " + HINT),
             ("cutanchor", "cutanchor/traces.otf2: not an OTF2 archive (cannot open it)"),
             ("cutevt", "cutevt/traces.otf2: cannot read events: "))
    for name, want in cases:
        exp = libwrap.read(name)
        with _stderr_to(name + ".err"):
            msg = _raises(exp.trace, ValueError, want)
            _raises(lambda: list(exp.trace(chunksize=10)), ValueError, want)
        with open(name + ".err", "rb") as fh:
            err = fh.read()
        check(b"[OTF2]" not in err and not err.strip(), "%s: stderr:\n%s" % (name, err.decode("utf-8", "replace")))
        if name != "emptydef":
            theirs = _report_error("--timeline", name)
            check(theirs in msg, "%s: libwrap-report says %r, libwrap %r" % (name, theirs, msg))
    check(HINT in _raises(libwrap.read("cutevt").trace, ValueError), "the hint for truncated events")
    # The binding's state is left as it was: its encoding, and OTF2 prints
    # its errors again when the otf2 module reads by itself.
    check(config.encoding == "utf-8", "encoding %r" % config.encoding)
    with _stderr_to("binding.err"):
        try:
            with otf2.reader.open(os.path.join("cutanchor", "traces.otf2")):
                pass
        except Exception:
            pass
    with open("binding.err", "rb") as fh:
        check(b"[OTF2]" in fh.read(), "OTF2's own error printing is restored")


def test_raw_utf8():
    # A profile.json with bytes that are not UTF-8 (not what the runtime
    # writes, but what libwrap-report reads): read with U+FFFD and the
    # original bytes in KEY_bytes, as the runtime writes such strings.
    shutil.copytree(FORK, "raw", ignore=shutil.ignore_patterns("fork-*"))
    data = patch_bytes(os.path.join("raw", "profile.json"), b'"name": "lib_add"', b'"name": "lib_\xe9dd"', 2,
                "lib_add's name in functions and call paths")
    exp = libwrap.read("raw")
    for table in (exp.functions, exp.callpaths):
        row = table[table["symbol"] == "lib_add"]
        check(list(row["name"]) == ["lib_\ufffddd"] and list(row["name_bytes"]) == [b"lib_\xe9dd"],
              "the name and its bytes:\n%s" % row)
    check(_report("raw")[0] == 0, "libwrap-report reads it")
    # A file cut short is said to be one; bad JSON that is not cut short
    # does not blame a running program.
    os.makedirs("cut")
    with open(os.path.join("cut", "profile.json"), "wb") as fh:
        fh.write(data[:len(data) // 2])
    _raises(lambda: libwrap.read("cut"), ValueError, "cut/profile.json: not a valid profile.json",
            "was the program still running?")
    os.makedirs("garbled")
    with open(os.path.join("garbled", "profile.json"), "wb") as fh:
        fh.write(data.replace(b'"visits": 3,', b'"visits": 3 3,', 1))
    msg = _raises(lambda: libwrap.read("garbled"), ValueError, "garbled/profile.json: not a valid profile.json")
    check("still running" not in msg, "garbled, not cut short: %s" % msg)


def test_trace_metric():
    # METRIC events name their metric: its members' names in the order of
    # the values (docs/python.md).
    exp = libwrap.read(WISDOM)
    names = list(exp.metrics["name"])
    check(names == ["ru_minflt", "ru_nvcsw"], "the run's metrics: %s" % names)
    t = exp.trace(kinds={"metric"})
    check(len(t) > 0 and set(t["event"]) == {"metric"}, "metric events:\n%s" % t)
    check(set(t["parameter"]) == {"ru_minflt,ru_nvcsw"}, "the metric's name: %s" % set(t["parameter"]))
    check(all(len(v) == 2 and all(isinstance(x, (int, float)) for x in v) for v in t["value"]),
          "a value per member: %s" % list(t["value"])[:4])
    whole = exp.trace()
    check(set(whole[whole["event"] == "metric"]["parameter"]) == {"ru_minflt,ru_nvcsw"}, "in the whole trace")


_LOCKED = r"""
import sys
try:
    import libwrap
except Exception as e:
    print("cannot import libwrap as this user: %s" % e)
    sys.exit(77)
for d, want in (("locked", "locked/rank-2: permission denied"),
                ("locked-file", "locked-file/rank-1/profile.json: permission denied")):
    try:
        libwrap.read(d)
        print("%s: read" % d)
        sys.exit(1)
    except PermissionError as e:
        if want not in str(e):
            print("%s: %s" % (d, e))
            sys.exit(1)
try:
    libwrap.read("locked-trace").trace()
    print("locked-trace: read")
    sys.exit(1)
except PermissionError as e:
    if "locked-trace/traces/0.evt: permission denied" not in str(e):
        print("locked-trace: %s" % e)
        sys.exit(1)
except Exception as e:
    print("locked-trace: %s: %s" % (type(e).__name__, e))
    sys.exit(1)
print("ok")
"""


def test_permission():
    # A part of the job that cannot be read is said to be so, naming it,
    # not taken for a rank that died; so is a trace's folder. Root reads
    # anything: as root, the check runs as the user nobody (setpriv).
    _copy_job("locked")
    _copy_job("locked-file")
    shutil.copytree(WISDOM, "locked-trace")
    os.chmod(os.path.join("locked", "rank-2"), 0)
    os.chmod(os.path.join("locked-file", "rank-1", "profile.json"), 0)
    os.chmod(os.path.join("locked-trace", "traces"), 0)
    try:
        cmd = [sys.executable, "-c", _LOCKED]
        if os.geteuid() == 0:
            setpriv = shutil.which("setpriv")
            if not setpriv:
                print("SKIP (the permission check): root without setpriv")
                return
            cmd = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"] + cmd
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out = r.stdout.decode("utf-8", "replace")
        if r.returncode == 77:
            print("SKIP (the permission check): %s" % out.strip())
            return
        check(r.returncode == 0, "an unreadable part: %s" % out)
    finally:
        os.chmod(os.path.join("locked", "rank-2"), 0o755)
        os.chmod(os.path.join("locked-file", "rank-1", "profile.json"), 0o644)
        os.chmod(os.path.join("locked-trace", "traces"), 0o755)


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
