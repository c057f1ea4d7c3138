"""Finding the processes of an experiment directory and reading their files.

An experiment is a lone process's directory (profile.json at its top) or a
job's (rank-N/ and rank-N.K/ parts, in a large job under ranks/G/, with
the job's reduced profile.json beside them; or that profile alone); every
process may have fork-PID/ children, nested again (docs/runtime.md,
docs/mpi.md).

Call paths nest two JSON levels a call (the node, its "children") and may
be tens of thousands of calls deep (the runtime measures 32,768 nested
calls a thread): nothing here recurses along them. json.loads does (about
500 calls deep it raises RecursionError); such a file is read again by
_loads_deep, which keeps its open containers in a list.
"""

import json
import json.decoder
import os
import re

_RANK_DIR = re.compile(r"^rank-(\d+)(?:\.(\d+))?$")
_FORK_DIR = re.compile(r"^fork-(\d+)$")


def restore_bytes(obj):
    """Turns each "KEY_bytes" member (hex of a string that was not UTF-8,
    docs/runtime.md) into bytes, in place; the "KEY" member keeps its
    readable text, with U+FFFD where a byte was not UTF-8."""
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, dict):
            for key, value in o.items():
                if key.endswith("_bytes") and isinstance(value, str):
                    try:
                        o[key] = bytes.fromhex(value)
                    except ValueError:
                        pass
                elif isinstance(value, (dict, list)):
                    stack.append(value)
        else:
            stack.extend(v for v in o if isinstance(v, (dict, list)))
    return obj


_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_CONSTANTS = (("null", None), ("true", True), ("false", False), ("NaN", float("nan")),
              ("Infinity", float("inf")), ("-Infinity", float("-inf")))


def _loads_deep(s):
    """json.loads(s) without recursion, for JSON nested deeper than the
    interpreter's recursion limit: the same values (dicts in key order,
    the last of a repeated key), the same JSONDecodeError for bad text."""
    err = json.JSONDecodeError
    scanstring = json.decoder.scanstring
    ws = _WS.match
    stack, keys = [], []  # the containers open, and the key each dict waits on

    def key_at(i):
        if s[i:i + 1] != '"':
            raise err("Expecting property name enclosed in double quotes", s, i)
        key, i = scanstring(s, i + 1)
        i = ws(s, i).end()
        if s[i:i + 1] != ":":
            raise err("Expecting ':' delimiter", s, i)
        return key, ws(s, i + 1).end()

    i = ws(s, 0).end()
    while True:
        # A value begins at i.
        c = s[i:i + 1]
        if c == "{":
            i = ws(s, i + 1).end()
            if s[i:i + 1] == "}":
                value, i = {}, i + 1
            else:
                key, i = key_at(i)
                stack.append({})
                keys.append(key)
                continue
        elif c == "[":
            i = ws(s, i + 1).end()
            if s[i:i + 1] == "]":
                value, i = [], i + 1
            else:
                stack.append([])
                keys.append(None)
                continue
        elif c == '"':
            value, i = scanstring(s, i + 1)
        else:
            m = _NUMBER.match(s, i)
            if m:
                integer, frac, exp = m.groups()
                value = float(integer + (frac or "") + (exp or "")) if frac or exp else int(integer)
                i = m.end()
            else:
                for word, value in _CONSTANTS:
                    if s.startswith(word, i):
                        i += len(word)
                        break
                else:
                    raise err("Expecting value", s, i)
        # The value is complete: into its container, and close those that end.
        while True:
            if not stack:
                i = ws(s, i).end()
                if i != len(s):
                    raise err("Extra data", s, i)
                return value
            top = stack[-1]
            if keys[-1] is None:
                top.append(value)
            else:
                top[keys[-1]] = value
            i = ws(s, i).end()
            c = s[i:i + 1]
            if c == ",":
                i = ws(s, i + 1).end()
                if keys[-1] is not None:
                    keys[-1], i = key_at(i)
                break
            if c == ("]" if keys[-1] is None else "}"):
                value = stack.pop()
                keys.pop()
                i += 1
                continue
            raise err("Expecting ',' delimiter", s, i)


