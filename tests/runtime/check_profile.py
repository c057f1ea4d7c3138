#!/usr/bin/env python3
"""check_profile.py DIR EXPR... - asserts facts about DIR/profile.json.

Each EXPR is a Python expression evaluated with:
  visits(sym)      flat visit count of a function (0 when absent)
  fn(sym)          the flat "functions" entry (KeyError when absent)
  path("a/b/c")    visits of that call path, summed over threads
  paths            {"a/b": visits} for every call path of every thread
  threads, prof    the per-thread list and the whole document
  paths_of(dir)    another profile's paths, as `paths` (not checked)
It also checks the invariants of every profile: the keys of SPEC section 5,
exclusive <= inclusive, callees' inclusive time within the caller's,
min <= mean <= max on every call path (each call's time is its own), the
flat visits equal to the call-path visits.
"""
import json
import os
import sys

def fail(msg):
    print("check_profile: FAIL: " + msg, file=sys.stderr)
    sys.exit(1)

def paths_of(d):
    """{"a/b": visits} of DIR/profile.json, summed over threads."""
    with open(os.path.join(d, "profile.json")) as fh:
        prof = json.load(fh)
    out = {}

    def walk(nodes, prefix):
        for n in nodes:
            p = prefix + "/" + n["symbol"] if prefix else n["symbol"]
            out[p] = out.get(p, 0) + n["visits"]
            walk(n["children"], p)
    for t in prof["threads"]:
        walk(t["callpath"], "")
    return out

def main():
    if len(sys.argv) < 2:
        fail("usage: check_profile.py DIR EXPR...")
    d = sys.argv[1]
    path_json = os.path.join(d, "profile.json")
    if not os.path.exists(path_json):
        fail(path_json + " does not exist; the directory holds: " +
             ", ".join(sorted(os.listdir(d))) if os.path.isdir(d) else d + " does not exist")
    with open(path_json) as fh:
        prof = json.load(fh)
    for k in ("libwrap_profile", "program", "pid", "timer", "metrics", "functions", "threads"):
        if k not in prof:
            fail("key %r missing" % k)
    for k in ("profile.txt", "config.txt"):
        if not os.path.exists(os.path.join(d, k)):
            fail(k + " missing")
    flat = {}
    for f in prof["functions"]:
        for k in ("symbol", "name", "file", "line", "visits", "inclusive_ns", "exclusive_ns",
                  "min_ns", "max_ns", "metrics"):
            if k not in f:
                fail("functions entry lacks %r: %r" % (k, f))
        if f["exclusive_ns"] > f["inclusive_ns"]:
            fail("exclusive > inclusive for %s" % f["symbol"])
        if f["visits"] and f["min_ns"] > f["max_ns"]:
            fail("min > max for %s" % f["symbol"])
        flat[f["symbol"]] = f
    paths = {}
    tree_visits = {}
    recursive = set()

    def walk(nodes, prefix, parent_incl, above=frozenset()):
        total = 0
        for n in nodes:
            for k in ("symbol", "name", "visits", "inclusive_ns", "exclusive_ns", "min_ns",
                      "max_ns", "metrics", "children"):
                if k not in n:
                    fail("call path node lacks %r" % k)
            p = prefix + "/" + n["symbol"] if prefix else n["symbol"]
            paths[p] = paths.get(p, 0) + n["visits"]
            tree_visits[n["symbol"]] = tree_visits.get(n["symbol"], 0) + n["visits"]
            if n["exclusive_ns"] > n["inclusive_ns"]:
                fail("exclusive > inclusive at " + p)
            # Exactly, in the ns written (the min rounded down, the max up).
            if n["visits"] and not (n["min_ns"] * n["visits"] <= n["inclusive_ns"] <=
                                    n["max_ns"] * n["visits"]):
                fail("min <= mean <= max does not hold at %s: %d, %.1f, %d" %
                     (p, n["min_ns"], n["inclusive_ns"] / n["visits"], n["max_ns"]))
            # No call takes longer than all of them.
            if n["max_ns"] > n["inclusive_ns"]:
                fail("max > inclusive at %s: %d > %d" % (p, n["max_ns"], n["inclusive_ns"]))
            if n["symbol"] in above:
                recursive.add(n["symbol"])
            total += n["inclusive_ns"]
            walk(n["children"], p, n["inclusive_ns"], above | {n["symbol"]})
        # ticks are rounded to ns per node: allow 1 ns per child
        if parent_incl is not None and total > parent_incl + len(nodes):
            fail("callees of %s take more time than it: %d > %d" % (prefix, total, parent_incl))

    for t in prof["threads"]:
        if "id" not in t or "callpath" not in t:
            fail("thread entry lacks id or callpath")
        walk(t["callpath"], "", None)
    # A function's inclusive time counts its outermost calls only: its
    # mean bounds its min and max where it never calls itself.
    for sym, f in flat.items():
        if f["visits"] and sym not in recursive and not (
                f["min_ns"] * f["visits"] <= f["inclusive_ns"] <= f["max_ns"] * f["visits"]):
            fail("min <= mean <= max does not hold for %s: %d, %.1f, %d" %
                 (sym, f["min_ns"], f["inclusive_ns"] / f["visits"], f["max_ns"]))
        if f["max_ns"] > f["inclusive_ns"]:
            fail("max > inclusive for %s: %d > %d" % (sym, f["max_ns"], f["inclusive_ns"]))
    for sym, v in tree_visits.items():
        if v and flat.get(sym, {}).get("visits") != v:
            fail("flat visits of %s differ from its call paths: %r vs %d" %
                 (sym, flat.get(sym, {}).get("visits"), v))

    env = {
        "prof": prof, "threads": prof["threads"], "paths": paths,
        "visits": lambda s: flat[s]["visits"] if s in flat else 0,
        "fn": lambda s: flat[s],
        "path": lambda p: paths.get(p, 0),
        "paths_of": paths_of,
    }
    for expr in sys.argv[2:]:
        try:
            ok = eval(expr, env)
        except Exception as e:  # a missing key is a failed expectation
            fail("%s raised %r" % (expr, e))
        if not ok:
            fail("%s is false; call paths: %s" % (expr, json.dumps(paths, sort_keys=True)))
    print("check_profile: %s: %d checks passed" % (d, len(sys.argv) - 2))

main()
