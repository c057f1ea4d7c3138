#!/bin/bash
# A header that does not parse: clang's diagnostic at the header's
# file:line on stderr, exit status 1, and nothing left in the output
# directory, not even a temporary file.
set -u
gen=$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen
rm -rf "$LIBWRAP_SCRATCH" && mkdir -p "$LIBWRAP_SCRATCH/out" && cd "$LIBWRAP_SCRATCH" || exit 1
fail=0

cat > broken.h <<'H'
int good(int x);
int bad(int x) oops;
struct s { int a; }
int after(void);
H
printf '#include "broken.h"\n' > libwrap.h
"${CC:-cc}" -E libwrap.h > libwrap.i 2>/dev/null || true
"$gen" --name broken -o out libwrap.i > stdout.txt 2> stderr.txt
rc=$?
[ $rc = 1 ] || { echo "FAIL: exit status $rc, expected 1"; fail=1; }
grep -q '^broken.h:2:[0-9]*: error: ' stderr.txt || { echo "FAIL: no diagnostic at broken.h:2"; fail=1; }
grep -q '^broken.h:3:[0-9]*: error: ' stderr.txt || { echo "FAIL: no diagnostic at broken.h:3"; fail=1; }
[ -z "$(ls -A out)" ] || { echo "FAIL: files left in the output directory:"; ls -A out; fail=1; }
[ -s stdout.txt ] && { echo "FAIL: a summary was printed for a failed run"; fail=1; }

# An unknown type is an error too (not a silently dropped function).
printf 'int f(undeclared_t x);\n' > libwrap.h
"${CC:-cc}" -E libwrap.h > libwrap.i
"$gen" --name broken -o out libwrap.i 2> stderr2.txt
rc=$?
[ $rc = 1 ] || { echo "FAIL: unknown type: exit status $rc, expected 1"; fail=1; }
grep -q '^libwrap.h:1:[0-9]*: error: unknown type name' stderr2.txt || { echo "FAIL: unknown type not reported"; cat stderr2.txt; fail=1; }
[ -z "$(ls -A out)" ] || { echo "FAIL: files left after the unknown type"; fail=1; }

# A file that is not there, and one without line markers.
"$gen" --name broken -o out missing.i 2> stderr3.txt
[ $? = 1 ] && grep -q 'missing.i' stderr3.txt || { echo "FAIL: missing input not reported"; fail=1; }
printf 'int f(int);\n' > plain.h
"${CC:-cc}" -E -P plain.h > plain.i
"$gen" --name broken -o out plain.i 2> stderr4.txt
[ $? = 1 ] && grep -q 'no line markers' stderr4.txt || { echo "FAIL: -P output not reported"; cat stderr4.txt; fail=1; }
[ -z "$(ls -A out)" ] || { echo "FAIL: files left in out"; fail=1; }

[ $fail = 0 ] && echo "ok"
cat stderr.txt
exit $fail
