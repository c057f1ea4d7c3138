"""libwrap.diff(a, b): two experiments side by side."""

import pandas as pd

from .experiment import Experiment, read

_NUMBERS = ("visits", "inclusive_ns", "exclusive_ns")


def diff(a, b, by="function"):
    """Aligns two experiments (Experiment objects or paths) by function
    symbol (by="function", each summed over its whole experiment) or by
    call path (by="callpath": the ";"-joined symbols from the top, summed
    over processes and threads). Columns: the key, name, for each of
    visits, inclusive_ns, exclusive_ns the values in a and b (suffixes _a,
    _b; 0 where absent) and their difference (_diff, b - a), ratio
    (exclusive_ns_b / exclusive_ns_a) and status ("both", "only a",
    "only b"); sorted by the largest change of exclusive time."""
    a = a if isinstance(a, Experiment) else read(a)
    b = b if isinstance(b, Experiment) else read(b)
    if by == "function":
        key = "symbol"
        ta, tb = a.function_table(), b.function_table()
    elif by == "callpath":
        key = "path"
        ta, tb = (x.callpaths.groupby("path", sort=False).agg(
            name=("name", "first"), visits=("visits", "sum"), inclusive_ns=("inclusive_ns", "sum"),
            exclusive_ns=("exclusive_ns", "sum")).reset_index() for x in (a, b))
    else:
        raise ValueError("by must be 'function' or 'callpath', not %r" % (by,))
    cols = [key, "name"] + list(_NUMBERS)
    m = pd.merge(ta[cols], tb[cols], on=key, how="outer", suffixes=("_a", "_b"), indicator=True)
    m["name"] = m["name_a"].where(m["name_a"].notna(), m["name_b"])
    m["status"] = m["_merge"].map({"both": "both", "left_only": "only a", "right_only": "only b"}).astype(str)
    out = m[[key, "name"]].copy()
    for k in _NUMBERS:
        out[k + "_a"] = m[k + "_a"].fillna(0).astype("int64")
        out[k + "_b"] = m[k + "_b"].fillna(0).astype("int64")
        out[k + "_diff"] = out[k + "_b"] - out[k + "_a"]
    out["ratio"] = out["exclusive_ns_b"] / out["exclusive_ns_a"].where(out["exclusive_ns_a"] != 0)
    out["status"] = m["status"]
    order = out["exclusive_ns_diff"].abs().sort_values(ascending=False, kind="stable").index
    return out.loc[order].reset_index(drop=True)
