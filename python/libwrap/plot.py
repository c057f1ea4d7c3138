"""Plots of an experiment, as matplotlib Figures.

Figures are made without pyplot, so no display is needed and none is
opened: save one with fig.savefig("name.png"), or show it in a notebook by
leaving it as a cell's value.
"""

from matplotlib.figure import Figure

from .experiment import Experiment, read


def _exp(exp):
    return exp if isinstance(exp, Experiment) else read(exp)


def _ns_unit(values):
    top = max([abs(v) for v in values] or [0])
    for unit, div in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if top >= div:
            return unit, div
    return "ns", 1.0


def _size(v):
    if v is None:
        return "inf"
    for unit, div in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if abs(v) >= div and v % div == 0:
            return "%d%s" % (v // div, unit)
    return "%g" % v


def imbalance(exp, function, metric="exclusive_ns"):
    """Bars of the function's metric per rank, with the mean as a line; the
    title gives max/mean (the imbalance)."""
    exp = _exp(exp)
    table = exp.imbalance(function, metric)
    values = list(table[metric])
    unit, div = ("", 1.0)
    if metric.endswith("_ns"):
        unit, div = _ns_unit(values)
    fig = Figure(figsize=(max(6.4, 0.35 * len(values) + 2), 3.6))
    ax = fig.add_subplot()
    ax.bar([str(r) for r in table.index], [v / div for v in values], color="#4c72b0")
    mean = sum(values) / len(values) if values else 0
    ax.axhline(mean / div, color="#dd8452", linestyle="--", label="mean")
    ax.set_xlabel("rank")
    ax.set_ylabel("%s%s" % (metric.replace("_ns", ""), " (%s)" % unit if unit else ""))
    worst = max(values) / mean if mean else float("nan")
    missing = table.attrs.get("missing_ranks") or []
    of = "; %d of %d ranks" % (len(values), len(values) + len(missing)) if missing else ""
    ax.set_title("%s: %s per rank (max/mean %.2f%s)" % (function, metric.replace("_ns", ""), worst, of))
    ax.legend(loc="lower right")
    fig.tight_layout()
    return fig


def histogram(exp, function, param, path=None):
    """The recorded argument param of function (LIBWRAP_ARGUMENTS) summed
    over the experiment, or over the call paths path (a ";"-joined path):
    its log2 buckets as bars (numbers), or its most frequent values
    (strings and enums)."""
    exp = _exp(exp)
    h = exp.argument_histograms
    sel = h[((h["symbol"] == function) | (h["function"] == function)) & (h["argument"] == param)]
    sel = sel[sel["level"] == "function"] if path is None else sel[(sel["level"] == "callpath") & (sel["path"] == path)]
    if sel.empty:
        raise KeyError("%s: no recorded argument %r of %r%s (LIBWRAP_ARGUMENTS)" % (
            exp.path, param, function, "" if path is None else " on " + path))
    fig = Figure(figsize=(6.4, 3.2))
    ax = fig.add_subplot()
    if sel["value"].notna().any():
        counts = sel.groupby("value")["count"].sum().sort_values(ascending=True).tail(20)
        ax.barh([str(v)[:40] for v in counts.index], list(counts), color="#55a868")
        ax.set_xlabel("calls")
    else:
        buckets = sel.groupby(["lo", "hi"], dropna=False)["count"].sum().reset_index()
        buckets = buckets.sort_values("lo")
        labels = ["%s-%s" % (_size(lo), _size(hi)) if lo != hi else _size(lo)
                  for lo, hi in zip(buckets["lo"], buckets["hi"])]
        ax.bar(labels, list(buckets["count"]), color="#55a868")
        ax.set_xlabel(param)
        ax.set_ylabel("calls")
        for label in ax.get_xticklabels():
            label.set_rotation(45)
            label.set_horizontalalignment("right")
    ax.set_title("%s: %s%s" % (function, param, "" if path is None else " (%s)" % path))
    fig.tight_layout()
    return fig


def top(exp, n=10, metric="exclusive_ns"):
    """The n functions with the most metric, summed over the experiment,
    as horizontal bars."""
    exp = _exp(exp)
    t = exp.top(n, metric)
    values = list(t[metric])
    unit, div = ("", 1.0)
    if metric.endswith("_ns"):
        unit, div = _ns_unit(values)
    fig = Figure(figsize=(6.4, 0.35 * max(len(t), 1) + 1.2))
    ax = fig.add_subplot()
    ax.barh(list(t["name"])[::-1], [v / div for v in values][::-1], color="#4c72b0")
    ax.set_xlabel("%s%s" % (metric.replace("_ns", ""), " (%s)" % unit if unit else ""))
    ax.set_title("top %d functions by %s" % (len(t), metric.replace("_ns", "")))
    fig.tight_layout()
    return fig
