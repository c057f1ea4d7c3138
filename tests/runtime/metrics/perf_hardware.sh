# LIBWRAP_METRIC_PERF=cycles: counted where the machine has hardware
# counters; elsewhere exactly one warning and an otherwise unchanged run.
DRIVER=$1
PROBE=$2
. "$(dirname "$0")/lib.sh"

run base
expect_count 0
run hw LIBWRAP_METRIC_PERF=cycles,task-clock
if "$PROBE"; then
    echo "hardware counters present: checking the working path"
    expect_no_warning
    expect_count 2
    expect_positive main cycles
    expect_positive thread cycles
else
    echo "no hardware counters: checking the warning"
    expect_one_warning "perf: cannot open 'cycles': .*(no hardware counters?); continuing without it"
    expect_count 1
    expect_positive main task-clock
    run hwonly LIBWRAP_METRIC_PERF=cycles
    expect_one_warning "'cycles'"
    cmp -s base.out hwonly.out || fail "output differs from the run without metrics"
fi
echo PASS
