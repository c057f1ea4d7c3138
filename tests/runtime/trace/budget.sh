# LIBWRAP_TOTAL_MEMORY far below the events written: the buffers are flushed
# to disk on the way (BUFFER_FLUSH records) and no event is lost.
DRIVER=$1
OTF2_PRINT=$2
. "$(dirname "$0")/lib.sh"

rm -rf exp && mkdir exp
"$DRIVER" exp 3 20000 1 > out.txt 2> err.txt || fail "driver failed"
[ ! -s err.txt ] || fail "unexpected warnings"
grep -qx "events 360000" out.txt || fail "lw_trace_finalize count"
print_trace exp
flushes=$(count BUFFER_FLUSH)
[ "$flushes" -ge 3 ] || fail "expected intermediate flushes, got $flushes"
expect_eq "ENTER outer" "$(count ENTER outer)" 60000
expect_eq "LEAVE outer" "$(count LEAVE outer)" 60000
expect_eq "ENTER inner" "$(count ENTER inner)" 120000
expect_eq "LEAVE inner" "$(count LEAVE inner)" 120000
echo "PASS ($flushes flushes)"
