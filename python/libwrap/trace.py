"""Reading libwrap's OTF2 archives into DataFrames, in chunks.

The otf2 module (OTF2's own Python binding; Debian: python3-otf2) reads the
archive through OTF2's global event reader, which merges the locations in
time order and holds a batch of events at a time. Rows are collected into
column lists and handed out as a DataFrame every `chunksize` events, so
the memory taken is that of one chunk, whatever the trace's length.
"""

import codecs
import contextlib
import ctypes
import os
import re

import pandas as pd

DEFAULT_CHUNK = 1_000_000

# ----------------------------------------------------------------------
# The otf2 binding's state while libwrap reads: strings that are not UTF-8
# read as U+FFFD, OTF2's own diagnostics silenced; restored after each
# call into it, so that other users of the module see it as it was.
# ----------------------------------------------------------------------

# An archive written before the runtime wrote valid UTF-8 into traces may
# hold other bytes (a recorded string argument, "caf\xe9.gz"). The binding
# decodes every string with its module-level _otf2.Config.encoding, and a
# UnicodeDecodeError in its callbacks stops the reading
# (INTERRUPTED_BY_CALLBACK): while libwrap reads, that encoding names this
# codec, UTF-8 that puts U+FFFD for such a byte (as profile.json has it,
# docs/python.md "Names that are not UTF-8").
_CODEC = "libwrap_utf_8_replace"


def _find_codec(name):
    if name != _CODEC:
        return None
    return codecs.CodecInfo(name=_CODEC, encode=lambda s, errors="strict": codecs.utf_8_encode(s, errors),
                            decode=lambda b, errors="strict": codecs.utf_8_decode(b, "replace", True))


codecs.register(_find_codec)

# OTF2 prints its diagnostics ("[OTF2] src/...: error: ...") to stderr
# unless a callback is registered (OTF2_Error_RegisterCallback): while
# libwrap reads, one that returns the error code and prints nothing, as
# libwrap-report does; the errors come back as exceptions, which name the
# file. The binding does not wrap that function (its va_list argument):
# the callback is declared without it, which the C calling conventions of
# x86-64 and AArch64 allow (the caller passes it; the callee ignores it).
_ERROR_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_uint64,
                                   ctypes.c_char_p, ctypes.c_int)
_QUIET = _ERROR_CALLBACK(lambda user, file, line, function, code: code)

_BINDING = []


def _binding():
    """(_otf2.Config or None, OTF2_Error_RegisterCallback or None): what
    this version of the binding lets libwrap change (another version may
    have neither: it then reads as it does)."""
    if not _BINDING:
        try:
            import importlib
            config = importlib.import_module("_otf2.Config")
        except ImportError:
            config = None
        register = None
        try:
            register = ctypes.CDLL(config.lib_path()).OTF2_Error_RegisterCallback
            register.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
            register.restype = ctypes.c_void_p
        except (AttributeError, OSError, TypeError):
            register = None
        if not isinstance(getattr(config, "encoding", None), str):
            config = None
        _BINDING[:] = [config, register]
    return _BINDING[0], _BINDING[1]


@contextlib.contextmanager
def _reading():
    """The binding's state for a call of libwrap into it, restored after."""
    config, register = _binding()
    old = config.encoding if config is not None else None
    if config is not None:
        config.encoding = _CODEC
    before = register(ctypes.cast(_QUIET, ctypes.c_void_p), None) if register is not None else None
    try:
        yield
    finally:
        if register is not None:
            # OTF2's own printing is the NULL callback; the binding
            # registers none.
            register(before, None)
        if config is not None:
            config.encoding = old


_INT = re.compile(r"(-?\d+)\s*$")
_RANK = re.compile(r"^rank (\d+)")
_EVENT_NAMES = {}
COLUMNS = ("time", "rank", "thread", "location", "event", "region", "symbol", "parameter", "value")


def _event_name(cls):
    name = _EVENT_NAMES.get(cls)
    if name is None:
        n = cls.__name__
        if n.startswith("Parameter"):
            name = "parameter"
        else:
            name = re.sub(r"(?<!^)(?=[A-Z])", "_", n).lower()
        _EVENT_NAMES[cls] = name
    return name


def _where(location):
    """(rank, thread) of an OTF2 location: groups are "rank N" in a job,
    "process PID" for a lone process (rank 0); locations "thread N" or, in
    a job's merged archive, "rank R thread N"."""
    group = getattr(location.group, "name", "") or ""
    m = _RANK.match(group)
    rank = int(m.group(1)) if m else 0
    m = _INT.search(location.name or "")
    thread = int(m.group(1)) if m else 0
    return rank, thread


def _frame(cols, categories):
    df = pd.DataFrame({
        "time": pd.array(cols[0], dtype="int64"),
        "rank": pd.array(cols[1], dtype="int32"),
        "thread": pd.array(cols[2], dtype="int32"),
        "location": pd.array(cols[3], dtype="int64"),
        "event": pd.Categorical(cols[4], categories=categories["event"]),
        "region": pd.Categorical(cols[5]),
        "symbol": pd.Categorical(cols[6]),
        "parameter": pd.Categorical(cols[7]),
        "value": pd.Series(cols[8], dtype=object),
    })
    return df


