#!/usr/bin/env python3
"""check_counts.py DIR COUNTS SCENARIO INTERNAL - the visits in DIR/profile.json
against the calls sigapp.c counted itself (COUNTS). INTERNAL is how many
wrapped calls of sig_add each sig_nest makes that the wrappers see (2 under
LD_PRELOAD, 0 at link time, where the library's own calls stay inside it)."""
import json
import sys

d, counts, scenario, internal = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
c = {}
with open(counts) as fh:
    for line in fh:
        k, v = line.split()
        c[k] = int(v)
with open(d + "/profile.json") as fh:
    prof = json.load(fh)
visits = {f["symbol"]: f["visits"] for f in prof["functions"]}
nest = c["nest_main"] + c["nest_handler"]
want = {"sig_tick": c["tick"], "sig_tick_nested": c["tick_nested"], "sig_tick_alt": c["tick_alt"],
        "sig_nest": nest, "crc32": c["crc"], "adler32": c["adler"]}
if scenario != "jump":
    want["sig_add"] = c["main_add"] + internal * nest
got = {s: visits.get(s, 0) for s in want}
if got != want:
    print("check_counts: FAIL: visits %r, calls made %r" % (got, want), file=sys.stderr)
    sys.exit(1)
