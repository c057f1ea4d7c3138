#!/usr/bin/env python3
"""check_args.py DIR CASE MODE PLAIN_OUT [OTF2_PRINT_OUTPUT]

Checks the recorded arguments of args_app (args.sh) in DIR/profile.json
against what args_app.c passes and what the library returned (its output
PLAIN_OUT): exact counts, sums, minima, maxima, log2 histograms, strings
and enum values with their counts, for every function and call path.

CASE: all (LIBWRAP_ARGUMENTS='al_*:*'), sizes (LIBWRAP_ARGUMENTS=sizes),
warn (sizes and al_vec:after), none (nothing selected: no "arguments"
anywhere). MODE: abi or typed (the
ABI-level wrappers cannot place al_vec's `after`, which follows a struct
with a vector inside, on x86-64; args.sh says typed for AArch64's, which
can). With OTF2_PRINT_OUTPUT (otf2-print's output of the run's trace),
also checks one OTF2 parameter event per recorded value, each inside a
call of its function, with the values of the profile.
"""
import json
import math
import re
import struct
import sys


def fail(msg):
    print("check_args: FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


U64 = 2**64 - 1
I64 = 2**63 - 1


def outputs(path):
    """The results args_app printed, by the word that starts the line."""
    res = {}
    for line in open(path):
        word, _, rest = line.strip().partition(" ")
        res.setdefault(word, []).append(rest)
    return res


def expected(out):
    """{function: [(name, type, kind, [values])]} in parameter order."""
    ints = [(0, 1, 2, 3, 4, 5, 6, 7),
            (-1, -300, 100000, -5000000000, 255, 65535, 4000000000, U64),
            (127, 32767, -2**31, I64, 0, 0, 0, 0)]
    names = ["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"]
    types = ["int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t"]
    e = {"al_ints": [(n, t, "signed" if k < 4 else "unsigned", [c[k] for c in ints])
                     for k, (n, t) in enumerate(zip(names, types))]
         + [("return", "int", "signed", [int(v) for v in out["ints"]])]}
    mixed = [(1, 10, 0, 1.5, 0.25, 1, "alpha", 10),
             (-2, 20, 5, -2.5, 1e10, 0, "beta", 20),
             (3, 30, -3, 0.0, -3.0, 1, "alpha", 0),
             (4, 40, 5, 1e-40, 2.0, 0, "(null)", 5)]
    spec = [("i", "int", "signed"), ("u", "unsigned int", "unsigned"), ("color", "enum al_color", "enum"),
            ("d", "double", "double"), ("f", "float", "double"), ("b", "_Bool", "unsigned"),
            ("s", "const char *", "string"), ("n", "size_t", "unsigned")]
    e["al_mixed"] = [(n, t, k, [f32(c[i]) if n == "f" else c[i] for c in mixed])
                     for i, (n, t, k) in enumerate(spec)] + \
        [("return", "int", "signed", [int(v) for v in out["mixed"]])]
    e["al_write"] = [("fd", "int", "signed", [1, 1, 1]), ("len", "size_t", "unsigned", [5, 0, 1000]),
                     ("return", "ssize_t", "signed", [int(v) for v in out["write"]])]
    e["al_scale"] = [("x", "double", "double", [1.5, -4.0]),
                     ("level", "al_level", "enum", [4000000000, 1]),
                     ("return", "double", "double", [float(v) for v in out["scale"]])]
    e["al_sum9"] = [(n, "double", "double", [v]) for n, v in
                    zip("abcdefghi", [1.0, 2, 3, 4, 5, 6, 7, 8, 9.5])] + \
        [("return", "double", "double", [float(out["sum9"][0])])]
    e["al_name"] = [("i", "int", "signed", [0, 0, 1, 1, 2]),
                    ("return", "const char *", "string", ["zero", "zero", "one", "one", "(null)"])]
    e["al_len"] = [("s", "const char *", "string",
                    ["x", "x", "(null)", "(unreadable)", "edge", "(unreadable)", "y" * 256 + "..."]),
                   ("read", "int", "signed", [1, 1, 0, 0, 1, 0, 1]),
                   ("return", "int", "signed", [int(v) for v in out["len"]])]
    e["al_big"] = [("after", "long", "signed", [7, 8]),
                   ("return", "long", "signed", [int(v) for v in out["big"]])]
    e["al_small"] = [("after", "int", "signed", [9]),
                     ("return", "int", "signed", [int(v) for v in out["small"]])]
    e["al_pair"] = [("d", "double", "double", [0.25]), ("k", "int", "signed", [3]),
                    ("return", "double", "double", [float(v) for v in out["pair"]])]
    e["al_vec"] = [("after", "int", "signed", [11]),
                   ("return", "int", "signed", [int(v) for v in out["vec"]])]
    e["al_fill"] = [("cap", "size_t", "unsigned", [4])]
    e["al_protect"] = [("x", "int", "signed", [1, 4, 3]),
                       ("return", "int", "signed", [int(v) for v in out["protect"]])]
    e["al_throw"] = [("code", "int", "signed", [4, 3])]
    e["al_void"] = [("x", "long", "signed", [-12] + [t * 1000 + i % 7 for t in (1, 2, 3, 4) for i in range(1300)])]
    return e


def int_bucket(v, unsigned):
    m = -v if v < 0 else v
    k = 0 if m == 0 else min(m.bit_length(), 63)
    lo = 0 if k == 0 else 2**(k - 1)
    hi = 0 if k == 0 else (2**k - 1 if k < 63 else (U64 if unsigned else 2**63 - 1))
    if v >= 0:
        return (0, k), lo, hi
    return (-1, -k), (-(2**63) if k == 63 else -(2**k - 1)), -lo


def double_bucket(x):
    m = abs(x)
    if m < 2.0**-31:
        k = 0
    elif m >= 2.0**31:
        k = 63
    else:
        k = math.frexp(m)[1] + 31
    lo = 0.0 if k == 0 else 2.0**(k - 32)
    hi = None if k == 63 else 2.0**(k - 31)
    if x < 0:
        return (-1, -k), (None if hi is None else -hi), -lo
    return (0, k), lo, hi


def histogram(values, kind):
    h = {}
    for v in values:
        key, lo, hi = double_bucket(v) if kind == "double" else int_bucket(v, kind == "unsigned")
        if key not in h:
            h[key] = [lo, hi, 0]
        h[key][2] += 1
    return [{"lo": h[k][0], "hi": h[k][1], "count": h[k][2]} for k in sorted(h)]


def close(a, b):
    if a is None or b is None:
        return a is b
    return a == b or abs(a - b) <= 1e-12 * max(abs(a), abs(b))


def check_arg(where, got, name, typ, kind, values):
    if got.get("name") != name or got.get("type") != typ or got.get("kind") != kind:
        fail("%s: expected %s (%s, %s), got %r" % (where, name, typ, kind,
                                                  {k: got.get(k) for k in ("name", "type", "kind")}))
    if got.get("count") != len(values):
        fail("%s %s: count %r, expected %d" % (where, name, got.get("count"), len(values)))
    if kind in ("string", "enum"):
        counts = {}
        for v in values:
            counts[v] = counts.get(v, 0) + 1
        want = sorted(({"value": v, "count": c} for v, c in counts.items()),
                      key=lambda d: (-d["count"], d["value"]))
        if got.get("values") != want or got.get("other") != 0:
            fail("%s %s: values %r other %r, expected %r" % (where, name, got.get("values"),
                                                             got.get("other"), want))
        return
    if kind == "double":
        ok = close(got.get("sum"), sum(values)) and got.get("min") == min(values) and \
            got.get("max") == max(values)
        hist = got.get("histogram", [])
        want = histogram(values, kind)
        ok = ok and len(hist) == len(want) and all(
            close(a["lo"], b["lo"]) and close(a["hi"], b["hi"]) and a["count"] == b["count"]
            for a, b in zip(hist, want))
    else:
        want = histogram(values, kind)
        hist = got.get("histogram")
        ok = got.get("sum") == sum(values) if abs(sum(values)) < 2**63 else close(got.get("sum"), sum(values))
        ok = ok and got.get("min") == min(values) and got.get("max") == max(values) and hist == want
    if not ok:
        fail("%s %s: got sum %r min %r max %r histogram %r; expected sum %r min %r max %r histogram %r" %
             (where, name, got.get("sum"), got.get("min"), got.get("max"), got.get("histogram"),
              sum(values), min(values), max(values), histogram(values, kind)))


def main():
    d, case, mode, plain = sys.argv[1:5]
    trace = sys.argv[5] if len(sys.argv) > 5 else None
    prof = json.load(open(d + "/profile.json"))
    exp = expected(outputs(plain))
    if mode == "abi":
        exp["al_vec"] = [a for a in exp["al_vec"] if a[0] != "after"]
    if case in ("sizes", "warn"):
        # warn: LIBWRAP_ARGUMENTS with sizes and al_vec:after, which only
        # typed wrappers record.
        sizes = {("al_mixed", "n"), ("al_write", "len"), ("al_write", "return"), ("al_fill", "cap")}
        if case == "warn":
            sizes.add(("al_vec", "after"))
        exp = {f: [a for a in args if (f, a[0]) in sizes] for f, args in exp.items()}
    if case == "none":
        exp = {}
    exp = {f: args for f, args in exp.items() if args}

    funcs = {f["symbol"]: f for f in prof["functions"]}
    for sym, f in funcs.items():
        if sym not in exp and "arguments" in f:
            fail("%s recorded arguments, none were selected: %r" % (sym, f["arguments"]))
    for sym, args in exp.items():
        got = funcs.get(sym, {}).get("arguments")
        if got is None or len(got) != len(args):
            fail("%s: expected %d recorded arguments, got %r" % (sym, len(args), got))
        for g, a in zip(got, args):
            check_arg(sym, g, *a)

    # The call paths: one per function and thread; a function called from
    # one thread has its arguments there, al_void's five threads add up.
    nodes = {}
    def walk(nodes_, tid):
        for n in nodes_:
            if n["symbol"] in exp:
                nodes.setdefault(n["symbol"], []).append((tid, n.get("arguments")))
            elif "arguments" in n:
                fail("call path %s recorded arguments, none were selected" % n["symbol"])
            walk(n["children"], tid)
    for t in prof["threads"]:
        walk(t["callpath"], t["id"])
    for sym, lst in nodes.items():
        flat = funcs[sym]["arguments"]
        if len(lst) == 1:
            if lst[0][1] != flat:
                fail("call path %s: arguments differ from the function's" % sym)
            continue
        for k, a in enumerate(flat):
            per = [args[k] for _, args in lst]
            if sum(x["count"] for x in per) != a["count"] or ("sum" in a and sum(x["sum"] for x in per) != a["sum"]):
                fail("call paths of %s: %s does not add up to the function's" % (sym, a["name"]))
    if "al_void" in exp:
        counts = sorted(args[0]["count"] for _, args in nodes["al_void"])
        if counts != [1, 1300, 1300, 1300, 1300]:
            fail("al_void: per-thread counts %r, expected 1 on the main thread, 1300 on four" % counts)

    if trace:
        check_trace(trace, funcs, exp)
    print("check_args: %s %s: %d functions, %d arguments checked" %
          (case, mode, len(exp), sum(len(a) for a in exp.values())))


def check_trace(path, funcs, exp):
    """One parameter event per recorded value, inside a call of its function."""
    stacks, events = {}, {}
    pat = re.compile(r'^(ENTER|LEAVE|PARAMETER_\w+)\s+(\d+)\s+\d+\s+'
                     r'(?:Region: "([^"]*)" <\d+>|Parameter: "([^"]*)" <\d+>, Value: (.*))$')
    for line in open(path):
        m = pat.match(line.rstrip("\n"))
        if not m:
            continue
        stack = stacks.setdefault(m.group(2), [])  # per location (thread)
        if m.group(1) == "ENTER":
            stack.append(m.group(3))
        elif m.group(1) == "LEAVE":
            if not stack or stack.pop() != m.group(3):
                fail("trace: unbalanced LEAVE of %s" % m.group(3))
        else:
            if not stack:
                fail("trace: a parameter event outside any call: " + line.strip())
            value = m.group(5)
            if m.group(1) == "PARAMETER_STRING":
                value = re.sub(r' <\d+>$', '', value)
                value = value[1:-1] if value.startswith('"') else value
            events.setdefault((stack[-1], m.group(4)), []).append((m.group(1), value))
    want = {}
    for sym, args in exp.items():
        for name, typ, kind, values in args:
            want[(sym, name)] = (kind, values)
    if set(events) != set(want):
        fail("trace: parameters %r, expected %r" % (sorted(set(events) ^ set(want)), sorted(want)))
    for key, (kind, values) in want.items():
        got = events[key]
        if len(got) != len(values):
            fail("trace: %s:%s has %d parameter events, expected %d" % (key[0], key[1], len(got), len(values)))
        etype = {"signed": "PARAMETER_INT64", "unsigned": "PARAMETER_UINT64", "enum": "PARAMETER_UINT64"
                 if key == ("al_scale", "level") else "PARAMETER_INT64"}.get(kind, "PARAMETER_STRING")
        # Threads interleave: the values of each, not their order overall.
        conv = float if kind == "double" else (str if kind == "string" else int)
        if any(t != etype for t, _ in got):
            fail("trace: %s:%s has events other than %s" % (key[0], key[1], etype))
        if sorted(conv(v) for _, v in got) != sorted(values, key=conv):
            fail("trace: %s:%s values %r, expected %r" % (key[0], key[1], [v for _, v in got], values))


if __name__ == "__main__":
    main()