_HINT = "is it a complete OTF2 archive written with LIBWRAP_ENABLE_TRACING=true?"


def _otf2_error(err):
    """"Invalid or inconsistent record data (INVALID_DATA)" of an _otf2 error."""
    name, description = getattr(err, "name", None), getattr(err, "description", None)
    return "%s (%s)" % (description, name) if name and description else str(err)


def _open(anchor):
    """otf2.reader.Reader of the archive (its definitions read), or a
    ValueError naming the anchor and what is wrong, as libwrap-report says
    it (report/trace_read.c)."""
    import _otf2
    import otf2
    try:
        open(anchor, "rb").close()
    except PermissionError:
        raise PermissionError("%s: permission denied (cannot read the trace)" % anchor) from None
    try:
        with _reading():
            return otf2.reader.Reader(anchor)
    except (_otf2.Error, otf2.error.Error) as e:
        err = e
    # Which part failed: the anchor file, or the global definitions.
    try:
        with _reading():
            probe = _otf2.Reader_Open(anchor)
            _otf2.Reader_Close(probe)
    except _otf2.Error:
        raise ValueError("%s: not an OTF2 archive (cannot open it)" % anchor) from None
    defs = os.path.splitext(anchor)[0] + ".def"
    if not os.path.isfile(defs):
        raise ValueError("%s: cannot open the global definitions (is %s missing?)"
                         % (anchor, os.path.basename(defs))) from None
    if isinstance(err, otf2.error.Error):
        raise ValueError("%s: %s; %s" % (anchor, err, _HINT)) from None
    size = os.path.getsize(defs)
    if size == 0:
        raise ValueError("%s: cannot read the global definitions: %s is empty; %s"
                         % (anchor, os.path.basename(defs), _HINT)) from None
    name = getattr(err, "name", None)
    # INVALID_ARGUMENT: OTF2 gave no reader of the definitions (it could
    # not read the file's first chunk).
    what = ("the otf2 module's callback failed (its error is above)" if name == "INTERRUPTED_BY_CALLBACK" else
            "not OTF2 definitions" if name == "INVALID_ARGUMENT" else _otf2_error(err))
    raise ValueError("%s: cannot read the global definitions (%s, %d bytes): %s; %s"
                     % (anchor, os.path.basename(defs), size, what, _HINT)) from None


def _missing_events(anchor, trace, empty=False):
    """The first location with events whose event file is not there (with
    empty, or is empty): (location name, file, "missing" or "empty"), or
    None."""
    folder = os.path.splitext(anchor)[0]
    for loc in trace.definitions.locations:
        ref = getattr(loc, "_ref", None)
        if ref is None or not getattr(loc, "number_of_events", 0):
            continue
        evt = os.path.join(folder, "%d.evt" % ref)
        rel = "%s/%d.evt" % (os.path.basename(folder), ref)
        try:
            size = os.stat(evt).st_size
            open(evt, "rb").close()
        except PermissionError:
            raise PermissionError("%s: permission denied (cannot read the events of location %s)"
                                  % (evt, loc.name)) from None
        except OSError:
            return loc.name, rel, "missing"
        if empty and size == 0:
            return loc.name, rel, "empty"
    return None


