#!/bin/bash
# bench/python/run.sh BUILD_DIR [JOB_DIR] - the Python package's speed
# (docs/python.md): reading a 128-rank job's profiles, and streaming a
# trace of 10 million events in chunks with its peak memory.
#
# JOB_DIR: a real job to copy a rank part from (default: the FFTW job that
# ctest's python_setup leaves in BUILD_DIR/tests/scratch/python_setup/fftw-job);
# its rank-0 is copied as rank-0 ... rank-127 with "rank" rewritten. The
# trace is rt_app's threads scenario (4 threads x 1,250,000 calls, traced).
# Uses Debian's /usr/bin/python3 (python3-pandas, python3-otf2).
set -eu
build=$(cd "${1:?usage: run.sh BUILD_DIR [JOB_DIR]}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
job=${2:-$build/tests/scratch/python_setup/fftw-job}
PY=${PYTHON3:-/usr/bin/python3}
[ -f "$job/rank-0/profile.json" ] || { echo "run.sh: no $job/rank-0/profile.json (run ctest -R python_setup first)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PYTHONPATH=$src/python

"$PY" - "$job" "$work/job128" <<'PY'
import json, os, sys
src, dst = sys.argv[1], sys.argv[2]
with open(os.path.join(src, "rank-0", "profile.json")) as f:
    prof = json.load(f)
for r in range(128):
    os.makedirs(os.path.join(dst, "rank-%d" % r))
    prof["rank"], prof["size"], prof["pid"] = r, 128, 10000 + r
    with open(os.path.join(dst, "rank-%d" % r, "profile.json"), "w") as f:
        json.dump(prof, f, indent=2)
with open(os.path.join(dst, "config.txt"), "w") as f:
    f.write("JOB_LAUNCHER=Open MPI\nJOB_ID=1\nJOB_SIZE=128\n")
PY
echo "128-rank job: $(du -sh "$work/job128" | cut -f1), $(wc -c < "$job/rank-0/profile.json") bytes per profile.json"
"$PY" - "$work/job128" <<'PY'
import sys, time
t0 = time.perf_counter()
import libwrap
t1 = time.perf_counter()
exp = libwrap.read(sys.argv[1])
f, cp, a = exp.functions, exp.callpaths, exp.arguments
t2 = time.perf_counter()
imb = exp.imbalance("fftw_execute")
t3 = time.perf_counter()
print("import libwrap %.2f s; read + functions, callpaths, arguments: %.2f s (%d, %d, %d rows); imbalance %.3f s"
      % (t1 - t0, t2 - t1, len(f), len(cp), len(a), t3 - t2))
PY

cd "$work"
LIBWRAP_ENABLE_TRACING=true LIBWRAP_EXPERIMENT_DIRECTORY=t10m "$build/tests/runtime/rt_app" threads 4 1250000 > /dev/null
echo "trace: $(du -sh t10m/traces | cut -f1)"
"$PY" - t10m <<'PY'
import resource, sys, time
import libwrap
exp = libwrap.read(sys.argv[1])
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
n = chunks = enters = 0
for chunk in exp.trace(chunksize=1_000_000):
    n += len(chunk)
    chunks += 1
    enters += int((chunk["event"] == "enter").sum())
dt = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print("streamed %d events (%d enters) in %d chunks of 1M: %.1f s, %.0f events/s; peak RSS %.0f MB (%.0f MB before)"
      % (n, enters, chunks, dt, n / dt, peak / 1024, base / 1024))
PY
