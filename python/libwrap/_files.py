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
import math
import os
import re
import stat

_RANK_DIR = re.compile(r"^rank-(\d+)(?:\.(\d+))?$")
# A fork child's directory, fork-PID, and what it exec'd or spawned:
# fork-PID.K, fork-PID.K.J (docs/runtime.md, "fork and exec").
_FORK_DIR = re.compile(r"^fork-(\d+)((?:\.\d+)*)$")

# The format version of profile.json this reader knows ("libwrap_profile",
# LWP_FORMAT_VERSION of common/profile_format.h).
FORMAT_VERSION = 1


def _denied(path, what):
    return PermissionError("%s: permission denied (%s)" % (path, what))


def _is_file(path, what):
    """Whether path is a regular file; a directory above it that cannot be
    searched raises PermissionError naming it (not a missing file)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except PermissionError:
        raise _denied(os.path.dirname(path) or ".", what) from None
    except OSError:
        return False


def _listdir(path, what):
    try:
        return os.listdir(path)
    except PermissionError:
        raise _denied(path, what) from None


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


def _has_surrogates(s):
    try:
        s.encode("utf-8")
        return False
    except UnicodeEncodeError:
        return True


def _replace_raw(obj):
    """The strings of a profile.json that was not valid UTF-8 (decoded with
    surrogateescape) as the runtime writes such strings (docs/runtime.md):
    the text with U+FFFD for each byte that was not UTF-8 and, beside a
    member "KEY", "KEY_bytes" with the original bytes."""
    def fixed(s):
        return s.encode("utf-8", "surrogateescape").decode("utf-8", "replace")

    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, dict):
            for key in list(o):
                value = o[key]
                if isinstance(value, str) and _has_surrogates(value):
                    o[key] = fixed(value)
                    if isinstance(key, str) and key + "_bytes" not in o:
                        o[key + "_bytes"] = value.encode("utf-8", "surrogateescape")
                elif isinstance(value, (dict, list)):
                    stack.append(value)
                if isinstance(key, str) and _has_surrogates(key):
                    o[fixed(key)] = o.pop(key)
        else:
            for i, value in enumerate(o):
                if isinstance(value, str) and _has_surrogates(value):
                    o[i] = fixed(value)
                elif isinstance(value, (dict, list)):
                    stack.append(value)


def _truncated(text, err):
    """Whether a JSON error is that of a file cut short: the runtime ends
    profile.json with "}", and an error at the end of the text is one."""
    return not text.rstrip().endswith("}") or not text[err.pos:].strip() or err.msg.startswith("Unterminated")


def load_profile(path):
    """profile.json as Python objects; raises ValueError naming the file
    (and the JSON path in it) when it is not a profile this reader knows,
    PermissionError when it cannot be read."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except PermissionError:
        raise _denied(path, "cannot read the profile") from None
    # The runtime writes valid UTF-8 (docs/runtime.md); a file with other
    # bytes in its strings is read as libwrap-report reads it, each such
    # byte as U+FFFD (with "KEY_bytes", as the runtime writes it).
    try:
        text = data.decode("utf-8")
        raw = False
    except UnicodeDecodeError:
        text = data.decode("utf-8", "surrogateescape")
        raw = True
    try:
        try:
            prof = json.loads(text)
        except RecursionError:
            prof = _loads_deep(text)
    except json.JSONDecodeError as e:
        if not text.strip():
            raise ValueError("%s: not a valid profile.json (the file is empty); was the program still running?"
                             % path) from None
        if _truncated(text, e):
            raise ValueError("%s: not a valid profile.json (%s): truncated at byte %d; was the program still "
                             "running?" % (path, e, len(data))) from None
        raise ValueError("%s: not a valid profile.json (%s)" % (path, e)) from None
    if not isinstance(prof, dict) or "functions" not in prof:
        raise ValueError("%s: not a libwrap profile (no \"functions\")" % path)
    if b'_bytes"' in data:
        restore_bytes(prof)
    if raw:
        _replace_raw(prof)
    check_profile(prof, path)
    return prof


# ----------------------------------------------------------------------
# The format: every member the tables read is checked for its type, so
# that a profile of another layout or a damaged one is said to be so
# (file, JSON path, what was expected), as libwrap-report says it
# (report/profile_read.c), instead of failing deep inside pandas.
# ----------------------------------------------------------------------

_COUNTS = ("visits", "inclusive_ns", "exclusive_ns")
_TIMES = ("min_ns", "max_ns", "inclusive_raw_ns", "exclusive_raw_ns")


def _is_num(v):
    """A JSON number: NaN and Infinity, which json.loads takes and the
    runtime never writes (it writes null), are not (nor are they to
    libwrap-report)."""
    if isinstance(v, float):
        return math.isfinite(v)
    return isinstance(v, int) and not isinstance(v, bool)


