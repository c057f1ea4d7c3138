# rusage: single fields and `all`, per thread.
DRIVER=$1
. "$(dirname "$0")/lib.sh"

run minflt LIBWRAP_METRIC_RUSAGE=ru_minflt
expect_no_warning
expect_count 1
grep -qx "def ru_minflt # rusage accumulated" out.txt || fail "definition"
for who in main thread; do
    [ "$(value $who ru_minflt)" -ge 64 ] || fail "ru_minflt on $who: expected >= 64"
done

run all LIBWRAP_METRIC_RUSAGE=all
expect_no_warning
expect_count 9
for f in ru_utime ru_stime ru_maxrss ru_minflt ru_majflt ru_inblock ru_oublock ru_nvcsw ru_nivcsw; do
    grep -q "^def $f " out.txt || fail "'all' lacks $f"
done
grep -qx "def ru_utime ns rusage accumulated" out.txt || fail "ru_utime unit"
grep -qx "def ru_maxrss bytes rusage absolute" out.txt || fail "ru_maxrss unit"
# CPU time advances in whole ticks of the kernel; user plus system time over
# the run of both threads cannot be zero.
total=0
for who in main thread; do
    for f in ru_utime ru_stime; do total=$((total + $(value $who $f))); done
done
[ "$total" -gt 0 ] || fail "no CPU time measured"
echo PASS
