"""Hatchet's literal graph format (hatchet.GraphFrame.from_literal).

A list of root dicts, each {"frame": {"name", "type"}, "metrics": {...},
"children": [...]}, every node with the same metric keys: "time (inc)"
(inclusive) and "time" (exclusive), in nanoseconds, and "visits". A root
stands for one thread of one process, named "rank R thread T" ("thread T"
for a lone process; a fork child adds "fork PID", the program it exec'd
"fork PID.K"); its times are the sums
of its top-level calls, its exclusive time 0.

Call paths may be tens of thousands of calls deep: the trees are built
without recursion.
"""


def _nodes(calls):
    """The literal's nodes of the call paths calls (profile.json's), in
    their order, each with its children."""
    out = []
    stack = [(c, out) for c in reversed(calls)]
    while stack:
        c, siblings = stack.pop()
        node = {
            "frame": {"name": c.get("name") or c.get("symbol"), "type": "function"},
            "metrics": {"time (inc)": c.get("inclusive_ns", 0), "time": c.get("exclusive_ns", 0),
                        "visits": c.get("visits", 0)},
            "children": [],
        }
        siblings.append(node)
        stack.extend((k, node["children"]) for k in reversed(c.get("children") or []))
    return out


def literal(exp):
    roots = []
    for e, p in exp._profiles:
        for t in p.get("threads") or []:
            name = "thread %s" % t.get("id")
            if e["fork"]:
                # fork-PID, or fork-PID.K: what it exec'd (the same pid).
                name = "fork %s %s" % (e["process"].rsplit("/", 1)[-1][len("fork-"):], name)
            if exp.is_job:
                name = "rank %s %s" % (e["rank"], name)
                if e["image"]:
                    name += " image %s" % e["image"]
            children = _nodes(t.get("callpath") or [])
            roots.append({
                "frame": {"name": name, "type": "thread"},
                "metrics": {"time (inc)": sum(c["metrics"]["time (inc)"] for c in children), "time": 0,
                            "visits": 0},
                "children": children,
            })
    return roots