class _Where:
    """A JSON path, made into text only when an error names it: a call path
    may be tens of thousands of levels deep. up: the _Where above, the
    text of the top (a str) or None."""
    __slots__ = ("up", "part")

    def __init__(self, up, part):
        self.up, self.part = up, part

    def __str__(self):
        parts = []
        w = self
        while isinstance(w, _Where):
            parts.append(w.part)
            w = w.up
        if w is not None:
            parts.append(w)
        parts.reverse()
        if len(parts) > 16:
            parts = parts[:8] + [".(%d levels)" % (len(parts) - 12)] + parts[-4:]
        return "".join(parts).lstrip(".")


def _at(where, key):
    return _Where(where, "." + key)


def _int(v):
    return _is_num(v) and (isinstance(v, int) or v.is_integer())


def _str(v):
    return isinstance(v, str)


def _num_or_str(v):
    return isinstance(v, str) or _is_num(v)


def check_profile(prof, path):
    """Raises ValueError naming path, the JSON path and what was expected
    where prof (a loaded profile.json) is not of the format this reader
    knows (FORMAT_VERSION) or a member the tables read has another type."""
    def fail(where, what):
        where = str(where) if where is not None else ""
        raise ValueError("%s: %s: %s" % (path, where, what) if where else "%s: %s" % (path, what))

    if "libwrap_profile" not in prof:
        fail(None, "no \"libwrap_profile\" format version: not a profile.json of libwrap's runtime "
                   "(this reader knows format %d)" % FORMAT_VERSION)
    version = prof["libwrap_profile"]
    if not _int(version):
        fail("libwrap_profile", "expected a number (the format version, %d)" % FORMAT_VERSION)
    if version > FORMAT_VERSION:
        fail(None, "profile format %d (\"libwrap_profile\"), newer than this reader knows (format %d): "
                   "read it with the Python package of the libwrap that wrote it" % (version, FORMAT_VERSION))
    if version != FORMAT_VERSION:
        fail(None, "profile format %d (\"libwrap_profile\"): this reader knows format %d only"
             % (version, FORMAT_VERSION))

    def opt(d, key, where, check, what):
        """d[key] where it is there (null counts as absent) and passes check."""
        v = d.get(key)
        if v is not None and not check(v):
            fail(_at(where, key), "expected " + what)
        return v

    def need(d, key, where, check, what):
        v = d.get(key)
        if v is None:
            fail(where, "missing \"%s\"%s" % (key, what[1]))
        if not check(v):
            fail(_at(where, key), "expected " + what[0])
        return v

    def obj(v, where, what="an object"):
        if not isinstance(v, dict):
            fail(where, "expected " + what)
        return v

    def items(d, key, where):
        """The entries of the array d[key] (absent or null: none), each
        with its _Where."""
        v = opt(d, key, where, lambda v: isinstance(v, list), "an array")
        return [(x, _Where(where, "%s%s[%d]" % ("." if where is not None else "", key, k)))
                for k, x in enumerate(v or ())]

    for key in ("program", "host", "timer", "launcher", "job"):
        opt(prof, key, None, _str, "a string")
    for key in ("pid", "rank", "size"):
        opt(prof, key, None, _int, "an integer")
    if not isinstance(prof["functions"], list):
        fail("functions", "expected an array")
    for m, where in items(prof, "metrics", None):
        obj(m, where)
        need(m, "name", where, _str, ("a string", ""))
        opt(m, "unit", where, _str, "a string")
        opt(m, "source", where, _str, "a string")
        opt(m, "mode", where, lambda v: v in ("accumulated", "absolute"), "\"accumulated\" or \"absolute\"")
    for smp, where in items(prof, "samples", None):
        obj(smp, where)
        for key in ("metric", "unit", "source"):
            opt(smp, key, where, _str, "a string")
        for key in ("count", "min", "max", "mean", "first_ns", "last_ns"):
            opt(smp, key, where, _is_num, "a number")

    def arguments(e, where):
        for a, w in items(e, "arguments", where):
            obj(a, w)
            need(a, "name", w, _str, ("a string", ""))
            opt(a, "type", w, _str, "a string")
            opt(a, "kind", w, _str, "a string")
            need(a, "count", w, _is_num, ("a number", ""))
            for key in ("sum", "min", "max", "other", "overcount", "nan"):
                opt(a, key, w, _is_num, "a number")
            for b, wb in items(a, "histogram", w):
                obj(b, wb, "an object {\"lo\", \"hi\", \"count\"}")
                for key in ("lo", "hi", "count"):
                    opt(b, key, wb, _is_num, "a number")
            for v, wv in items(a, "values", w):
                obj(v, wv, "an object {\"value\", \"count\"}")
                need(v, "value", wv, _num_or_str, ("a string or a number", ""))
                opt(v, "count", wv, _is_num, "a number")
                opt(v, "overcount", wv, _is_num, "a number")

    complete = ("a number", "; is the profile complete?")

    def entry(e, where):
        """A function's or a call-path node's own members."""
        obj(e, where)
        need(e, "symbol", where, _str, ("a string", " string"))
        for key in _COUNTS:
            need(e, key, where, _is_num, complete)
        for key in _TIMES:
            opt(e, key, where, _is_num, "a number")
        opt(e, "name", where, _str, "a string")
        t = e.get("throttled")
        if t:
            w = _at(where, "throttled")
            obj(t, w)
            opt(t, "after", w, _is_num, "a number")
            opt(t, "sampled", w, _str, "a string")
        m = opt(e, "metrics", where, lambda v: isinstance(v, dict), "an object of metric totals")
        for k, v in (m or {}).items():
            if not _is_num(v):
                fail(_at(_at(where, "metrics"), k), "expected a number")
        if e.get("arguments") is not None:
            arguments(e, where)

    reduced = isinstance(prof.get("reduced"), dict)
    for f, where in items(prof, "functions", None):
        entry(f, where)
        opt(f, "file", where, _str, "a string")
        opt(f, "line", where, _int, "an integer")
        st = opt(f, "ranks", where, lambda v: isinstance(v, dict), "an object") if reduced else None
        if st:
            w = _at(where, "ranks")
            opt(st, "called", w, _is_num, "a number")
            for key in ("visits", "exclusive_ns", "inclusive_ns"):
                one = opt(st, key, w, lambda v: isinstance(v, dict), "an object")
                for s in ("min", "min_rank", "mean", "max", "max_rank") if one else ():
                    opt(one, s, _at(w, key), _is_num, "a number")
    for t, where in items(prof, "threads", None):
        obj(t, where)
        opt(t, "id", where, _int, "an integer")
        opt(t, "label", where, _str, "a string")
        stack = items(t, "callpath", where)
        stack.reverse()
        while stack:
            c, w = stack.pop()
            entry(c, w)
            ch = items(c, "children", w)
            ch.reverse()
            stack.extend(ch)


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


