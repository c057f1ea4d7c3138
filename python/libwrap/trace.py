"""Reading libwrap's OTF2 archives into DataFrames, in chunks.

The otf2 module (OTF2's own Python binding; Debian: python3-otf2) reads the
archive through OTF2's global event reader, which merges the locations in
time order and holds a batch of events at a time. Rows are collected into
column lists and handed out as a DataFrame every `chunksize` events, so
the memory taken is that of one chunk, whatever the trace's length.
"""

import re

import pandas as pd

DEFAULT_CHUNK = 1_000_000

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


def read_chunks(anchor, chunksize, kinds=None):
    """Yields DataFrames of exactly chunksize events of the archive (the
    last one fewer). ENTER, LEAVE and parameter events take a fast path
    that stores their numbers directly; other records go through the
    otf2 module's event objects."""
    import _otf2
    import otf2
    from otf2.event_reader import BufferedEventReader

    if chunksize <= 0:
        raise ValueError("chunksize must be positive")
    with otf2.reader.open(anchor) as trace:
        defs = trace.definitions
        clock = defs.clock_properties
        offset = clock.global_offset
        scale = 1e9 / clock.timer_resolution if clock.timer_resolution else 1.0
        exact = clock.timer_resolution == 1_000_000_000
        categories = {"event": ["enter", "leave", "parameter", "metric", "buffer_flush",
                                "measurement_on_off"]}
        cols = [[] for _ in COLUMNS]
        (c_time, c_rank, c_thread, c_loc, c_event, c_region, c_symbol, c_param, c_value) = cols
        where, regions, params, strings = {}, {}, {}, {}
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

        class Reader(BufferedEventReader):
            def _append(self, event_type, loc, time, _, attributes, *args):
                event = event_type._construct(defs, time, *args)
                name = _event_name(event_type)
                if not keep(name):
                    return
                if name not in categories["event"]:
                    categories["event"].append(name)
                reg = getattr(event, "region", None)
                value = tuple(event.values) if name == "metric" else None
                row(loc, time, name, getattr(reg, "name", None),
                    (reg.canonical_name or reg.name) if reg is not None else None,
                    getattr(getattr(event, "metric", None), "name", None), value)

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
                        strings[s] if s in strings else strings.setdefault(s, defs.strings[s].name)),
                }
                for name, cb in list(fast.items()):
                    kind = "enter" if name == "Enter" else "leave" if name == "Leave" else "parameter"
                    if not keep(kind):
                        cb = fast[name] = lambda *args: None
                    getattr(_otf2, "GlobalEvtReaderCallbacks_Set%sCallback" % name)(cbs, cb)
                # The binding keeps no reference to the callables.
                self._fast = fast

        reader = Reader(trace, chunksize)
        handle = trace._get_global_evt_reader_handle(None)
        cbs = _otf2.GlobalEvtReaderCallbacks_New()
        reader._set_global_event_reader_callbacks(cbs)
        _otf2.GlobalEvtReader_SetCallbacks(handle, cbs, None)
        _otf2.GlobalEvtReaderCallbacks_Delete(cbs)
        yielded = False
        while True:
            want = chunksize - len(c_time)
            got = _otf2.GlobalEvtReader_ReadEvents(handle, want)
            if len(c_time) >= chunksize:
                yield _frame(cols, categories)
                yielded = True
                for c in cols:
                    c.clear()
            if got < want:
                break
        if c_time or not yielded:
            yield _frame(cols, categories)


def concat(chunks):
    """One DataFrame of all chunks (categories unified)."""
    frames = list(chunks)
    if len(frames) == 1:
        return frames[0]
    df = pd.concat(frames, ignore_index=True)
    for c in ("event", "region", "symbol", "parameter"):
        df[c] = df[c].astype("category")
    return df
