"""libwrap.read(DIR): an experiment (a process or a job) as pandas DataFrames.

Tables are built the first time they are asked for, from the profiles read
by read(). Column names are profile.json's keys; "process", "rank", "pid"
and "thread" say where a row comes from (docs/python.md).
"""

import os

import pandas as pd

from . import _files

# Per-call-path and per-function numbers of profile.json, in its order.
TIME_KEYS = ("visits", "inclusive_ns", "exclusive_ns", "min_ns", "max_ns",
             "inclusive_raw_ns", "exclusive_raw_ns")
_SUMMED = ("visits", "inclusive_ns", "exclusive_ns", "inclusive_raw_ns", "exclusive_raw_ns")
_ARG_KEYS = ("name", "type", "kind", "count", "sum", "min", "max", "other", "overcount", "nan")


def _sum_known(values):
    """The sum of the values known, or missing where none is."""
    return values.sum(min_count=1)


def read(path):
    """Reads the experiment at path (its directory, or its profile.json)."""
    return Experiment(path)


def _cached(method):
    name = "_" + method.__name__

    def get(self):
        value = self.__dict__.get(name)
        if value is None:
            value = method(self)
            self.__dict__[name] = value
        return value

    get.__doc__ = method.__doc__
    get.__name__ = method.__name__
    return property(get)


def _strings(row, d, keys):
    """Copies the string members keys of d into row, with KEY_bytes (the
    original bytes of a string that was not UTF-8) where d has one."""
    for k in keys:
        row[k] = d.get(k)
        raw = d.get(k + "_bytes")
        if raw is not None:
            row[k + "_bytes"] = raw


def _missing_text(ranks):
    """"rank 2 missing", "ranks 2, 5 missing" (at most 10 named)."""
    shown = ", ".join(str(r) for r in ranks[:10]) + (" and %d more" % (len(ranks) - 10) if len(ranks) > 10 else "")
    return "rank%s %s missing" % ("" if len(ranks) == 1 else "s", shown)


def _throttled(d):
    t = d.get("throttled")
    if not t:
        return None
    return "after %s, sampled %s" % (t.get("after"), t.get("sampled"))


