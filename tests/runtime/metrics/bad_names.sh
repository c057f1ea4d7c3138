# Unknown names, duplicates and too many metrics: one warning each, the rest
# goes on.
DRIVER=$1
. "$(dirname "$0")/lib.sh"

run base
run bad_rusage LIBWRAP_METRIC_RUSAGE=ru_bogus
expect_one_warning "rusage: unknown field 'ru_bogus' (accepted: all, ru_utime, .*); continuing without it"
cmp -s base.out bad_rusage.out || fail "output differs from the run without metrics"

run bad_perf LIBWRAP_METRIC_PERF=no-such-event
expect_one_warning "perf: unknown event 'no-such-event' (accepted: task-clock, .*); continuing without it"
cmp -s base.out bad_perf.out || fail "output differs from the run without metrics"

run mixed LIBWRAP_METRIC_PERF=",task-clock,,bogus,task-clock" LIBWRAP_METRIC_RUSAGE="ru_minflt,ru_minflt"
expect_one_warning "unknown event 'bogus'"
expect_count 2

# 9 perf events and 9 rusage fields: the 16 first are kept, 2 warnings.
run many LIBWRAP_METRIC_PERF=task-clock,cpu-clock,page-faults,context-switches,cpu-migrations,minor-faults,major-faults,alignment-faults,emulation-faults LIBWRAP_METRIC_RUSAGE=all
expect_count 16
[ "$(wc -l < err.txt)" -eq 2 ] || fail "expected two warnings"
grep -q "too many metrics (at most 16 in all); continuing without 'ru_nvcsw'" err.txt || fail "warning for ru_nvcsw"
grep -q "continuing without 'ru_nivcsw'" err.txt || fail "warning for ru_nivcsw"
echo PASS
