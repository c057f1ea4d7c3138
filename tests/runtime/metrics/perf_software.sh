# LIBWRAP_METRIC_PERF with software events: opened on every thread, values
# plausible for the driver's work (CPU time, 64 freshly touched pages).
DRIVER=$1
. "$(dirname "$0")/lib.sh"

run sw LIBWRAP_METRIC_PERF=task-clock,page-faults
expect_no_warning
expect_count 2
grep -qx "def task-clock ns perf accumulated" out.txt || fail "task-clock definition"
grep -qx "def page-faults # perf accumulated" out.txt || fail "page-faults definition"
for who in main thread; do
    expect_positive $who task-clock
    [ "$(value $who page-faults)" -ge 64 ] || fail "page-faults on $who: expected >= 64"
done
# A busy loop of millions of iterations takes well over 10 us of CPU.
[ "$(value main task-clock)" -gt 10000 ] || fail "task-clock implausibly small"

# Aliases name the same counter once.
run alias LIBWRAP_METRIC_PERF="faults, page-faults ,minor-faults"
expect_no_warning
expect_count 2
echo PASS
