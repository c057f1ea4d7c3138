#!/usr/bin/env python3
"""check_report.py PROFILE_DIR ARGS_JSON [FACTOR]

libwrap-report --arguments --format=json must give each function's
"arguments" as profile.json has them; FACTOR (a job of that many copies of
the profile): counts, sums and histogram counts multiplied by it, the same
minima, maxima and values with their counts multiplied.
"""
import json
import sys


def scaled(arg, k):
    a = dict(arg)
    a["count"] *= k
    if "sum" in a:
        a["sum"] = a["sum"] * k
        a["histogram"] = [dict(b, count=b["count"] * k) for b in a["histogram"]]
    else:
        a["values"] = [dict(v, count=v["count"] * k) for v in a["values"]]
        a["other"] *= k
    return a


def same(x, y):
    if isinstance(x, float) or isinstance(y, float):
        return x == y or (x is not None and y is not None and abs(x - y) <= 1e-9 * max(abs(x), abs(y)))
    if isinstance(x, dict):
        return x.keys() == y.keys() and all(same(x[k], y[k]) for k in x)
    if isinstance(x, list):
        return len(x) == len(y) and all(same(a, b) for a, b in zip(x, y))
    return x == y


def main():
    prof = json.load(open(sys.argv[1] + "/profile.json"))
    rep = json.load(open(sys.argv[2]))
    k = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    want = {f["symbol"]: [scaled(a, k) for a in f["arguments"]] for f in prof["functions"] if "arguments" in f}
    got = {f["symbol"]: f["arguments"] for f in rep["functions"]}
    if want.keys() != got.keys():
        sys.exit("check_report: FAIL: functions %r, expected %r" % (sorted(got), sorted(want)))
    for s in want:
        if not same(want[s], got[s]):
            sys.exit("check_report: FAIL: %s: %r\nexpected %r" % (s, got[s], want[s]))
    print("check_report: %d functions as in the profile (x%d)" % (len(want), k))


main()
