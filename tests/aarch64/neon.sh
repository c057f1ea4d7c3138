#!/usr/bin/env bash
# neon.sh - a library whose functions take gcc's AdvSIMD (NEON) types
# (arm_neon.h: float32x4_t, a struct of four of them, the tuple
# float32x4x2_t) wrapped for AArch64 in both forwardings, run through the
# emulator with LIBWRAP_ARGUMENTS: the int and double parameters that AAPCS64
# passes after the vectors (in x0, and in the v register after an HVA's)
# are recorded with the values the program passed, the vectors themselves
# not at all; the typed wrappers compile under -Werror (a vector is no
# integer); stdout, stderr and exit status as unwrapped, exact visits, in
# both linkages. tests/generator/argmeta/neon.h checks the placement itself.
source "$LIBWRAP_SOURCE_DIR/tests/aarch64/lib.sh"
export CC=aarch64-linux-gnu-gcc LW_TEST_HOST=$host

cat > neo.h <<'H'
#include <arm_neon.h>
struct neo_quad { float32x4_t v[4]; };
float neo_dot(float32x4_t a, float32x4_t b, int n);
double neo_hva(struct neo_quad q, int n, float32x4x2_t t, double d);
H
cat > neo.c <<'C'
#include "neo.h"
float neo_dot(float32x4_t a, float32x4_t b, int n) { return vaddvq_f32(vmulq_f32(a, b)) * n; }
double neo_hva(struct neo_quad q, int n, float32x4x2_t t, double d)
{
    float32x4_t s = vaddq_f32(vaddq_f32(q.v[0], q.v[1]), vaddq_f32(q.v[2], q.v[3]));
    return vaddvq_f32(vaddq_f32(s, vaddq_f32(t.val[0], t.val[1]))) * n + d;
}
C
cat > app.c <<'C'
#include <stdio.h>
#include "neo.h"
int main(void)
{
    for (int n = 1; n <= 3; n++)
        printf("dot %g\n", neo_dot(vdupq_n_f32(1.5f), vdupq_n_f32(2), n));
    struct neo_quad q = {{vdupq_n_f32(1), vdupq_n_f32(2), vdupq_n_f32(3), vdupq_n_f32(4)}};
    float32x4x2_t t = {{vdupq_n_f32(0.5f), vdupq_n_f32(0.25f)}};
    printf("hva %g\n", neo_hva(q, 7, t, 2.5));
    return 0;
}
C
$CC -O2 -fPIC -shared -Wl,-soname,libneo.so neo.c -o libneo.so
$CC -O2 -I. -c app.c -o app.o
$CC app.o -o plain -L. -lneo -Wl,-rpath,"$PWD"
s=0; ./plain > plain.out 2> plain.err || s=$?; echo $s > plain.status
printf 'dot 12\ndot 24\ndot 36\nhva 303.5\n' | cmp -s - plain.out || fail "the unwrapped program printed $(cat plain.out)"

# recorded DIR: "FUNCTION PARAMETER COUNT SUM MIN MAX" of each recorded value.
recorded() {
    python3 -c 'import json, sys
for f in json.load(open(sys.argv[1] + "/profile.json"))["functions"]:
    for a in f.get("arguments", []):
        print(f["symbol"], a["name"], a["count"], "%g" % a["sum"], "%g" % a["min"], "%g" % a["max"])' "$1" | sort
}
cat > want.txt <<'W'
neo_dot n 3 6 1 3
neo_dot return 3 72 12 36
neo_hva d 1 2.5 2.5 2.5
neo_hva n 1 7 7 7
neo_hva return 1 303.5 303.5 303.5
W
for fwd in abi typed; do
    wrap_library neo$fwd '"neo.h"' "-I$PWD" "-L$PWD" -lneo --forward $fwd
    for f in neo_dot neo_hva; do
        grep -qx -- "--wrap=$f" gen-neo$fwd/neo$fwd.wrap || fail "$fwd: $f is not wrapped"
    done
    $CC app.o -o linked-$fwd -Wl,@gen-neo$fwd/neo$fwd.wrap -L. -lwrap_neo${fwd}_linktime -lneo \
        -Wl,-rpath,"$PWD"
    for linkage in linktime runtime; do
        n=$fwd-$linkage
        if [ $linkage = linktime ]; then
            LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-$n LIBWRAP_ARGUMENTS='neo_*:*' same_run $n ./linked-$fwd
        else
            LIBWRAP_EXPERIMENT_DIRECTORY=$PWD/exp-$n LIBWRAP_ARGUMENTS='neo_*:*' \
                LD_PRELOAD=$PWD/libwrap_neo${fwd}_runtime.so same_run $n ./plain
        fi
        [ "$(visits exp-$n | sort | tr '\n' ' ')" = "neo_dot 3 neo_hva 1 " ] ||
            fail "$n: visits $(visits exp-$n | tr '\n' ' ')"
        recorded exp-$n > got-$n.txt
        diff want.txt got-$n.txt >&2 || fail "$n: recorded arguments differ (want.txt, got-$n.txt)"
    done
done
echo "ok: NEON parameters placed, the values after them recorded, in both forwardings and linkages"
