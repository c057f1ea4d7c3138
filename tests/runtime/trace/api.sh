# Through the public API and the runtime, as a wrapped program: the trace
# has one location per thread, and the events of each region equal its
# visits in profile.json; metrics appear in both.
PROGRAM=$1
OTF2_PRINT=$2
. "$(dirname "$0")/lib.sh"

rm -rf exp
LIBWRAP_ENABLE_TRACING=true LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp LIBWRAP_METRIC_PERF=task-clock \
    "$PROGRAM" 40 > out.txt 2> err.txt || fail "program failed"
[ ! -s err.txt ] || fail "unexpected output on stderr"
print_trace exp

expect_eq "locations" "$(grep -c '^LOCATION ' defs.txt)" 3
# thread k: 40 calls of outer, each calling inner k+1 times
expect_eq "ENTER outer" "$(count ENTER outer)" 120
expect_eq "LEAVE outer" "$(count LEAVE outer)" 120
expect_eq "ENTER inner" "$(count ENTER inner)" 240
expect_eq "LEAVE inner" "$(count LEAVE inner)" 240
expect_eq "profile visits of lib_outer" "$(sed -n 's/^visits lib_outer //p' out.txt)" "$(count ENTER outer)"
expect_eq "profile visits of lib_inner" "$(sed -n 's/^visits lib_inner //p' out.txt)" "$(count ENTER inner)"
grep -q '^REGION .*Name: "outer" <[0-9]*> (Aka. "lib_outer" <[0-9]*>).*File: "lib.h" <[0-9]*>, Begin: 10,' defs.txt || fail "region outer"

expect_eq "METRIC records" "$(count METRIC)" 720
grep -q '^METRIC_MEMBER .*Name: "task-clock"' defs.txt || fail "task-clock member"
v=$(sed -n 's/^metric lib_outer task-clock //p' out.txt)
[ -n "$v" ] && [ "$v" -gt 0 ] || fail "task-clock of lib_outer in profile.json: '$v'"

[ "${TRACE_API_FORK:-1}" = 1 ] || { echo PASS; exit 0; }

# A child forked while the trace is being written leaves it intact: the
# parent's events are all there, the child's are not in it.
rm -rf exp
LIBWRAP_ENABLE_TRACING=true LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp LIBWRAP_TOTAL_MEMORY=1 \
    "$PROGRAM" 40 fork > out.txt 2> err.txt || fail "program failed (fork)"
[ ! -s err.txt ] || fail "unexpected output on stderr (fork)"
print_trace exp
expect_eq "ENTER outer (fork)" "$(count ENTER outer)" 120
expect_eq "LEAVE inner (fork)" "$(count LEAVE inner)" 240
echo PASS
