#!/usr/bin/env bash
# Golden test of one filter: runs filter_check on FILTER with the queries in
# CASE.in and compares its output and exit status with CASE.out.
#   filter_golden.sh FILTER_CHECK FILTER CASE
# With LIBWRAP_UPDATE_GOLDEN=1 it rewrites CASE.out instead of comparing.
set -euo pipefail
check=$1 filter=$2 case=$3
if [[ ! -f $case.in ]]; then
  echo "FAIL: $case.in is missing: add the queries (and, with LIBWRAP_UPDATE_GOLDEN=1, the expected output) for $filter." >&2
  exit 1
fi
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
actual=$LIBWRAP_SCRATCH/$(basename "$case").out

# Run next to the filter so that messages name it without a directory.
status=0
(cd "$(dirname "$filter")" && "$check" "$(basename "$filter")") <"$case.in" >"$actual" || status=$?
echo "exit $status" >>"$actual"

if [[ ${LIBWRAP_UPDATE_GOLDEN:-0} == 1 ]]; then
  cp "$actual" "$case.out"
  echo "updated $case.out"
  exit 0
fi
if ! diff -u "$case.out" "$actual"; then
  echo "FAIL: $(basename "$case"): output differs from $case.out (above: - expected, + actual)." >&2
  echo "If the new output is right, rerun with LIBWRAP_UPDATE_GOLDEN=1." >&2
  exit 1
fi
