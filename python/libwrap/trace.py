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
    """Yields DataFrames of at most chunksize events of the archive."""
    import otf2
    from otf2 import events as ev

    if chunksize <= 0:
        raise ValueError("chunksize must be positive")
    with otf2.reader.open(anchor, batch_events=min(chunksize, 10_000)) as trace:
        clock = trace.definitions.clock_properties
        offset = clock.global_offset
        scale = 1e9 / clock.timer_resolution if clock.timer_resolution else 1.0
        exact = clock.timer_resolution == 1_000_000_000
        where = {}
        regions = {}
        categories = {"event": ["enter", "leave", "parameter", "metric", "buffer_flush",
                                "measurement_on_off"]}
        cols = [[] for _ in COLUMNS]
        (c_time, c_rank, c_thread, c_loc, c_event, c_region, c_symbol, c_param, c_value) = cols
        n = 0
        yielded = False
        enter, leave = ev.Enter, ev.Leave
        for location, event in trace.events:
            cls = type(event)
            name = "enter" if cls is enter else "leave" if cls is leave else _event_name(cls)
            if kinds is not None and name not in kinds:
                continue
            if name not in categories["event"]:
                categories["event"].append(name)
            w = where.get(location)
            if w is None:
                w = where[location] = _where(location) + (location._ref,)
            t = event.time - offset
            c_time.append(t if exact else int(round(t * scale)))
            c_rank.append(w[0])
            c_thread.append(w[1])
            c_loc.append(w[2])
            c_event.append(name)
            region = getattr(event, "region", None)
            if region is not None:
                r = regions.get(region)
                if r is None:
                    r = regions[region] = (region.name, region.canonical_name or region.name)
                c_region.append(r[0])
                c_symbol.append(r[1])
            else:
                c_region.append(None)
                c_symbol.append(None)
            if name == "parameter":
                c_param.append(event.parameter.name)
                c_value.append(event.string.name if hasattr(event, "string") else event.value)
            elif name == "metric":
                c_param.append(getattr(event.metric, "name", None))
                c_value.append(tuple(event.values))
            else:
                c_param.append(None)
                c_value.append(None)
            n += 1
            if n == chunksize:
                yield _frame(cols, categories)
                yielded = True
                for c in cols:
                    c.clear()
                n = 0
        if n or not yielded:
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
