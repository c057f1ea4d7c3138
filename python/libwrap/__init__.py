"""libwrap: the results of libwrap's measurement as pandas DataFrames.

    import libwrap
    exp = libwrap.read("libwrap-ompi-1234567")   # a process or a whole job
    exp.functions, exp.callpaths, exp.arguments, exp.metrics, exp.samples
    exp.imbalance("fftw_execute")                # per rank
    exp.trace(chunksize=1_000_000)               # OTF2 events, in chunks
    exp.to_hatchet_literal()                     # hatchet.GraphFrame.from_literal
    libwrap.diff(exp_a, exp_b)
    libwrap.plot.imbalance(exp, "fftw_execute").savefig("imbalance.png")

See docs/python.md.
"""

from .diff import diff
from .experiment import Experiment, read

__version__ = "0.1.0"
__all__ = ["Experiment", "read", "diff", "plot"]


def __getattr__(name):
    # The plots need matplotlib: imported on first use only.
    if name == "plot":
        import importlib
        module = importlib.import_module(".plot", __name__)
        globals()["plot"] = module
        return module
    raise AttributeError("module 'libwrap' has no attribute %r" % name)
