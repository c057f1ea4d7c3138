#!/usr/bin/env bash
# geo.sh RUNTIME_LIB [EXTRA_CXX [abi|typed]] - wrappers of a small C++ library (geo.h:
# methods, overloads, constructors and destructors, virtual methods, objects
# returned by value, an exception, also through a tail call from one wrapped
# function into another, operators) compile under -Wall -Wextra
# -Werror in both linkages, leave the driver's output byte-identical, let
# the exception through to the driver's catch, and record exactly the
# expected visits with the real runtime: expected-linktime.txt (ld --wrap
# sees the program's own direct calls) and expected-runtime.txt (LD_PRELOAD
# also sees the library's calls through its PLT and vtables). The inventory
# gives the reasons for what is left out. Without libgeo at all (missing.cc)
# a run-time wrapper returns a zero scalar with ENOSYS and stops at a
# function returning an object. EXTRA_CXX, when given, also compiles the
# wrappers with that compiler. The forwarding is typed unless the third
# argument says abi: then the member of a private type is wrapped too.
set -euo pipefail

runtime_lib=$1
extra_cxx=${2:-}
[ "$extra_cxx" != - ] || extra_cxx=  # "-": none, when a forwarding is given
forward=${3:-typed}
gen=$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen
inc=$LIBWRAP_STAGE/include
src=$LIBWRAP_SOURCE_DIR/tests/generator/cxx
rtdir=$(dirname "$runtime_lib")
CXX=${CXX:-g++}

. "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
here=$PWD

$CXX -O2 -fPIC -shared -o libgeo.so "$src/geo.cc"
$CXX -O2 -I"$src" "$src/driver.cc" -o driver -L. -lgeo -Wl,-rpath,"$here"
./driver > plain.out
grep -q '^caught c!: negative -2$' plain.out || fail "the unwrapped driver does not run as expected"

printf '#include "geo.h"\n' > libwrap.h
$CXX -E -x c++ -I"$src" libwrap.h > libwrap.i
# GEO_TARGET: another machine's wrappers (tests/aarch64/cxx.sh).
CC=$CXX "$gen" --quiet --name geo -x c++ --forward "$forward" ${GEO_TARGET:+--target "$GEO_TARGET"} \
    --libs "-L$here -lgeo" libwrap.i

# What is left out, and why.
skipped() {
    grep -F "$1" geo.skipped.txt | grep -qF "$2" || fail "$1 is not reported as: $2"
}
skipped _ZNK3geo5Shape7inlinedEv inline
skipped _ZN3geo5ShapeaSERKS0_ "deleted function"
if [ "$forward" = typed ]; then
    skipped _ZNK3geo5Shape6secretEv "private or protected member type"
else
    grep -qx -- "--wrap=_ZNK3geo5Shape6secretEv" geo.wrap || fail "the member of a private type is not wrapped"
fi
# Private and protected members are reached by symbol: the inline
# Shape::inlined() calls the private Shape::doubled() from the program.
for sym in _ZNK3geo5Shape7doubledEv _ZN3geo5Shape5touchEv \
           _ZN3geo5ShapeC1EPKc _ZN3geo5ShapeC2EPKc _ZN3geo5ShapeD0Ev _ZN3geo5ShapeD1Ev \
           _ZN3geo5ShapeD2Ev _ZNK3geo5Shape4twinEv _ZN3geo4takeEONSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE; do
    grep -qx -- "--wrap=$sym" geo.wrap || fail "$sym is not wrapped"
done

for cxx in $CXX $extra_cxx; do
    for mode in linktime runtime; do
        MODE=$(echo "$mode" | tr a-z A-Z)
        $cxx -O2 -fPIC -Wall -Wextra -Werror -DLIBWRAP_$MODE -I"$inc" -I"$src" -x c++ \
            -c geo.wrappers.c -o $mode.o 2> $mode.log ||
            { head -n 30 $mode.log >&2; fail "$cxx: the $mode wrappers do not compile cleanly"; }
    done
done
# The objects of the last compiler are linked: the default one's, unless
# EXTRA_CXX was given.
$CXX -O2 -I"$src" "$src/driver.cc" -o driver.linktime -Wl,@geo.wrap linktime.o "$runtime_lib" \
    -L. -lgeo -Wl,-rpath,"$here" -Wl,-rpath,"$rtdir"
$CXX -shared -Wl,--no-undefined -o libwrap_geo_runtime.so runtime.o "$runtime_lib" -ldl \
    -Wl,-rpath,"$rtdir"

visits() {
    python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["functions"]:
    print(f["symbol"], f["visits"])' "$1" | LC_ALL=C sort
}

check() {
    local mode=$1
    shift
    LIBWRAP_EXPERIMENT_DIRECTORY=$here/$mode "$@" > $mode.out || fail "$mode: the driver failed"
    cmp plain.out $mode.out || fail "$mode: the output differs from the unwrapped one"
    visits $mode/profile.json > $mode.visits
    LC_ALL=C sort "${GEO_EXPECTED:-$src/expected}-$mode.txt" > $mode.expected
    diff $mode.expected $mode.visits >&2 ||
        fail "$mode: measured visits (right) differ from the expected ones (left)"
    echo "ok $mode: $(wc -l < $mode.visits) functions measured"
}
check linktime ./driver.linktime
check runtime env LD_PRELOAD="$here/libwrap_geo_runtime.so" ./driver
# valgrind reads the trampoline's CFI too (its reader knows fewer DWARF
# operations than libgcc's, and stops the program at one it does not):
# the driver under it prints what it prints, the tail call's exception
# caught.
if [ -z "${GEO_TARGET:-}" ] && command -v valgrind > /dev/null; then
    LIBWRAP_EXPERIMENT_DIRECTORY=$here/vg valgrind -q --tool=none env LD_PRELOAD="$here/libwrap_geo_runtime.so" \
        ./driver > vg.out 2> vg.err || fail "valgrind: the driver failed: $(head -5 vg.err)"
    cmp plain.out vg.out || fail "valgrind: the output differs from the unwrapped one"
    echo "ok valgrind"
fi

# No original at all: the program links the run-time wrappers instead of
# libgeo, which is not there either (a call of a wrapper whose target is
# not loaded loads it where the wrapper's run path finds it). The
# expected abort() leaves no core file behind.
ulimit -c 0
$CXX -O2 -I"$src" "$src/missing.cc" -o missing -L. -lwrap_geo_runtime -Wl,-rpath,"$here"
mkdir -p away && mv libgeo.so away/
LIBWRAP_EXPERIMENT_DIRECTORY=$here/missing-exp ./missing > missing.out 2> missing.err ||
    fail "missing original: a scalar result stopped the program"
[ "$(cat missing.out)" = "count 0 ENOSYS" ] || fail "missing original: $(cat missing.out)"
grep -q '_ZN3geo5Shape5countEv' missing.err || fail "missing original: no warning naming the symbol"
if LIBWRAP_EXPERIMENT_DIRECTORY=$here/missing-exp ./missing object > missing.out 2> missing.err; then
    fail "missing original: a function returning an object did not stop the program"
fi
grep -q '^join' missing.out && fail "missing original: an object was made up"
mv away/libgeo.so .
echo "ok missing original"