def read_chunks(anchor, chunksize, kinds=None):
    """Yields DataFrames of exactly chunksize events of the archive (the
    last one fewer). ENTER, LEAVE and parameter events take a fast path
    that stores their numbers directly; other records go through the
    otf2 module's event objects. An archive that cannot be read raises
    ValueError naming it and what is wrong."""
    import _otf2
    from otf2.event_reader import BufferedEventReader

    if chunksize <= 0:
        raise ValueError("chunksize must be positive")
    trace = _open(anchor)
    try:
        folder = os.path.basename(os.path.splitext(anchor)[0])

        def no_events(where):
            raise ValueError("%s: cannot open the events of location %s (%s)"
                             % (anchor, where[0], "is %s missing?" % where[1] if where[2] == "missing"
                                else "%s is empty; %s" % (where[1], _HINT))) from None

        missing = _missing_events(anchor, trace)
        if missing:
            no_events(missing)
        defs = trace.definitions
        clock = defs.clock_properties
        offset = clock.global_offset
        scale = 1e9 / clock.timer_resolution if clock.timer_resolution else 1.0
        exact = clock.timer_resolution == 1_000_000_000
        categories = {"event": ["enter", "leave", "parameter", "metric", "buffer_flush",
                                "measurement_on_off"]}
        cols = [[] for _ in COLUMNS]
        (c_time, c_rank, c_thread, c_loc, c_event, c_region, c_symbol, c_param, c_value) = cols
        where, regions, params, strings, metrics = {}, {}, {}, {}, {}
        keep = (lambda name: True) if kinds is None else (lambda name: name in kinds)

        def row(loc, time, name, region, symbol, param, value):
            w = where.get(loc)
            if w is None:
                w = where[loc] = _where(defs.locations[loc])
            t = time - offset
            c_time.append(t if exact else int(round(t * scale)))
            c_rank.append(w[0])
            c_thread.append(w[1])
            c_loc.append(loc)
            c_event.append(name)
            c_region.append(region)
            c_symbol.append(symbol)
            c_param.append(param)
            c_value.append(value)

        def region(ref):
            r = regions.get(ref)
            if r is None:
                d = defs.regions[ref]
                r = regions[ref] = (d.name, d.canonical_name or d.name)
            return r

        def param(ref):
            p = params.get(ref)
            if p is None:
                p = params[ref] = defs.parameters[ref].name
            return p

        def string(ref):
            # The registry gives the text (otf2 3.0), a String definition
            # in other versions.
            v = defs.strings[ref]
            v = strings[ref] = getattr(v, "name", v)
            return v

        def metric_name(m):
            """A metric event's metric: its member's name ("task-clock"), the
            names of several joined by "," in the order of its values."""
            key = id(m)
            name = metrics.get(key)
            if name is None:
                cls = getattr(m, "metric_class", m)
                names = [getattr(x, "name", None) or "metric" for x in getattr(cls, "members", None) or ()]
                name = metrics[key] = ",".join(names) or getattr(m, "name", None) or "metric"
            return name

        class Reader(BufferedEventReader):
            def _append(self, event_type, loc, time, _, attributes, *args):
                event = event_type._construct(defs, time, *args)
                name = _event_name(event_type)
                if not keep(name):
                    return
                if name not in categories["event"]:
                    categories["event"].append(name)
                reg = getattr(event, "region", None)
                if name == "metric":
                    param_name, value = metric_name(event.metric), tuple(event.values)
                else:
                    param_name, value = getattr(getattr(event, "parameter", None), "name", None), None
                row(loc, time, name, getattr(reg, "name", None),
                    (reg.canonical_name or reg.name) if reg is not None else None, param_name, value)

            def _set_global_event_reader_callbacks(self, cbs):
                super()._set_global_event_reader_callbacks(cbs)
                fast = {
                    "Enter": lambda loc, time, _, a, ref: row(loc, time, "enter", *region(ref), None, None),
                    "Leave": lambda loc, time, _, a, ref: row(loc, time, "leave", *region(ref), None, None),
                    "ParameterInt": lambda loc, time, _, a, ref, v: row(loc, time, "parameter", None, None,
                                                                        param(ref), v),
                    "ParameterUnsignedInt": lambda loc, time, _, a, ref, v: row(loc, time, "parameter", None,
                                                                                None, param(ref), v),
                    "ParameterString": lambda loc, time, _, a, ref, s: row(
                        loc, time, "parameter", None, None, param(ref),
                        strings[s] if s in strings else string(s)),
                }
                for name, cb in list(fast.items()):
                    kind = "enter" if name == "Enter" else "leave" if name == "Leave" else "parameter"
                    if not keep(kind):
                        cb = fast[name] = lambda *args: None
                    getattr(_otf2, "GlobalEvtReaderCallbacks_Set%sCallback" % name)(cbs, cb)
                # The binding keeps no reference to the callables.
                self._fast = fast

        reader = Reader(trace, chunksize)
        try:
            with _reading():
                handle = trace._get_global_evt_reader_handle(None)
                if not handle:
                    raise _otf2.Error(_otf2.ERROR_INVALID_ARGUMENT)
                cbs = _otf2.GlobalEvtReaderCallbacks_New()
                reader._set_global_event_reader_callbacks(cbs)
                _otf2.GlobalEvtReader_SetCallbacks(handle, cbs, None)
                _otf2.GlobalEvtReaderCallbacks_Delete(cbs)
        except _otf2.Error as e:
            missing = _missing_events(anchor, trace, empty=True)
            if missing:
                no_events(missing)
            raise ValueError("%s: cannot open the event files (%s/): %s; %s"
                             % (anchor, folder, _otf2_error(e), _HINT)) from None
        yielded = False
        while True:
            want = chunksize - len(c_time)
            try:
                with _reading():
                    got = _otf2.GlobalEvtReader_ReadEvents(handle, want)
            except _otf2.Error as e:
                if getattr(e, "name", None) == "INTERRUPTED_BY_CALLBACK":
                    raise ValueError("%s: cannot read events: a callback failed (its error is above)"
                                     % anchor) from None
                raise ValueError("%s: cannot read events: %s; %s" % (anchor, _otf2_error(e), _HINT)) from None
            if len(c_time) >= chunksize:
                yield _frame(cols, categories)
                yielded = True
                for c in cols:
                    c.clear()
            if got < want:
                break
        if c_time or not yielded:
            yield _frame(cols, categories)
    finally:
        with _reading():
            trace.close()


def concat(chunks):
    """One DataFrame of all chunks (categories unified)."""
    frames = list(chunks)
    if len(frames) == 1:
        return frames[0]
    df = pd.concat(frames, ignore_index=True)
    for c in ("event", "region", "symbol", "parameter"):
        df[c] = df[c].astype("category")
    return df
