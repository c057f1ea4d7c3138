#!/usr/bin/env python3
"""compare_counts.py REFERENCE COLUMN WRAPFILE EXCEPTIONS MODE EXPDIR...

Compares the visits measured in the experiment directories EXPDIR (summed
over their profile.json "functions") with column COLUMN (exe or all) of a
corpus reference file, on the rows marked hdr=y whose symbol is wrapped
(listed in WRAPFILE as --wrap=SYMBOL). EXCEPTIONS lists documented
differences as "MODE SYMBOL COUNT reason" lines: in mode MODE (or *), SYMBOL
is measured COUNT times instead of the reference's count. Prints every
difference; exits 1 if any is not an exception.
"""
import json
import sys


def main():
    ref, column, wrapfile, exfile, mode = sys.argv[1:6]
    dirs = sys.argv[6:]
    wrapped = {l.strip()[len("--wrap="):] for l in open(wrapfile) if l.startswith("--wrap=")}
    exceptions = {}
    for line in open(exfile):
        parts = line.split(None, 3)
        if len(parts) >= 3 and not line.startswith("#") and parts[0] in (mode, "*"):
            exceptions[parts[1]] = (int(parts[2]), parts[3].strip() if len(parts) > 3 else "")
    expected, header = {}, None
    for line in open(ref):
        if line.startswith("#"):
            continue
        f = line.split()
        if header is None:
            header = f
            continue
        row = dict(zip(header, f))
        if row.get("hdr") == "y" and row["symbol"] in wrapped:
            expected[row["symbol"]] = int(row[column])
    measured = {}
    for d in dirs:
        for fn in json.load(open(d + "/profile.json"))["functions"]:
            # A symbol with several versions has a region per version
            # (exp@GLIBC_2.2.5, exp@@GLIBC_2.29); the reference counts names.
            sym = fn["symbol"].split("@", 1)[0]
            measured[sym] = measured.get(sym, 0) + int(fn["visits"])
    bad = 0
    compared = 0
    for sym in sorted(set(expected) | {s for s, v in measured.items() if v and s in wrapped}):
        want, got = expected.get(sym, 0), measured.get(sym, 0)
        compared += 1
        if want == got:
            continue
        if sym in exceptions and exceptions[sym][0] == got:
            print("  exception %-28s expected %6d measured %6d: %s" % (sym, want, got, exceptions[sym][1]))
        else:
            print("  DIFFERENT %-28s expected %6d measured %6d" % (sym, want, got))
            bad += 1
    total = sum(expected.values())
    print("%s: %d wrapped symbols compared (%d calls expected), %d differ" % (mode, compared, total, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
