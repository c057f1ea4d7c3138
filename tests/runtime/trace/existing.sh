# An existing archive is never touched: lw_trace_init refuses with one
# warning (tracing is then off) and writes nothing.
DRIVER=$1
OTF2_PRINT=$2
. "$(dirname "$0")/lib.sh"

for part in traces traces.otf2; do
    rm -rf exp && mkdir exp
    if [ $part = traces ]; then mkdir exp/traces; else echo old > exp/traces.otf2; fi
    rc=0
    "$DRIVER" exp 1 10 16777216 > out.txt 2> err.txt || rc=$?
    expect_eq "driver status (lw_trace_init failed)" "$rc" 2
    [ "$(wc -l < err.txt)" -eq 1 ] || fail "expected exactly one warning"
    grep -q "^libwrap: warning: otf2: 'exp/$part' already exists; tracing is off" err.txt \
        || fail "warning for $part"
    expect_eq "files left in exp" "$(ls exp | tr '\n' ' ')" "$part "
done
[ "$(cat exp/traces.otf2)" = old ] || fail "the old anchor file was changed"
echo PASS
