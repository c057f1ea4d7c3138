#!/usr/bin/env bash
# gmp.sh - the default AArch64 wrapper of GMP (no filter, ABI-level
# forwarding: mpn_gcd_11, which GMP's assembly reaches by a tail call, and
# the variadic mpz_inits, mpz_clears and gmp_printf wrapped) leaves the
# mpz_gcd results of 3000 random pairs (tests/abi/gcd.c), stderr and the
# exit status unchanged under LD_PRELOAD and at link time, and measures
# every call of main. Needs libgmp-dev:arm64 (scripts/install-deps.sh).
source "$LIBWRAP_SOURCE_DIR/tests/aarch64/lib.sh"
cc=aarch64-linux-gnu-gcc
gen=$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen
inc=$LIBWRAP_STAGE/include
rtlib=$LIBWRAP_STAGE/lib/$host
here=$PWD
printf '#include <gmp.h>\n' > probe.c
$cc -c probe.c -o probe.o 2> /dev/null && [ -e /usr/lib/$host/libgmp.so ] ||
    { echo "aarch64 lane skipped: no GMP for $host (libgmp-dev:arm64; scripts/install-deps.sh installs it)"; exit 77; }

printf '#include <gmp.h>\n' > libwrap.h
$cc -E libwrap.h > libwrap.i
CC=$cc "$gen" --quiet --name gmp -x c --target $host --libs -lgmp -o gen libwrap.i
for s in __gmpn_gcd_11 __gmpz_inits __gmp_printf; do
    grep -qx -- "--wrap=$s" gen/gmp.wrap || fail "$s is not wrapped"
done
grep -q 'libwrap_trampoline' gen/gmp.wrappers.c || fail "not ABI-level forwarding (the default on AArch64)"
for mode in linktime runtime; do
    MODE=$(echo $mode | tr a-z A-Z)
    $cc -O2 -fPIC -Wall -Wextra -Werror -DLIBWRAP_$MODE -I"$inc" -c gen/gmp.wrappers.c -o $mode.o
done
rt=(-L"$rtlib" -llibwrap_runtime -Wl,-rpath,"$rtlib")
$cc -shared -o libwrap_gmp_linktime.so linktime.o -Wl,@gen/gmp.wrap -lgmp "${rt[@]}"
$cc -shared -o libwrap_gmp_runtime.so runtime.o -Wl,--no-as-needed -lgmp "${rt[@]}" -ldl
$cc -O2 -c "$LIBWRAP_SOURCE_DIR/tests/abi/gcd.c" -o gcd.o
$cc -o plain gcd.o -lgmp
$cc -o linked gcd.o -Wl,@gen/gmp.wrap -L. -lwrap_gmp_linktime -lgmp "${rt[@]}" -Wl,-rpath,"$here"

s=0; ./plain > plain.out 2> plain.err || s=$?; echo $s > plain.status
grep -q '^gcd sum ' plain.out || fail "the unwrapped program printed no sum"
for run in linked preload; do
    cmd=(./linked)
    [ $run = preload ] && cmd=(env LD_PRELOAD=$here/libwrap_gmp_runtime.so ./plain)
    LIBWRAP_EXPERIMENT_DIRECTORY=$here/exp-$run same_run $run "${cmd[@]}"
    $CHECK "$here/exp-$run" 'visits("__gmpz_gcd") == 3000' 'visits("__gmpz_add") == 3000' \
        'visits("__gmpz_urandomb") == 6000' 'visits("__gmpz_inits") == 1' 'visits("__gmpz_clears") == 1' \
        'visits("__gmp_printf") == 1' 'visits("__gmp_randinit_default") == 1' \
        'visits("__gmp_randseed_ui") == 1' 'visits("__gmp_randclear") == 1' ||
        fail "$run: visits differ from the calls of gcd.c"
    echo "ok $run: $(cat $run.out)"
done
# Under LD_PRELOAD the library's own calls through its PLT are measured too:
# GMP's gcd reaches mpn_gcd_11 or its siblings inside mpz_gcd.
$CHECK "$here/exp-preload" 'any(visits(s) > 0 for s in ("__gmpn_gcd_11", "__gmpn_gcd_22", "__gmpn_gcd", "__gmpn_gcd_1"))' ||
    fail "preload: no mpn gcd call measured inside mpz_gcd"
