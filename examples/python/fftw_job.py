#!/usr/bin/python3
"""fftw_job.py JOB_DIR [OUT_DIR] - a worked analysis of the FFTW MPI job
(run.sh makes one): per-rank imbalance of fftw_execute, the sizes FFTW
was asked to allocate, the hottest call paths, the trace's busiest
thread, and three figures saved as PNG.

Uses Debian's own python3 (python3-pandas, python3-matplotlib,
python3-otf2) with the package on its path:
    PYTHONPATH=$(libwrap-info python-path) /usr/bin/python3 fftw_job.py libwrap-ompi-*
"""

import os
import sys

import libwrap
import libwrap.plot


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    exp = libwrap.read(sys.argv[1])
    out = sys.argv[2] if len(sys.argv) > 2 else "."
    print(exp)
    print(exp.processes[["process", "rank", "pid", "host", "threads", "visits", "exclusive_ns"]].to_string(index=False))

    # 1. The job's functions, summed over ranks and threads.
    print("\nfunctions of the job:")
    print(exp.function_table()[["symbol", "visits", "inclusive_ns", "exclusive_ns"]].to_string(index=False))

    # 2. Load imbalance of fftw_execute: exclusive time per rank.
    imb = exp.imbalance("fftw_execute")
    print("\nfftw_execute per rank (ratio: exclusive time over the ranks' mean):")
    print(imb.to_string())
    worst = imb["ratio"].idxmax()
    print("most loaded: rank %d, %.0f%% above the mean" % (worst, 100 * (imb["ratio"].max() - 1)))

    # 3. Recorded sizes (LIBWRAP_ARGUMENTS=sizes): what fftw_malloc was asked for.
    a = exp.arguments
    sizes = a[(a["level"] == "function") & (a["argument"] == "n")]
    if not sizes.empty:
        print("\nfftw_malloc sizes per rank:")
        print(sizes[["rank", "symbol", "count", "min", "max", "mean"]].to_string(index=False))

    # 4. The hottest call paths, summed over ranks and threads.
    cp = exp.callpaths.groupby("path")[["visits", "exclusive_ns"]].sum()
    print("\nhottest call paths:")
    print(cp.sort_values("exclusive_ns", ascending=False).head(5).to_string())

    # 5. The trace, in chunks: enters per rank and thread, and the time span.
    try:
        enters, first, last = None, None, None
        for chunk in exp.trace(chunksize=500_000):
            e = chunk[chunk["event"] == "enter"].groupby(["rank", "thread"]).size()
            enters = e if enters is None else enters.add(e, fill_value=0)
            if len(chunk):
                first = chunk["time"].iloc[0] if first is None else first
                last = chunk["time"].iloc[-1]
        print("\ntrace: %.3f ms; enters per rank and thread:" % ((last - first) / 1e6))
        print(enters.astype(int).unstack().to_string())
    except FileNotFoundError as e:
        print("\n(no trace: %s)" % e)

    # 6. Figures.
    for name, fig in (("imbalance.png", libwrap.plot.imbalance(exp, "fftw_execute")),
                      ("top.png", libwrap.plot.top(exp, 8))):
        fig.savefig(os.path.join(out, name))
        print("wrote", os.path.join(out, name))
    if not sizes.empty:
        libwrap.plot.histogram(exp, "fftw_malloc", "n").savefig(os.path.join(out, "sizes.png"))
        print("wrote", os.path.join(out, "sizes.png"))


if __name__ == "__main__":
    main()
