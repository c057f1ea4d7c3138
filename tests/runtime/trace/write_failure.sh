# Events that cannot be written are counted and reported once, never lost
# silently; the measured program still exits normally. The file size limit
# makes the disk "full" after 200 KiB per file.
DRIVER=$1
OTF2_PRINT=$2
. "$(dirname "$0")/lib.sh"

rm -rf exp && mkdir exp
rc=0
( trap '' XFSZ; ulimit -f 200; exec "$DRIVER" exp 3 20000 1 ) > out.txt 2> err.txt || rc=$?
expect_eq "exit status" "$rc" 0
[ "$(wc -l < err.txt)" -eq 1 ] || fail "expected exactly one line on stderr"
grep -Eq "^libwrap: warning: otf2: [0-9]+ of 360000 events could not be written to 'exp/traces' \(.*\); the trace is incomplete: check the file-size limit \(ulimit -f\)$" err.txt \
    || fail "loss report: $(cat err.txt)"
lost=$(sed -E 's/.*otf2: ([0-9]+) of.*/\1/' err.txt)
written=$(sed -n 's/^events //p' out.txt)
[ "$lost" -gt 0 ] || fail "no loss counted"
expect_eq "written + lost" "$((written + lost))" 360000
# The same without SIGXFSZ ignored (sshd's child lowers its own limit so):
# the writes fail, the program is not ended by the signal.
rm -rf exp && mkdir exp
rc=0
( ulimit -f 200; exec "$DRIVER" exp 3 20000 1 ) > out2.txt 2> err2.txt || rc=$?
expect_eq "exit status with SIGXFSZ at its default" "$rc" 0
grep -Eq "^libwrap: warning: otf2: [0-9]+ of 360000 events could not be written" err2.txt || fail "loss report (SIGXFSZ default)"
grep -q '^events ' out2.txt || fail "the program's output (SIGXFSZ default)"
echo "PASS ($lost lost)"
