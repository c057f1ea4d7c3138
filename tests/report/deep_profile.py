"""deep_profile.py DIR LEVELS - writes DIR/profile.json as the runtime
writes it for a recursive function LEVELS calls deep: thread 0 calls
rr_walk, which calls itself until LEVELS calls are open, the innermost
spinning LEAF_NS; each outer call adds STEP_NS of its own time and one
ru_minflt (an accumulated metric, inclusive of callees); thread 1 makes one
shallow call of rr_leaf. The file is written piece by piece, without
recursion, indented as the runtime indents (at most 128 levels).

The figures a reader must find (test deep_callpaths.sh):
  rr_walk: visits LEVELS, inclusive LEAF_NS + (LEVELS - 1) * STEP_NS (the
  outermost call's: a recursive function's inner calls are inside it),
  exclusive the same, min LEAF_NS, ru_minflt LEVELS.
"""

import os
import sys

LEAF_NS = 1000000000
STEP_NS = 10


def main():
    out, levels = sys.argv[1], int(sys.argv[2])
    os.makedirs(out, exist_ok=True)
    top = LEAF_NS + (levels - 1) * STEP_NS
    parts = ['{\n  "libwrap_profile": 1,\n  "program": "./deep",\n  "pid": 4242,\n  "timer": "clock_gettime",\n'
             '  "metrics": [{"name": "ru_minflt", "unit": "#", "source": "rusage", "mode": "accumulated"}],\n'
             '  "functions": [\n'
             '    {"symbol": "rr_walk", "name": "rr_walk", "file": "rr.h", "line": 3, "visits": %d, '
             '"inclusive_ns": %d, "exclusive_ns": %d, "min_ns": %d, "max_ns": %d, "metrics": {"ru_minflt": %d}},\n'
             '    {"symbol": "rr_leaf", "name": "rr_leaf", "file": "rr.h", "line": 4, "visits": 1, '
             '"inclusive_ns": 500, "exclusive_ns": 500, "min_ns": 500, "max_ns": 500, "metrics": {"ru_minflt": 0}}\n'
             '  ],\n  "threads": [\n    {"id": 0, "callpath": [\n' % (levels, top, top, LEAF_NS, top, levels)]
    for level in range(1, levels + 1):
        incl = LEAF_NS + (levels - level) * STEP_NS
        excl = LEAF_NS if level == levels else STEP_NS
        parts.append('%s{"symbol": "rr_walk", "name": "rr_walk", "visits": 1, "inclusive_ns": %d, '
                     '"exclusive_ns": %d, "min_ns": %d, "max_ns": %d, "metrics": {"ru_minflt": %d}, "children": ['
                     % (" " * min(2 * level + 4, 256), incl, excl, incl, incl, levels - level + 1))
        if level < levels:
            parts.append("\n")
    parts.append("]}" * levels)
    parts.append('\n    ]},\n    {"id": 1, "callpath": [\n      {"symbol": "rr_leaf", "name": "rr_leaf", '
                 '"visits": 1, "inclusive_ns": 500, "exclusive_ns": 500, "min_ns": 500, "max_ns": 500, '
                 '"metrics": {"ru_minflt": 0}, "children": []}\n    ]}\n  ]\n}\n')
    with open(os.path.join(out, "profile.json"), "w") as f:
        f.write("".join(parts))


if __name__ == "__main__":
    main()
