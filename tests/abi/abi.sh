#!/usr/bin/env bash
# abi.sh CC OPT [asan]
#
# ABI-level forwarding against the cases a typed wrapper cannot keep
# (abi.h): the GMP pattern (a register kept across a tail call through the
# PLT), __int128, long double, stack arguments, a variadic function without
# a va_list twin, __m256 (where the CPU has AVX), a callback that re-enters
# the library, longjmp out of wrapped calls, errno, backtrace() through a
# wrapper, threads. The library and the driver are built by CC OPT; the
# driver runs unwrapped, with the link-time wrapper and under LD_PRELOAD
# (also traced, with the clock_gettime timer, and with a listener that
# takes each call and changes every register it may):
# stdout, stderr and the exit status must be identical, and every
# function's visits must be the calls made.
set -euo pipefail

cc=$1
opt=$2
variant=${3:-}
src=$LIBWRAP_SOURCE_DIR/tests/abi
gen=$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen
inc=$LIBWRAP_STAGE/include
rtlib=$LIBWRAP_STAGE/lib
TEST_LABEL="abi $cc $opt $variant"
source "$LIBWRAP_SOURCE_DIR/tests/lib.sh"
here=$PWD

flags=($opt -g -I"$src")
avx=0
grep -qw avx /proc/cpuinfo && avx=1 && flags+=(-mavx)
envs=()
if [ "$variant" = asan ]; then
    flags+=(-fsanitize=address -fno-omit-frame-pointer)
    # The wrapper comes first under LD_PRELOAD; ASan only asks to be first.
    envs=(ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0)
fi

$cc "${flags[@]}" -fPIC -shared -Wl,-soname,libabi.so -o libabi.so "$src/abi.c" "$src/abi_pat.S"
$cc "${flags[@]}" -c "$src/driver.c" -o driver.o

printf '#include "abi.h"\n' > libwrap.h
$cc -E -I"$src" ${flags[*]/-fsanitize=address/} libwrap.h > libwrap.i
"$gen" --quiet --name abi -x c --cppflags "-I$src" --ldflags "-L$here" --libs -labi -o gen libwrap.i
grep -q 'libwrap_trampoline' gen/abi.wrappers.c || fail "the wrappers do not forward at the ABI level"
! grep -q '^\[variadic\]' gen/abi.skipped.txt || fail "a variadic function was left out"
# LIBWRAP_ABI_NO_VECTOR (no argument or result in a vector register: the
# per-call listeners' gate keeps none) on the integer-only functions, and
# on no function with a double, a long double, a vector, a variadic list or
# a small struct result.
no_vector() { # no_vector SYMBOL: 0 when its entry is flagged
    local k
    k=$(sed -n "s/^LIBWRAP_EXTERN char libwrap_s_\([0-9]*\)\[\] __asm__(LIBWRAP_LABEL(\"$1\"));/\1/p" gen/abi.wrappers.c)
    [ -n "$k" ] || fail "no entry for $1 in gen/abi.wrappers.c"
    grep "LIBWRAP_ORIG($k), " gen/abi.wrappers.c | grep -q LIBWRAP_ABI_NO_VECTOR
}
for f in abi_twice abi_apply abi_fail abi_pat_inner; do
    no_vector $f || fail "$f takes and returns integers only, but is not flagged LIBWRAP_ABI_NO_VECTOR"
done
for f in abi_ld abi_stack abi_mix abi_pat_outer $([ $avx = 0 ] || echo abi_m256); do
    ! no_vector $f || fail "$f is flagged LIBWRAP_ABI_NO_VECTOR, but has a vector argument or result"
done

for mode in linktime runtime; do
    MODE=$(echo $mode | tr a-z A-Z)
    $cc -O2 -fPIC -Wall -Wextra -Werror -DLIBWRAP_$MODE -I"$inc" -c gen/abi.wrappers.c -o $mode.o ||
        fail "the $mode wrappers do not compile under -Wall -Wextra -Werror"
done
rt=(-L"$rtlib" -llibwrap_runtime -Wl,-rpath,"$rtlib" -Wl,-rpath,"$here")
$cc -shared -o libwrap_abi_linktime.so linktime.o -Wl,@gen/abi.wrap -L. -labi "${rt[@]}"
$cc -shared -o libwrap_abi_runtime.so runtime.o -L. -Wl,--no-as-needed -labi "${rt[@]}" -ldl

