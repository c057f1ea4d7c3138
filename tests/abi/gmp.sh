#!/usr/bin/env bash
# gmp.sh - the default wrapper of GMP (no filter: mpn_gcd_11 and the
# variadic mpz_inits, mpz_clears and gmp_printf are wrapped) leaves gcd.c's
# results, stderr and exit status unchanged under LD_PRELOAD and at link
# time, and measures every call of main. Skipped (77) without libgmp-dev.
set -euo pipefail

src=$LIBWRAP_SOURCE_DIR/tests/abi
gen=$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen
inc=$LIBWRAP_STAGE/include
rtlib=$LIBWRAP_STAGE/lib
[ -f /usr/include/gmp.h ] || [ -f /usr/include/x86_64-linux-gnu/gmp.h ] || { echo "no gmp.h: skipped"; exit 77; }

TEST_LABEL="abi gmp"
source "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
here=$PWD

printf '#include <gmp.h>\n' > libwrap.h
cc -E libwrap.h > libwrap.i
"$gen" --quiet --name gmp -x c --libs -lgmp -o gen libwrap.i
for s in __gmpn_gcd_11 __gmpz_inits __gmp_printf; do
    grep -qx -- "--wrap=$s" gen/gmp.wrap || fail "$s is not wrapped"
done
for mode in linktime runtime; do
    MODE=$(echo $mode | tr a-z A-Z)
    cc -O2 -fPIC -Wall -Wextra -Werror -DLIBWRAP_$MODE -I"$inc" -c gen/gmp.wrappers.c -o $mode.o
done
rt=(-L"$rtlib" -llibwrap_runtime -Wl,-rpath,"$rtlib")
cc -shared -o libwrap_gmp_linktime.so linktime.o -Wl,@gen/gmp.wrap -lgmp "${rt[@]}"
cc -shared -o libwrap_gmp_runtime.so runtime.o -Wl,--no-as-needed -lgmp "${rt[@]}" -ldl
cc -O2 -c "$src/gcd.c" -o gcd.o
cc -o plain gcd.o -lgmp
cc -o linked gcd.o -Wl,@gen/gmp.wrap -L. -lwrap_gmp_linktime -lgmp "${rt[@]}" -Wl,-rpath,"$here"

./plain > plain.out 2> plain.err
grep -q '^gcd sum ' plain.out || fail "the unwrapped program printed no sum"
for run in linked preload; do
    cmd=(./linked)
    [ $run = preload ] && cmd=(env LD_PRELOAD=$here/libwrap_gmp_runtime.so ./plain)
    s=0
    LIBWRAP_EXPERIMENT_DIRECTORY=$here/exp-$run "${cmd[@]}" > $run.out 2> $run.err || s=$?
    [ $s = 0 ] || fail "$run: exit status $s"
    cmp -s plain.out $run.out || fail "$run: $(cat $run.out), unwrapped: $(cat plain.out)"
    cmp -s plain.err $run.err || fail "$run: stderr differs"
    $CHECK "$here/exp-$run" 'visits("__gmpz_gcd") == 3000' 'visits("__gmpz_add") == 3000' \
        'visits("__gmpz_urandomb") == 6000' 'visits("__gmpz_inits") == 1' 'visits("__gmpz_clears") == 1' \
        'visits("__gmp_printf") == 1' 'visits("__gmp_randinit_default") == 1' \
        'visits("__gmp_randseed_ui") == 1' 'visits("__gmp_randclear") == 1' ||
        fail "$run: visits differ from the calls of gcd.c"
    echo "ok $run: $(cat $run.out)"
done
