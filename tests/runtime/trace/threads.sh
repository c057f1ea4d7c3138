# Three threads with known calls: otf2-print reads the archive, there is one
# location per thread, the definitions carry the regions' names, symbols,
# files and lines, and every call is there as one ENTER and one LEAVE.
DRIVER=$1
OTF2_PRINT=$2
. "$(dirname "$0")/lib.sh"

rm -rf exp && mkdir exp
"$DRIVER" exp 3 50 16777216 > out.txt 2> err.txt || fail "driver failed"
[ ! -s err.txt ] || fail "unexpected warnings"
# thread k calls outer 50 times and inner (k+1) times per outer call
grep -qx "events 900" out.txt || fail "lw_trace_finalize count"
[ -f exp/traces.otf2 ] && [ -f exp/traces.def ] && [ -d exp/traces ] || fail "archive layout"
print_trace exp

expect_eq "ENTER outer" "$(count ENTER outer)" 150
expect_eq "LEAVE outer" "$(count LEAVE outer)" 150
expect_eq "ENTER inner" "$(count ENTER inner)" 300
expect_eq "LEAVE inner" "$(count LEAVE inner)" 300
for k in 0 1 2; do
    expect_eq "ENTER outer on $k" "$(count ENTER outer $k)" 50
    expect_eq "ENTER inner on $k" "$(count ENTER inner $k)" $((50 * (k + 1)))
done
expect_eq "buffer flushes" "$(count BUFFER_FLUSH)" 0
expect_eq "metric events" "$(count METRIC)" 0

expect_eq "locations" "$(grep -c '^LOCATION ' defs.txt)" 3
grep -q '^LOCATION  *1  Name: "thread 1" <[0-9]*>, Type: CPU_THREAD, # Events: 300,' defs.txt || fail "location 1"
grep -q '^REGION  *0  Name: "outer" <[0-9]*> (Aka. "lib_outer" <[0-9]*>).*File: "lib.h" <[0-9]*>, Begin: 10,' defs.txt || fail "region outer"
grep -q '^REGION  *1  Name: "inner" <[0-9]*> (Aka. "lib_inner" <[0-9]*>).*Begin: 20,' defs.txt || fail "region inner"
grep -q '^CLOCK_PROPERTIES .*Ticks per Seconds: 1000000000,' defs.txt || fail "clock properties"
grep -q '^LOCATION_GROUP ' defs.txt && grep -q '^SYSTEM_TREE_NODE ' defs.txt || fail "system tree"
echo PASS
