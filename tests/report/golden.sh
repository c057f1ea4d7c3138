#!/usr/bin/env bash
# Text outputs of libwrap-report against golden files in expected/.
# LIBWRAP_UPDATE_GOLDEN=1 rewrites the expectations (review the diff before committing).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
report=$LIBWRAP_STAGE/bin/libwrap-report
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
cd "$here/fixtures"   # relative paths keep the golden files machine-independent

fail=0
check() { # NAME ARGS...: stdout and exit status of `libwrap-report ARGS`
    local name=$1; shift
    local got=$LIBWRAP_SCRATCH/$name.out rc=0
    "$report" "$@" > "$got" 2>&1 || rc=$?
    echo "exit $rc" >> "$got"
    if [[ ${LIBWRAP_UPDATE_GOLDEN:-0} == 1 ]]; then
        cp "$got" "$here/expected/$name.out"
    elif ! diff -u "$here/expected/$name.out" "$got"; then
        echo "FAIL: $name (libwrap-report $*)"; fail=1
    fi
}

check table_text            two_threads
check table_top2            --top 2 two_threads
check table_sort_visits     --sort=visits two_threads
check table_sort_name       --sort=name --top=3 two_threads
check table_sort_mean       --sort=mean two_threads
check table_sort_inclusive  --sort=inclusive two_threads
check table_threads         --threads two_threads
check table_tsv             --format=tsv two_threads
check table_threads_tsv     --format=tsv --threads two_threads
check table_json            --format=json two_threads
check table_threads_json    --format=json --threads --top 2 two_threads
check table_no_metrics      run_b
check table_profile_file    two_threads/profile.json
check tree                  --tree two_threads
check tree_depth1           --tree --depth 1 two_threads
check diff_text             --diff two_threads run_b
check diff_tsv              --diff --format=tsv two_threads run_b
check diff_json             --diff --format=json --top 3 two_threads run_b

# The JSON outputs must be JSON.
for f in table_json table_threads_json diff_json; do
    sed '$d' "$LIBWRAP_SCRATCH/$f.out" | python3 -m json.tool > /dev/null || { echo "FAIL: $f is not JSON"; fail=1; }
done
# Per-thread rows combine into the summed table, as the runtime combines
# call paths: visits, times and (accumulated) metrics add up, min and max
# are those of all calls.
python3 - "$LIBWRAP_SCRATCH/table_tsv.out" "$LIBWRAP_SCRATCH/table_threads_tsv.out" <<'PY' || fail=1
import sys, collections
def rows(path):
    lines = [l.rstrip("\n").split("\t") for l in open(path) if not l.startswith("exit ")]
    head = lines[0]
    return [dict(zip(head, l)) for l in lines[1:]]
summed = {r["symbol"]: r for r in rows(sys.argv[1])}
per = collections.defaultdict(list)
for r in rows(sys.argv[2]):
    per[r["symbol"]].append(r)
for sym, r in summed.items():
    for k in ("visits", "inclusive_ns", "exclusive_ns", "PAPI_TOT_INS"):
        got = sum(float(t[k]) for t in per[sym])
        if got != float(r[k]):
            sys.exit(f"FAIL: per-thread rows of {sym} sum to {k} {got}, summed table says {r[k]}")
    for k, f in (("min_ns", min), ("max_ns", max)):
        got = f(int(t[k]) for t in per[sym])
        if got != int(r[k]):
            sys.exit(f"FAIL: per-thread rows of {sym} give {k} {got}, summed table says {r[k]}")
PY
exit $fail