san=()
[ "$variant" = asan ] && san=(-fsanitize=address)
$cc "${san[@]}" -rdynamic -o plain driver.o -L. -labi -lpthread -Wl,-rpath,"$here"
$cc "${san[@]}" -rdynamic -o linked driver.o -Wl,@gen/abi.wrap -L. -lwrap_abi_linktime -labi \
    -lpthread "${rt[@]}"

status=0
env "${envs[@]}" ./plain > plain.out 2> plain.err || status=$?
[ "$status" = 3 ] || fail "the unwrapped driver exited $status"
grep -qx 'backtrace 5 1' plain.out || fail "backtrace() does not see the driver unwrapped"

# run NAME PAT_INNER_VISITS COMMAND...
run() {
    local name=$1 inner=$2
    shift 2
    local dir=$here/exp-$name s=0
    rm -rf "$dir"
    env "${envs[@]}" LIBWRAP_EXPERIMENT_DIRECTORY="$dir" "$@" > $name.out 2> $name.err || s=$?
    [ "$s" = 3 ] || { cat $name.err >&2; fail "$name: exit status $s, unwrapped 3"; }
    cmp -s plain.out $name.out || { diff plain.out $name.out >&2 || true; fail "$name: stdout differs"; }
    cmp -s plain.err $name.err || { diff plain.err $name.err >&2 || true; fail "$name: stderr differs"; }
    local want="{'abi_pat_outer': 100, 'abi_pat_inner': $inner, 'abi_i128': 1, 'abi_ld': 10,
        'abi_stack': 10, 'abi_mix': 2, 'abi_apply': 2, 'abi_twice': 4002, 'abi_jump': 2,
        'abi_guard': 1, 'abi_fail': 1, 'abi_m256': 10 * $avx}"
    $CHECK "$dir" "all(visits(s) == n for s, n in $want.items())" \
        "all(f['symbol'] in $want for f in prof['functions'])" ||
        fail "$name: visits differ from the calls made: $(grep -A20 visits "$dir/profile.txt")"
    echo "ok $name"
}

# Link time: abi_pat_outer's tail call stays inside libabi. LD_PRELOAD: it
# goes through the wrapper of abi_pat_inner, as GMP's does.
run linktime 0 ./linked
run preload 100 env LD_PRELOAD=$here/libwrap_abi_runtime.so ./plain
# Traced, and with the clock_gettime timer, every entry and exit takes the
# runtime's slow path, through the gate that keeps the vector, mask and
# x87 state (long double results in %st0 included).
run linktime-traced 0 env LIBWRAP_ENABLE_TRACING=true ./linked
run preload-clock 100 env LIBWRAP_TIMER=clock_gettime LD_PRELOAD=$here/libwrap_abi_runtime.so ./plain

# A listener that takes each call (through its own gate, docs/plugins.md)
# and changes every register the ABI lets it change, errno too, in both
# linkages: the program sees nothing, and the listener gets every call
# once, nested, in the order of time.
if [ "$variant" != asan ]; then
    $cc -O2 -fPIC -shared -fvisibility=hidden -Wall -Werror -I"$inc" -o libwrap_plugin_clobber.so \
        "$src/clobber_listener.c"
    for m in linktime preload; do
        if [ $m = linktime ]; then cmd=(./linked); inner=0; else cmd=(env LD_PRELOAD=$here/libwrap_abi_runtime.so ./plain); inner=100; fi
        rm -f clobber-$m.txt
        run $m-listener $inner env LIBWRAP_LISTENERS=$here/libwrap_plugin_clobber.so \
            CLOBBER_OUT=$here/clobber-$m.txt "${cmd[@]}"
        calls=$(python3 -c 'import json, sys; print(sum(f["visits"] for f in json.load(open(sys.argv[1]))["functions"]))' \
            exp-$m-listener/profile.json)
        [ "$(cat clobber-$m.txt)" = "enters $calls exits $calls errors 0" ] ||
            fail "$m-listener: the listener saw $(cat clobber-$m.txt), the profile $calls calls"
    done
fi
