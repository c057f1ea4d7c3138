#!/usr/bin/env python3
"""check_arguments.py REDUCED PARTS NP CALLS APP - the recorded arguments
of a job's reduced profile (REDUCED: the job's directory, written with
LIBWRAP_JOB_PARTS=false) against the numbers the program must have passed
and against those of the same job's parts (PARTS: the directory of the job
run with LIBWRAP_JOB_PARTS=true) as libwrap-report adds them up.

The programs (APP: "mpi" for mpi_app.c, "plain" for plain_app.c) record
LIBWRAP_ARGUMENTS=mlib_step:x,mlib_tag:* with "tags": thread t of rank r
passes mlib_step the values of mlib.c's sequence from its start (mpi:
2r + t + 1, plain: t + 1), CALLS of them, and calls mlib_tag as tags.h
says. Every count, sum, extreme, bucket and value is computed here.
"""
import json
import subprocess
import sys

red, parts, np, calls, app = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
NAMES = ("alpha", "beta", "gamma")


def number(values, type_):
    """An argument of numbers as profile.json has it (docs/arguments.md)."""
    buckets = {}
    for v in values:
        b = abs(v).bit_length()
        lo, hi = (0, 0) if b == 0 else (1 << (b - 1), (1 << b) - 1)
        key = (-hi, -lo) if v < 0 else (lo, hi)
        buckets[key] = buckets.get(key, 0) + 1
    hist = [{"lo": lo, "hi": hi, "count": c} for (lo, hi), c in sorted(buckets.items())]
    return {"type": type_, "kind": "signed", "count": len(values), "sum": sum(values),
            "min": min(values), "max": max(values), "histogram": hist}


def strings(values):
    counts = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    listed = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return {"type": "const char *", "kind": "string", "count": len(values),
            "values": [{"value": v, "count": c} for v, c in listed], "other": 0}


steps, names, ns, results = [], [], [], []
tag_visits = []
for r in range(np):
    for t in range(2):
        x = 2 * r + t + 1 if app == "mpi" else t + 1
        for _ in range(calls):
            steps.append(x)
            x = (x * 1103515245 + 12345) % 2147483648
        calls_of_tag = [(NAMES[(r + k) % 3], k) for k in range(r + t + 3)] + [("rank-%d" % r, -r)]
        for name, n in calls_of_tag:
            names.append(name)
            ns.append(n)
            results.append(len(name) + n)
    tag_visits.append(2 * r + 9)
want = {
    "mlib_step": [dict(number(steps, "long"), name="x")],
    "mlib_tag": [dict(strings(names), name="name"), dict(number(ns, "long"), name="n"),
                 dict(number(results, "long"), name="return")],
}


def args_of(entries):
    return {e["symbol"]: e["arguments"] for e in entries if "arguments" in e}


def check(what, got):
    for sym in want:
        g = {a["name"]: a for a in got.get(sym, [])}
        w = {a["name"]: a for a in want[sym]}
        assert g == w, "%s: %s: %s\nwanted %s" % (what, sym, json.dumps(g), json.dumps(w))
    assert set(got) <= set(want) | {"mlib_chain"}, (what, sorted(got))


p = json.load(open(red + "/profile.json"))
assert p["reduced"]["ranks"] == np and p["reduced"]["ranks_reduced"] == np, p["reduced"]
check("the reduced profile's functions", args_of(p["functions"]))
# The call paths: one each, the same arguments as the functions.
check("the reduced profile's call paths", args_of(p["threads"][0]["callpath"]))
# Visits per rank, exact: mlib_tag's differ (2r + 9 calls), rank 0 the fewest.
f = {x["symbol"]: x for x in p["functions"]}
tv = f["mlib_tag"]["ranks"]["visits"]
assert f["mlib_tag"]["visits"] == sum(tag_visits) and f["mlib_tag"]["ranks"]["called"] == np, f["mlib_tag"]
assert (tv["min"], tv["min_rank"], tv["max"], tv["max_rank"]) == (9, 0, 2 * np + 7, np - 1), tv
assert tv["mean"] == sum(tag_visits) / np, tv
sv = f["mlib_step"]["ranks"]["visits"]
assert f["mlib_step"]["visits"] == 2 * calls * np and sv["min"] == sv["max"] == 2 * calls, sv

# libwrap-report --arguments: the reduced profile and the parts added up
# give the same arguments.
def report(d):
    out = subprocess.run(["libwrap-report", "--arguments", "--format=json", d], check=True,
                         stdout=subprocess.PIPE).stdout
    return args_of(json.loads(out)["functions"])


of_parts, of_red = report(parts), report(red)
check("libwrap-report --arguments of the parts", of_parts)
assert of_parts == of_red, "the parts added up: %s\nthe reduced profile: %s" % (of_parts, of_red)

txt = open(red + "/profile.txt").read()
assert "\nrecorded arguments (LIBWRAP_ARGUMENTS)\n" in txt, txt
line = [l for l in txt.splitlines() if l.endswith("mlib_step: x (long)")]
assert line and line[0].split()[:4] == [str(len(steps)), str(sum(steps)), str(min(steps)), str(max(steps))], line
print("ok: %d ranks: %d mlib_step x, sum %d; %d mlib_tag calls (%d to %d per rank), the same in the parts"
      % (np, len(steps), sum(steps), len(names), min(tag_visits), max(tag_visits)))
