#!/usr/bin/env bash
# corpus-compile.sh CASE - the wrappers of a real library (a C case of the
# corpus, see $LIBWRAP_CORPUS/README.md) compile under -Wall -Wextra -Werror
# in both linkages and link without undefined symbols: the link-time
# object's every __real_SYM resolves in the target libraries, the run-time
# object needs nothing from them.
set -euo pipefail

src=$LIBWRAP_SOURCE_DIR/tests/generator/forwarding
source "$src/corpus-lib.sh" "$1"
n=$(grep -c '^--wrap=' "$NAME.wrap")
[ "$n" -gt 0 ] || fail "nothing wrapped"

$CC -O2 -fPIC -shared -I"$inc" -o libstubrt.so "$src/stub_runtime.c" -ldl
for mode in linktime runtime; do
    MODE=$(echo "$mode" | tr a-z A-Z)
    # shellcheck disable=SC2086
    $CC -O1 -fPIC -Wall -Wextra -Werror -DLIBWRAP_$MODE $CPPFLAGS -I"$inc" \
        -c "$NAME.wrappers.c" -o $mode.o 2> $mode.log ||
        { head -n 30 $mode.log >&2; fail "the $mode wrappers do not compile cleanly"; }
done
# shellcheck disable=SC2086
$CC -shared -Wl,--no-undefined -o linktime.so linktime.o -Wl,@"$NAME.wrap" $LDFLAGS $LIBS \
    -L. -lstubrt 2> link.log || { head -n 30 link.log >&2; fail "the link-time wrappers do not link"; }
$CC -shared -Wl,--no-undefined -Wl,--version-script="$NAME.versions" -o runtime.so runtime.o -L. -lstubrt -ldl 2> link.log ||
    { head -n 30 link.log >&2; fail "the run-time wrappers do not link"; }
echo "ok $case_name: $n wrappers"
