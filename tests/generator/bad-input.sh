#!/bin/bash
# Headers that do not parse. An error in a library header costs only the
# declaration that holds it: listed as [diagnostic] in NAME.skipped.txt
# with clang's message, a warning at the header's file:line, everything
# else generated. An error in the user's own libwrap.h, or a fatal one,
# stops: clang's diagnostic at file:line on stderr, exit status 1, and
# nothing left in the output directory, not even a temporary file.
# g++'s `__attribute__((...)) [[nodiscard]]` order parses with no error.
set -u
gen=$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen
. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
mkdir -p out
fail=0

cat > broken.h <<'H'
int good(int x);
int bad(int x) oops;
struct s { int a; }
int after(void);
int defaulted(int x = undeclared_value);
int typed(undeclared_t x);
__attribute__((deprecated("use good"))) [[nodiscard]] int ordered(int);
H
printf '#include "broken.h"\n' > libwrap.h
"${CXX:-c++}" -E -x c++ libwrap.h > libwrap.i 2>/dev/null || true
"$gen" --name broken -x c++ -o lib libwrap.i > stdout.txt 2> stderr.txt
rc=$?
[ $rc = 0 ] || { echo "FAIL: errors in a library header: exit status $rc, expected 0"; cat stderr.txt; fail=1; }
for w in 'broken.h:2:[0-9]*: warning: declaration of bad left out: expected function body' \
         'broken.h:3:[0-9]*: warning: error outside any function declaration, ignored' \
         'broken.h:5:[0-9]*: warning: declaration of defaulted left out: use of undeclared identifier' \
         "broken.h:6:[0-9]*: warning: declaration of typed left out: unknown type name 'undeclared_t' (the header uses a type it does not declare: include the header that declares it before this one in libwrap.h"; do
    grep -q "^$w" stderr.txt || { echo "FAIL: no warning /$w/"; fail=1; }
done
grep -q 'GEN   broken: .* 3 that do not parse' stdout.txt || { echo "FAIL: summary"; cat stdout.txt; fail=1; }
for f in bad _Z9defaultedi _Z5typedi; do
    sed -n '/^\[diagnostic\]/,/^\[/p' lib/broken.skipped.txt | grep -qP "^$f\t" \
        || { echo "FAIL: $f not listed under [diagnostic]"; cat lib/broken.skipped.txt; fail=1; }
done
for f in _Z4goodi _Z5afterv _Z7orderedi; do
    grep -q "^$f .*skip=" lib/broken.functions.txt && { echo "FAIL: $f left out"; fail=1; }
    grep -q "^$f " lib/broken.functions.txt || { echo "FAIL: $f not in the inventory"; fail=1; }
done
grep -q '^_Z7orderedi .*\[deprecated\]' lib/broken.functions.txt || { echo "FAIL: ordered lost its attribute"; fail=1; }

# A fatal error (a missing header), even in a library header, stops.
printf '# 1 "libwrap.h"\n# 1 "lib.h" 1\n#include "absent.h"\nint f(void);\n' > fatal.i
"$gen" --name broken -o out fatal.i > /dev/null 2> stderr1.txt
rc=$?
[ $rc = 1 ] || { echo "FAIL: fatal error: exit status $rc, expected 1"; fail=1; }
grep -q "^lib.h:1:[0-9]*: fatal error: 'absent.h' file not found" stderr1.txt || { echo "FAIL: fatal error not reported"; cat stderr1.txt; fail=1; }
[ -z "$(ls -A out)" ] || { echo "FAIL: files left after the fatal error"; fail=1; }

# An unknown type is an error too (not a silently dropped function).
printf 'int f(undeclared_t x);\n' > libwrap.h
"${CC:-cc}" -E libwrap.h > libwrap.i
"$gen" --name broken -o out libwrap.i 2> stderr2.txt
rc=$?
[ $rc = 1 ] || { echo "FAIL: unknown type: exit status $rc, expected 1"; fail=1; }
grep -q '^libwrap.h:1:[0-9]*: error: unknown type name' stderr2.txt || { echo "FAIL: unknown type not reported"; cat stderr2.txt; fail=1; }
[ -z "$(ls -A out)" ] || { echo "FAIL: files left after the unknown type"; fail=1; }

# --cppflags and --ldflags are split by one splitter: an unterminated
# quote is an error in both.
printf 'int f(int);\n' > ok.h
printf '#include "ok.h"\n' > libwrap.h
"${CC:-cc}" -E libwrap.h > libwrap.i
for opt in --cppflags --ldflags; do
    "$gen" --name broken -o out $opt "-I'/x" libwrap.i 2> stderr5.txt
    [ $? = 1 ] && grep -q "libwrap-gen: $opt: unterminated quote" stderr5.txt ||
        { echo "FAIL: $opt with an unterminated quote"; cat stderr5.txt; fail=1; }
done
[ -z "$(ls -A out)" ] || { echo "FAIL: files left after the unterminated quote"; fail=1; }

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