class Experiment:
    """A process's or a job's results. Attributes:

    path      the experiment directory
    is_job    True for a job's directory (rank-N parts, or its one reduced
              profile)
    reduced   True for a job's profile reduced over its ranks
              (LIBWRAP_JOB_PARTS=false, docs/mpi.md): sums and per-rank
              statistics, no rank's own figures
    config    the directory's config.txt as a dict
    job       {"id", "launcher", "size", "key"} for a job, else None
    ranks     the ranks that wrote a part
    missing_ranks  the job's ranks (0 to size - 1) that wrote no part (they
              died, or measured nothing): per-rank figures leave them out
    processes DataFrame, one row per process (rank parts and fork children)

    DataFrames (built on first use): functions, callpaths, arguments,
    argument_histograms, metrics, samples; methods function_table(),
    imbalance(), trace(), to_hatchet_literal().
    """

    def __init__(self, path):
        self.path, self.is_job, entries = _files.find(path)
        self.config = _files.read_config(os.path.join(self.path, "config.txt"))
        self._profiles = []
        for e in entries:
            where = self.path if e["process"] == "." else os.path.join(self.path, e["process"])
            prof = _files.load_profile(os.path.join(where, "profile.json"))
            if e["rank"] is None:
                e["rank"] = int(prof.get("rank", 0))
            self._profiles.append((e, prof))
        # A job's one profile, reduced over its ranks: the job's, not a
        # process's (its "rank" says nothing).
        self.reduced = not self.is_job and isinstance(self._profiles[0][1].get("reduced"), dict)
        if self.reduced:
            self.is_job = True
            self._profiles[0][0]["rank"] = -1
        self.job = None
        if self.is_job:
            first = self._profiles[0][1]
            self.job = {
                "id": self.config.get("JOB_ID", first.get("job")),
                "launcher": self.config.get("JOB_LAUNCHER", first.get("launcher")),
                "size": int(self.config.get("JOB_SIZE", first.get("size", -1))),
                "key": self.config.get("JOB_KEY"),
            }
        # The ranks of the job that wrote no part (a rank that died):
        # per-rank figures are those of the ranks present, as
        # libwrap-report's ("3 of 4 ranks").
        self.missing_ranks = []
        if self.is_job and not self.reduced and self.job["size"] > 0:
            present = {e["rank"] for e, _ in self._profiles}
            self.missing_ranks = [r for r in range(self.job["size"]) if r not in present]

    def __repr__(self):
        what = "process"
        if self.is_job:
            what = "job %s of %d ranks" % (self.job["id"], self.job["size"])
            if self.missing_ranks:
                what = "job %s: %d of %d ranks (%s)" % (self.job["id"], len(self.ranks), self.job["size"],
                                                         _missing_text(self.missing_ranks))
        return "<libwrap.Experiment %s: %s, %d processes>" % (self.path, what, len(self._profiles))

    @property
    def ranks(self):
        """The ranks that wrote a part, in order (of a reduced profile: the
        job's ranks)."""
        if self.reduced:
            return list(range(self.job["size"]))
        return sorted({e["rank"] for e, _ in self._profiles})

    def _where(self, e, prof):
        return {"process": e["process"], "rank": e["rank"], "pid": prof.get("pid")}

    # ------------------------------------------------------------------
    # Tables
    # ------------------------------------------------------------------

    @_cached
    def processes(self):
        """One row per process: process (its part, relative to the
        experiment), rank, image (K of rank-N.K), pid, fork, parent, host,
        program, size, threads, visits, exclusive_ns."""
        rows = []
        for e, p in self._profiles:
            row = {"process": e["process"], "rank": e["rank"], "image": e["image"], "pid": p.get("pid"),
                   "fork": e["fork"], "parent": e["parent"]}
            _strings(row, p, ("host", "program"))
            row["size"] = p.get("size")
            row["threads"] = len(p.get("threads") or [])
            funcs = p.get("functions") or []
            row["visits"] = sum(f.get("visits", 0) for f in funcs)
            row["exclusive_ns"] = sum(f.get("exclusive_ns", 0) for f in funcs)
            rows.append(row)
        return pd.DataFrame(rows)

    @_cached
    def metrics(self):
        """The metrics each process measured: process, rank, name, unit,
        source, mode (accumulated: summed; absolute: a level, the maximum)."""
        rows = []
        for e, p in self._profiles:
            for m in p.get("metrics") or []:
                row = self._where(e, p)
                row.update({"name": m.get("name"), "unit": m.get("unit"), "source": m.get("source"),
                            "mode": m.get("mode", "accumulated")})
                rows.append(row)
        return pd.DataFrame(rows, columns=["process", "rank", "pid", "name", "unit", "source", "mode"])

    def _metric_modes(self):
        modes = {}
        for _, p in self._profiles:
            for m in p.get("metrics") or []:
                modes[m.get("name")] = m.get("mode", "accumulated")
        return modes

    @_cached
    def samples(self):
        """ASYNC samples per process and metric: metric, unit, source,
        count, min, max, mean, first_ns, last_ns."""
        rows = []
        keys = ("metric", "unit", "source", "count", "min", "max", "mean", "first_ns", "last_ns")
        for e, p in self._profiles:
            for s in p.get("samples") or []:
                row = self._where(e, p)
                row.update({k: s.get(k) for k in keys})
                rows.append(row)
        return pd.DataFrame(rows, columns=["process", "rank", "pid"] + list(keys))

    def _frame(self, rows, first):
        """A DataFrame with the columns first, then the metric columns and
        KEY_bytes columns that some row has."""
        df = pd.DataFrame(rows)
        if df.empty:
            return pd.DataFrame(columns=list(first))
        rest = [c for c in df.columns if c not in first]
        df = df[[c for c in first if c in df.columns] + rest]
        if "thread" in df.columns:
            df["thread"] = df["thread"].astype("Int64")
        return df

    @_cached
    def functions(self):
        """One row per function and process, summed over the process's
        threads (profile.json's "functions"): process, rank, pid, symbol,
        name, file, line, visits, inclusive_ns, exclusive_ns, min_ns,
        max_ns, inclusive_raw_ns, exclusive_raw_ns, throttled, then a
        column per metric."""
        rows = []
        for e, p in self._profiles:
            where = self._where(e, p)
            for f in p.get("functions") or []:
                row = dict(where)
                _strings(row, f, ("symbol", "name", "file"))
                row["line"] = f.get("line")
                for k in TIME_KEYS:
                    row[k] = f.get(k)
                row["throttled"] = _throttled(f)
                for name, value in (f.get("metrics") or {}).items():
                    row[name if name not in row else "metric:" + name] = value
                rows.append(row)
        return self._frame(rows, ("process", "rank", "pid", "symbol", "name", "file", "line") + TIME_KEYS
                           + ("throttled",))

    @_cached
    def callpaths(self):
        """One row per call-path node: process, rank, pid, thread, node (a
        number unique in the experiment), parent (the parent's node, -1 at
        the top), depth (1 at the top), path (the symbols from the top,
        joined by ";"), symbol, name, the times, throttled, a column per
        metric, and outermost (False where the function is already active
        above on the path: its inclusive time is counted there)."""
        rows = []
        node = 0
        for e, p in self._profiles:
            where = self._where(e, p)
            for t in p.get("threads") or []:
                tid = t.get("id")
                stack = [(c, -1, 1, "", frozenset()) for c in reversed(t.get("callpath") or [])]
                while stack:
                    c, parent, depth, above, active = stack.pop()
                    sym = c.get("symbol")
                    path = sym if not above else above + ";" + sym
                    row = dict(where)
                    row.update({"thread": tid, "node": node, "parent": parent, "depth": depth, "path": path})
                    _strings(row, c, ("symbol", "name"))
                    for k in TIME_KEYS:
                        row[k] = c.get(k)
                    row["throttled"] = _throttled(c)
                    row["outermost"] = sym not in active
                    for name, value in (c.get("metrics") or {}).items():
                        row[name if name not in row else "metric:" + name] = value
                    rows.append(row)
                    below = active | {sym}
                    for child in reversed(c.get("children") or []):
                        stack.append((child, node, depth + 1, path, below))
                    node += 1
        return self._frame(rows, ("process", "rank", "pid", "thread", "node", "parent", "depth", "path",
                                  "symbol", "name") + TIME_KEYS + ("throttled", "outermost"))

    def _argument_rows(self):
        stats, hist = [], []
        for e, p in self._profiles:
            where = self._where(e, p)

            def add(owner, thread, path, level):
                for a in owner.get("arguments") or []:
                    key = dict(where)
                    key.update({"thread": thread, "level": level, "path": path,
                                "symbol": owner.get("symbol"), "function": owner.get("name"),
                                "argument": a.get("name")})
                    row = dict(key)
                    row.update({k: a.get(k) for k in _ARG_KEYS[1:]})
                    cnt = a.get("count") or 0
                    s = a.get("sum")
                    row["mean"] = s / cnt if cnt and isinstance(s, (int, float)) else None
                    stats.append(row)
                    for b in a.get("histogram") or []:
                        r = dict(key)
                        r.update({"kind": a.get("kind"), "lo": b.get("lo"), "hi": b.get("hi"), "value": None,
                                  "count": b.get("count")})
                        hist.append(r)
                    for v in a.get("values") or []:
                        r = dict(key)
                        r.update({"kind": a.get("kind"), "lo": None, "hi": None, "value": v.get("value"),
                                  "count": v.get("count")})
                        if "value_bytes" in v:
                            r["value_bytes"] = v["value_bytes"]
                        if "overcount" in v:
                            r["overcount"] = v["overcount"]
                        hist.append(r)

            for f in p.get("functions") or []:
                add(f, None, None, "function")
            for t in p.get("threads") or []:
                # The symbols from the top are joined only for the nodes
                # with arguments: a path per node would cost the square
                # of the depth of a deep call path.
                stack = [(c, 0) for c in t.get("callpath") or []]
                above = []
                while stack:
                    c, depth = stack.pop()
                    del above[depth:]
                    above.append(c.get("symbol"))
                    if c.get("arguments"):
                        add(c, t.get("id"), ";".join(above), "callpath")
                    stack.extend((child, depth + 1) for child in c.get("children") or [])
        return stats, hist

    _ARG_FIRST = ("process", "rank", "pid", "thread", "level", "path", "symbol", "function", "argument")

    @_cached
    def arguments(self):
        """Recorded arguments (LIBWRAP_ARGUMENTS), one row per argument of
        a function (level "function", thread and path None: summed over the
        process's threads and call paths) and of each call path (level
        "callpath", with its thread and path): type, kind, count, sum, min,
        max, mean, other, overcount, nan."""
        stats, hist = self._argument_rows()
        self.__dict__["_argument_histograms"] = self._frame(
            hist, self._ARG_FIRST + ("kind", "lo", "hi", "value", "count"))
        return self._frame(stats, self._ARG_FIRST + _ARG_KEYS[1:] + ("mean",))

    @property
    def argument_histograms(self):
        """The buckets and frequent values of the recorded arguments, one row
        each, keyed as arguments: lo and hi (a number's log2 bucket,
        inclusive; a double's hi is exclusive) or value (a string's or an
        enum's), and count."""
        if self.__dict__.get("_argument_histograms") is None:
            self.arguments  # builds both
        return self.__dict__["_argument_histograms"]

    # ------------------------------------------------------------------
    # Views
    # ------------------------------------------------------------------

    def function_table(self, by=None):
        """Functions summed over the experiment (by=None), or per "rank",
        "process" or "thread": visits and times summed, min_ns the least,
        max_ns the largest; metrics summed, or their maximum for an
        absolute one (mode "absolute"). Per thread it is computed from the
        call paths; a function's inclusive time and metrics then count its
        outermost activation on each path, as profile.json's functions do."""
        modes = self._metric_modes()
        if by == "thread":
            src = self.callpaths
            keys = ["process", "rank", "pid", "thread"]
        else:
            src = self.functions
            keys = {None: [], "rank": ["rank"], "process": ["process", "rank", "pid"]}.get(by)
            if keys is None:
                raise ValueError("by must be None, 'rank', 'process' or 'thread', not %r" % (by,))
        if src.empty:
            return pd.DataFrame(columns=keys + ["symbol", "name", "visits", "inclusive_ns", "exclusive_ns"])
        metric_cols = [c for c in src.columns if c in modes or (c.startswith("metric:") and c[7:] in modes)]
        group = keys + ["symbol"]
        agg = {"name": "first"}
        if "file" in src.columns:
            agg.update({"file": "first", "line": "first"})
        for k in _SUMMED:
            if k in src.columns:
                # Missing stays missing (a job's reduced profile has no
                # measured times): not a sum of 0.
                agg[k] = "sum" if src[k].notna().all() else _sum_known
        agg.update({"min_ns": "min", "max_ns": "max"})
        for c in metric_cols:
            agg[c] = "max" if modes.get(c[7:] if c.startswith("metric:") else c) == "absolute" else "sum"
        if by == "thread":
            # Inclusive time and metrics of the outermost activations only.
            inner = src[~src["outermost"]]
            out = src.groupby(group, sort=False, dropna=False).agg(agg)
            if not inner.empty:
                sub = inner.groupby(group, sort=False, dropna=False)[
                    [c for c in ("inclusive_ns", "inclusive_raw_ns") if c in src.columns]
                    + [c for c in metric_cols if agg[c] == "sum"]].sum()
                out.loc[sub.index, sub.columns] = out.loc[sub.index, sub.columns] - sub
        else:
            out = src.groupby(group, sort=False, dropna=False).agg(agg)
        out = out.reset_index()
        return out.sort_values(keys + ["exclusive_ns", "symbol"],
                               ascending=[True] * len(keys) + [False, True]).reset_index(drop=True)

    def imbalance(self, function, metric="exclusive_ns"):
        """Per rank, the function's visits and times (every part of the rank
        summed; a rank that did not call it counts 0), and ratio: metric
        over its mean across ranks (1.0 is perfect balance; the largest
        ratio is the imbalance). function is a symbol or a name. The ranks
        are those that wrote a part: a rank missing from the job (it died)
        has no row, and the table's attrs["missing_ranks"] names it."""
        if self.reduced:
            raise ValueError("%s: a reduced profile holds the job's sums and per-rank min / mean / max "
                             "(rank_statistics), not every rank's figures: run with "
                             "LIBWRAP_JOB_PARTS=true for those" % self.path)
        f = self.functions
        sel = f[(f["symbol"] == function) | (f["name"] == function)]
        if sel.empty:
            raise KeyError("%s: no function %r measured (symbols: %s)" % (
                self.path, function, ", ".join(sorted(set(f["symbol"])))[:400]))
        cols = ["visits", "inclusive_ns", "exclusive_ns"]
        if metric not in cols:
            cols.append(metric)
        table = sel.groupby("rank")[cols].sum()
        table = table.reindex(sorted(set(self.ranks) | set(table.index)), fill_value=0)
        mean = table[metric].mean()
        table["ratio"] = table[metric] / mean if mean else float("nan")
        table.index.name = "rank"
        table.attrs["missing_ranks"] = list(self.missing_ranks)
        return table

    @_cached
    def rank_statistics(self):
        """Per function, how its visits and times spread over the job's
        ranks: symbol, name, ranks (how many called it), and for visits,
        exclusive_ns and inclusive_ns the min, min_rank, mean, max and
        max_rank over the ranks (a rank that did not call it counts 0; on
        a tie the lowest rank). A reduced profile holds these; for parts
        they are computed from every rank's own figures, over the ranks
        that wrote a part (missing_ranks, also in attrs, are left out)."""
        rows = []
        kinds = ("visits", "exclusive_ns", "inclusive_ns")
        if self.reduced:
            for f in self._profiles[0][1].get("functions") or []:
                st = f.get("ranks") or {}
                row = {"symbol": f.get("symbol"), "name": f.get("name"), "ranks": st.get("called")}
                for k in kinds:
                    for s in ("min", "min_rank", "mean", "max", "max_rank"):
                        row[k + "_" + s] = (st.get(k) or {}).get(s)
                rows.append(row)
        else:
            f = self.functions
            ranks = self.ranks
            for sym, sel in f.groupby("symbol", sort=True):
                t = sel.groupby("rank")[list(kinds)].sum()
                t = t.reindex(sorted(set(ranks) | set(t.index)), fill_value=0)
                row = {"symbol": sym, "name": sel["name"].iloc[0], "ranks": int((t["visits"] > 0).sum())}
                for k in kinds:
                    row[k + "_min"], row[k + "_min_rank"] = t[k].min(), int(t[k].idxmin())
                    row[k + "_mean"] = t[k].mean()
                    row[k + "_max"], row[k + "_max_rank"] = t[k].max(), int(t[k].idxmax())
                rows.append(row)
        cols = ["symbol", "name", "ranks"] + [k + "_" + s for k in kinds
                                              for s in ("min", "min_rank", "mean", "max", "max_rank")]
        df = pd.DataFrame(rows, columns=cols)
        df.attrs["missing_ranks"] = list(self.missing_ranks)
        return df

    def top(self, n=10, metric="exclusive_ns"):
        """The n functions with the most metric, summed over the experiment."""
        t = self.function_table()
        return t.sort_values([metric, "symbol"], ascending=[False, True]).head(n).reset_index(drop=True)

    # ------------------------------------------------------------------
    # Trace and interchange
    # ------------------------------------------------------------------

    def trace_path(self):
        """The experiment's OTF2 anchor file (a job's merged archive)."""
        anchor = os.path.join(self.path, "traces.otf2")
        if not os.path.isfile(anchor):
            if self.is_job and any(os.path.isfile(os.path.join(self.path, e["process"], "traces.otf2"))
                                   for e, _ in self._profiles):
                raise FileNotFoundError(
                    "%s: the ranks' traces are not merged yet: run libwrap-report --merge %s" % (self.path, self.path))
            raise FileNotFoundError("%s: no trace (run with LIBWRAP_ENABLE_TRACING=true)" % self.path)
        return anchor

    def trace(self, chunksize=None, kinds=None):
        """The trace's events as a DataFrame (chunksize None), or an iterator
        of DataFrames of at most chunksize events each, so that memory stays
        bounded on a large trace. Columns: time (ns since the start of the
        trace), rank, thread, location, event ("enter", "leave",
        "parameter", "metric", ... lowercase OTF2 record names), region,
        symbol, parameter, value. kinds: a set of event names to keep.
        Needs the otf2 module (Debian: python3-otf2)."""
        from . import trace as _trace
        chunks = _trace.read_chunks(self.trace_path(), chunksize or _trace.DEFAULT_CHUNK, kinds)
        if chunksize:
            return chunks
        return _trace.concat(chunks)

    def to_hatchet_literal(self):
        """The call trees in Hatchet's literal format (a list of roots for
        hatchet.GraphFrame.from_literal): a root per thread of each process
        ("rank R thread T"), its children the call paths, with metrics
        "time (inc)" and "time" (ns) and "visits"."""
        from . import hatchet
        return hatchet.literal(self)