def _fork_key(name):
    m = _FORK_DIR.match(name)
    return int(m.group(1)), tuple(int(k) for k in m.group(2).split(".")[1:])


def _fork_dirs(root, rel):
    """The fork-PID and fork-PID.K directories right under root/rel, as
    paths relative to root, in PID order (fork-PID before its fork-PID.K)."""
    base = os.path.join(root, rel) if rel != "." else root
    try:
        names = os.listdir(base)
    except PermissionError:
        raise _denied(base, "cannot list the directory for its fork children") from None
    except OSError:
        return []
    names = [n for n in names if _FORK_DIR.match(n)]
    return [name if rel == "." else rel + "/" + name for name in sorted(names, key=_fork_key)]


def _forks(root, rel, parent, rank, image, out):
    """The fork children under root/rel, depth first: fork-PID (a fork()ed
    child) and fork-PID.K (the program such a child exec'd or spawned,
    docs/runtime.md: image K, its parent the same as fork-PID's)."""
    for child in _fork_dirs(root, rel):
        if _is_file(os.path.join(root, child, "profile.json"), "cannot read a fork child's directory"):
            k = _fork_key(os.path.basename(child))[1]
            mine = k[-1] if k else image
            out.append({"process": child, "parent": parent, "rank": rank, "image": mine, "fork": True})
            _forks(root, child, child, rank, mine, out)


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
    if _is_file(os.path.join(root, "profile.json"), "cannot read the experiment directory"):
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
        begun = [d for d in ["."] + sorted(_listdir(root, "cannot list the experiment directory"))
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
        if _is_file(os.path.join(root, child, "profile.json"), "cannot read a fork child's directory"):
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
        dirs += ["ranks/" + g + "/" for g in _listdir(groups, "cannot list the job's groups of parts")
                 if g[:1].isdigit()]
    for sub in dirs:
        where = os.path.join(root, sub) if sub else root
        for name in _listdir(where, "cannot list the experiment directory"):
            m = _RANK_DIR.match(name)
            if m and os.path.isdir(os.path.join(root, sub + name)):
                parts.append((int(m.group(1)), int(m.group(2) or 0), sub + name))
    for rank, image, name in sorted(parts):
        # A part that cannot be read is said to be so, not taken for a
        # rank that died.
        if _is_file(os.path.join(root, name, "profile.json"), "cannot read rank %d's part of the job" % rank):
            procs.append({"process": name, "parent": None, "rank": rank, "image": image, "fork": False})
        # A rank's fork child may write rank-N/fork-PID before (or without)
        # the rank's own profile.
        _forks(root, name, name, rank, image, procs)
    return procs
