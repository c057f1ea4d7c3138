# Metrics in the trace: one METRIC record per ENTER and LEAVE, with the
# metric class defined once; a metric that cannot be opened is left out.
DRIVER=$1
OTF2_PRINT=$2
. "$(dirname "$0")/lib.sh"

rm -rf exp && mkdir exp
LIBWRAP_METRIC_PERF=task-clock LIBWRAP_METRIC_RUSAGE=ru_minflt,ru_bogus \
    "$DRIVER" exp 2 20 16777216 > out.txt 2> err.txt || fail "driver failed"
[ "$(wc -l < err.txt)" -eq 1 ] && grep -q "unknown field 'ru_bogus'" err.txt || fail "expected one warning"
grep -qx "metrics 2" out.txt || fail "metric count"
# thread k: 20 x (1 + k + 1) calls, 2 region events each, as many metric events
grep -qx "events 400" out.txt || fail "lw_trace_finalize count"
print_trace exp
expect_eq "METRIC records" "$(count METRIC)" 200
expect_eq "ENTER+LEAVE" "$(( $(count ENTER) + $(count LEAVE) ))" 200
grep -q '^METRIC_MEMBER  *0  Name: "task-clock" <[0-9]*>.*Mode: ACCUMULATED_START, Value Type: UINT64.*Unit: "ns"' defs.txt || fail "task-clock member"
grep -q '^METRIC_MEMBER  *1  Name: "ru_minflt" <[0-9]*>.*Type: RUSAGE' defs.txt || fail "ru_minflt member"
grep -q '^METRIC_CLASS  *0 .*2 Members: "task-clock" <0>, "ru_minflt" <1>' defs.txt || fail "metric class"
# The thread's CPU time only grows: the last task-clock value of location 0
# is positive and not below the first.
vals=$(awk '$1 == "METRIC" && $2 == 0 { sub(/.*"task-clock" <0>; UINT64; /, ""); sub(/\).*/, ""); print }' events.txt)
first=$(echo "$vals" | head -1); last=$(echo "$vals" | tail -1)
[ "$last" -gt 0 ] && [ "$last" -ge "$first" ] || fail "task-clock values $first .. $last"
echo PASS
