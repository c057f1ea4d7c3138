"""Greenlets that switch inside a wrapped call's callback (tests/runtime/greenlet.sh).

switch.py LIBCB MODE N:
  inside   two greenlets, each suspended inside cb_call's callback while the
           other makes wrapped calls (cb_call, cb_leaf, zlib's crc32), N rounds
  abandon  a greenlet left suspended inside cb_call, then N * 10 wrapped
           calls, then the greenlet killed (GreenletExit in the callback,
           which returns: cb_call returns at last)
Prints what it computed; the calls it made go to stderr as "calls NAME N".
"""
import ctypes, sys, zlib
import greenlet

lib = ctypes.CDLL(sys.argv[1])
mode, n = sys.argv[2], int(sys.argv[3])
CB = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int)
lib.cb_call.argtypes = [CB, ctypes.c_int]
calls = {"cb_call": 0, "cb_leaf": 0}


def leaf(x):
    calls["cb_leaf"] += 1
    return lib.cb_leaf(x)


def call(f, x):
    calls["cb_call"] += 1
    return lib.cb_call(f, x)


if mode == "inside":
    gs, out = {}, []

    def run(name):
        other = "b" if name == "a" else "a"

        def f(x):
            if not gs[other].dead:
                gs[other].switch()          # suspended inside cb_call
            return leaf(x) + zlib.crc32(b"%d" % x) % 7
        cf = CB(f)
        total = 0
        for i in range(n):
            total += call(cf, i) + leaf(i)
        out.append((name, total))

    gs["a"] = greenlet.greenlet(lambda: run("a"))
    gs["b"] = greenlet.greenlet(lambda: run("b"))
    while not (gs["a"].dead and gs["b"].dead):
        for g in (gs["a"], gs["b"]):
            if not g.dead:
                g.switch()
    print(sorted(out))
else:
    main = greenlet.getcurrent()

    def f(x):
        try:
            main.switch()                   # resumed only by GreenletExit
        except greenlet.GreenletExit:
            pass
        return 0
    cf = CB(f)
    g = greenlet.greenlet(lambda: call(cf, 1))
    g.switch()
    print(sum(leaf(i) for i in range(n * 10)))
    del g
print(" ".join("calls %s %d" % kv for kv in sorted(calls.items())), file=sys.stderr)