def load_profile(path):
    """profile.json as Python objects; raises ValueError naming the file
    when it is not a profile."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")
        try:
            prof = json.loads(text)
        except RecursionError:
            prof = _loads_deep(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError("%s: not a valid profile.json (%s); was the program still running?" % (path, e)) from None
    if not isinstance(prof, dict) or "functions" not in prof:
        raise ValueError("%s: not a libwrap profile (no \"functions\")" % path)
    if b'_bytes"' in data:
        restore_bytes(prof)
    return prof


def read_config(path):
    """config.txt as a dict of NAME -> value (comments left out)."""
    config = {}
    try:
        with open(path, "rb") as f:
            for raw in f:
                line = raw.decode("utf-8", "replace").rstrip("\n")
                if not line or line.startswith("#") or "=" not in line:
                    continue
                name, value = line.split("=", 1)
                config[name] = value
    except FileNotFoundError:
        pass
    return config


def _fork_dirs(root, rel):
    """The fork-PID directories right under root/rel, as paths relative to
    root, in PID order."""
    base = os.path.join(root, rel) if rel != "." else root
    try:
        names = os.listdir(base)
    except OSError:
        return []
    return [name if rel == "." else rel + "/" + name
            for name in sorted(names, key=lambda n: (len(n), n)) if _FORK_DIR.match(name)]


def _forks(root, rel, parent, rank, image, out):
    """The fork-PID children under root/rel, depth first."""
    for child in _fork_dirs(root, rel):
        if os.path.isfile(os.path.join(root, child, "profile.json")):
            out.append({"process": child, "parent": parent, "rank": rank, "image": image, "fork": True})
            _forks(root, child, child, rank, image, out)


def find(path):
    """(root directory, is_job, [process entries]) of an experiment.

    path is the experiment directory, or its profile.json or traces.otf2.
    Each entry has "process" (the part's path relative to the root, "."
    for a lone process), "parent" (its parent's, or None), "rank" (None
    until the profile says), "image" (K of rank-N.K) and "fork"."""
    root = path
    if os.path.isfile(root):
        root = os.path.dirname(os.path.abspath(root))
    if not os.path.isdir(root):
        raise FileNotFoundError("%s: no such experiment directory" % path)
    # A job's directory with parts is read from its parts, whether or not
    # the job's reduced profile.json is beside them; the reduced profile
    # is read when named, or when no part has a profile (docs/mpi.md).
    parts = [] if os.path.basename(path) == "profile.json" else _parts(root)
    if any(not p["fork"] for p in parts):
        return root, True, parts
    if os.path.isfile(os.path.join(root, "profile.json")):
        procs = [{"process": ".", "parent": None, "rank": None, "image": 0, "fork": False}]
        _forks(root, ".", ".", None, 0, procs)
        return root, False, procs
    if not parts:
        # A pre-fork server's master, which measured nothing: its workers'
        # results are named (as libwrap-report names them).
        measured = _measured_forks(root, ".")
        if measured:
            shown = ", ".join(os.path.join(path, d) for d in measured[:10])
            more = " and %d more" % (len(measured) - 10) if len(measured) > 10 else ""
            # A config.txt: the process claimed the directory once it had
            # measured, and ended without writing (_exit, SIGKILL) or runs on.
            what = ("wrote no results (no profile.json: it ended by _exit or SIGKILL, or runs on)"
                    if os.path.isfile(os.path.join(root, "config.txt"))
                    else "measured no call (no profile.json)")
            raise ValueError(
                "%s: the process %s, %d child process%s did: %s%s; "
                "read one with libwrap.read(%r)" % (path, what, len(measured), "" if len(measured) == 1 else "es",
                                                     shown, more, os.path.join(path, measured[0])))
        begun = [d for d in ["."] + sorted(os.listdir(root))
                 if (d == "." or _RANK_DIR.match(d)) and os.path.isfile(os.path.join(root, d, "config.txt"))]
        if begun:
            words = (("process", "config.txt", "its", "it", "is") if begun == ["."] else
                     ("processes", "rank-N/config.txt", "their", "them", "are"))
            raise ValueError(
                "%s: profile.json not written: the %s that began this directory (%s) ended "
                "before writing %s results (SIGKILL, _exit, a launcher that killed %s) or %s still running"
                % ((path,) + words))
        raise ValueError(
            "%s: not a libwrap experiment (no profile.json, no rank-N/ parts with one)" % path)
    return root, True, parts


def _measured_forks(root, rel):
    """The fork-PID directories under root/rel with a profile.json, at any
    depth, also below one without (a daemon's double fork)."""
    out = []
    for child in _fork_dirs(root, rel):
        if os.path.isfile(os.path.join(root, child, "profile.json")):
            out.append(child)
        out.extend(_measured_forks(root, child))
    return out


def _parts(root):
    """The entries of a job's rank-N[.K]/ parts and their forks."""
    procs = []
    parts = []
    # rank-N[.K]/, and in a job of more ranks than a group, ranks/G/rank-N[.K]/.
    dirs = [""]
    groups = os.path.join(root, "ranks")
    if os.path.isdir(groups):
        dirs += ["ranks/" + g + "/" for g in os.listdir(groups) if g[:1].isdigit()]
    for sub in dirs:
        for name in os.listdir(os.path.join(root, sub) if sub else root):
            m = _RANK_DIR.match(name)
            if m and os.path.isdir(os.path.join(root, sub + name)):
                parts.append((int(m.group(1)), int(m.group(2) or 0), sub + name))
    for rank, image, name in sorted(parts):
        if os.path.isfile(os.path.join(root, name, "profile.json")):
            procs.append({"process": name, "parent": None, "rank": rank, "image": image, "fork": False})
        # A rank's fork child may write rank-N/fork-PID before (or without)
        # the rank's own profile.
        _forks(root, name, name, rank, image, procs)
    return procs
