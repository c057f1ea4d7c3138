#!/usr/bin/env bash
# two_targets.sh - one wrapper of two libraries (libpng16, then zlib: the
# order of its link flags) under LD_PRELOAD, built as the generated
# Makefile builds it (no dependency on its targets), of a program that
# loads only the second one (zlib): the wrapper takes its targets as
# loaded, looks its originals up at the start and calibrates the overhead
# compensation, as where the first is loaded; the calls are exact and the
# program's output and exit status unchanged. The generated wrappers carry
# both sonames.
set -euo pipefail
source "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
cc=${CC:-cc}
[ -f /usr/include/png.h ] && [ -f /usr/include/zlib.h ] || skip "libpng-dev or zlib1g-dev not installed"
rtlib=$LIBWRAP_STAGE/lib

printf '#include <png.h>\n#include <zlib.h>\n' > two.h
$cc -E two.h > two.i
"$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen" --quiet --name two -x c --libs "-lpng16 -lz" -o gen two.i ||
    fail "libwrap-gen failed"
grep -q '"libpng16\.so\.16:libz\.so\.1"' gen/two.wrappers.c ||
    fail "the wrappers do not carry both sonames: $(grep -o '"lib[^"]*\.so[^"]*"' gen/two.wrappers.c | head -3)"
$cc -O2 -fPIC -Wall -Wextra -Werror -DLIBWRAP_RUNTIME -I"$LIBWRAP_STAGE/include" -c gen/two.wrappers.c -o two.o ||
    fail "the runtime wrappers do not compile under -Wall -Wextra -Werror"
$cc -shared -o libwrap_two_runtime.so two.o -Wl,--as-needed -lpng16 -lz -Wl,--no-as-needed \
    -L"$rtlib" -llibwrap_runtime -Wl,-rpath,"$rtlib" -ldl
! readelf -d libwrap_two_runtime.so | grep -qE 'NEEDED.*(libz|libpng)' ||
    fail "the wrapper depends on its targets (the generated Makefile's does not)"

cat > app.c <<'C'
#include <stdio.h>
#include <zlib.h>
int main(void)
{
    unsigned long c = crc32(0, NULL, 0);
    for (int i = 0; i < 1000; i++)
        c = crc32(c, (const unsigned char *)"libwrap", 7);
    printf("crc %08lx\n", c);
    return (int)(c & 3);
}
C
$cc -O2 -o app app.c -lz
s=0; ./app > plain.out || s=$?
w=0; LD_PRELOAD=$PWD/libwrap_two_runtime.so LIBWRAP_VERBOSE=resolve LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp \
    ./app > wrapped.out 2> wrapped.err || w=$?
[ $s = $w ] || fail "exit status $w, unwrapped $s"
cmp -s plain.out wrapped.out || fail "stdout differs: $(cat wrapped.out)"
! grep -q 'is not loaded' wrapped.err || fail "zlib loaded, but the wrapper says: $(grep 'not loaded' wrapped.err)"
$CHECK exp "visits('crc32') == 1001" || fail "crc32's visits"
python3 - exp/profile.json <<'PY' || fail "compensation"
import json, sys
c = json.load(open(sys.argv[1]))["compensation"]
if not c.get("enabled"):
    sys.exit("compensation not applied: %s" % c)
PY
echo "ok: a wrapper of libpng16 and zlib, only zlib loaded: originals found at the start, compensation on"
