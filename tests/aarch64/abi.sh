#!/usr/bin/env bash
# abi.sh OPT - the AArch64 trampoline (docs/abi.md, "AArch64") against the
# cases a typed wrapper cannot keep: tests/abi's library and driver (the GMP
# pattern in AArch64 assembly, __int128, long double (binary128 here),
# stack arguments, a variadic function without a va_list twin, a callback
# re-entering the library, longjmp, errno, backtrace() through a wrapper,
# threads) and AArch64's own (a64.h: x9-x15, x19-x28, d8-d15 and v16 as an
# assembly caller relies on them, HFA and HVA structs, an HFA on the stack,
# a struct returned through x8, __int128 and long double on the stack, a
# variadic function taking HFAs and long doubles). Built by the cross
# compiler at OPT; the drivers run unwrapped, with the link-time wrapper and
# under LD_PRELOAD (also traced, and with the clock_gettime timer, where
# every call passes the gate): stdout, stderr and the exit status must be
# identical, and every function's visits must be the calls made.
source "$LIBWRAP_SOURCE_DIR/tests/aarch64/lib.sh"
opt=$1
cc=aarch64-linux-gnu-gcc
abi=$LIBWRAP_SOURCE_DIR/tests/abi
gen=$LIBWRAP_STAGE/libexec/libwrap/libwrap-gen
inc=$LIBWRAP_STAGE/include
rtlib=$LIBWRAP_STAGE/lib/$host
here=$PWD
flags=($opt -g -I"$abi" -I"$lane")

$cc "${flags[@]}" -fPIC -shared -Wl,-soname,libabi.so -o libabi.so "$abi/abi.c" "$lane/a64.c" "$lane/abi_pat.S"
$cc "${flags[@]}" -c "$abi/driver.c" -o driver.o
$cc "${flags[@]}" -c "$lane/a64_driver.c" -o a64_driver.o
$cc "${flags[@]}" -c "$lane/probe.S" -o probe.o

printf '#include "abi.h"\n#include "a64.h"\n' > libwrap.h
$cc -E "${flags[@]}" libwrap.h > libwrap.i
"$gen" --quiet --name abi -x c --target $host --cppflags "-I$abi -I$lane" --ldflags "-L$here" --libs -labi \
    -o gen libwrap.i
grep -q 'libwrap_trampoline' gen/abi.wrappers.c || fail "the wrappers do not forward at the ABI level"
! grep -q '^\[variadic\]' gen/abi.skipped.txt || fail "a variadic function was left out"
for mode in linktime runtime; do
    MODE=$(echo $mode | tr a-z A-Z)
    $cc -O2 -fPIC -Wall -Wextra -Werror -DLIBWRAP_$MODE -I"$inc" -c gen/abi.wrappers.c -o $mode.o ||
        fail "the $mode wrappers do not compile under -Wall -Wextra -Werror"
done
rt=(-L"$rtlib" -llibwrap_runtime -Wl,-rpath,"$rtlib" -Wl,-rpath,"$here")
$cc -shared -o libwrap_abi_linktime.so linktime.o -Wl,@gen/abi.wrap -L. -labi "${rt[@]}"
$cc -shared -o libwrap_abi_runtime.so runtime.o -L. -Wl,--no-as-needed -labi "${rt[@]}" -ldl
# -z now: lazy binding's resolver may change x9-x15 on a first call, which
# a64_regs_probe passes to the callee.
for d in driver a64_driver; do
    objs=($d.o); [ $d = a64_driver ] && objs+=(probe.o)
    $cc -rdynamic -Wl,-z,now -o $d.plain "${objs[@]}" -L. -labi -lpthread -Wl,-rpath,"$here"
    $cc -rdynamic -Wl,-z,now -o $d.linked "${objs[@]}" -Wl,@gen/abi.wrap -L. -lwrap_abi_linktime -labi \
        -lpthread "${rt[@]}"
done

s=0; ./driver.plain > plain.out 2> plain.err || s=$?
[ "$s" = 3 ] || fail "the unwrapped driver exited $s"
grep -qx 'backtrace 5 1' plain.out || fail "backtrace() does not see the driver unwrapped"
s=0; ./a64_driver.plain > a64.plain.out 2> a64.plain.err || s=$?
[ "$s" = 0 ] || fail "the unwrapped a64_driver exited $s"
[ "$(grep -c '^regs 34304 mask 0$' a64.plain.out)" = 3 ] || fail "a64_regs_probe unwrapped: $(head -n 3 a64.plain.out)"

# run NAME PAT_INNER_VISITS [ENV...]: both drivers, linked or preloaded.
run() {
    local name=$1 inner=$2 s
    shift 2
    local cmd=(./driver.linked) cmd2=(./a64_driver.linked)
    case $name in preload*)
        cmd=(env LD_PRELOAD=$here/libwrap_abi_runtime.so ./driver.plain)
        cmd2=(env LD_PRELOAD=$here/libwrap_abi_runtime.so ./a64_driver.plain) ;;
    esac
    rm -rf "exp-$name" "exp2-$name"
    s=0; env "$@" LIBWRAP_EXPERIMENT_DIRECTORY="$here/exp-$name" "${cmd[@]}" > $name.out 2> $name.err || s=$?
    [ "$s" = 3 ] || { cat $name.err >&2; fail "$name: exit status $s, unwrapped 3"; }
    cmp -s plain.out $name.out || { diff plain.out $name.out >&2 || true; fail "$name: stdout differs"; }
    cmp -s plain.err $name.err || { diff plain.err $name.err >&2 || true; fail "$name: stderr differs"; }
    s=0; env "$@" LIBWRAP_EXPERIMENT_DIRECTORY="$here/exp2-$name" "${cmd2[@]}" > a64.$name.out 2> a64.$name.err || s=$?
    [ "$s" = 0 ] || { cat a64.$name.err >&2; fail "$name: a64_driver exit status $s, unwrapped 0"; }
    cmp -s a64.plain.out a64.$name.out || { diff a64.plain.out a64.$name.out >&2 || true; fail "$name: a64_driver stdout differs"; }
    cmp -s a64.plain.err a64.$name.err || fail "$name: a64_driver stderr differs"
    local want="{'abi_pat_outer': 100, 'abi_pat_inner': $inner, 'abi_i128': 1, 'abi_ld': 10,
        'abi_stack': 10, 'abi_mix': 2, 'abi_apply': 2, 'abi_twice': 4002, 'abi_jump': 2,
        'abi_guard': 1, 'abi_fail': 1}"
    $CHECK "exp-$name" "all(visits(s) == n for s, n in $want.items())" \
        "all(f['symbol'] in $want for f in prof['functions'])" ||
        fail "$name: visits differ from the calls made: $(grep -A20 visits "exp-$name/profile.txt")"
    want="{'a64_regs_callee': 3, 'a64_hfa': 1, 'a64_hva': 1, 'a64_hfa_stack': 1, 'a64_big_make': 1,
        'a64_i128_stack': 1, 'a64_vmix': 1}"
    $CHECK "exp2-$name" "all(visits(s) == n for s, n in $want.items())" \
        "all(f['symbol'] in $want for f in prof['functions'])" ||
        fail "$name: a64_driver's visits differ from the calls made: $(grep -A20 visits "exp2-$name/profile.txt")"
    echo "ok $name"
}

# Link time: abi_pat_outer's tail call stays inside libabi. LD_PRELOAD: it
# goes through the wrapper of abi_pat_inner, as GMP's does.
run linktime 0
run preload 100
run linktime-traced 0 LIBWRAP_ENABLE_TRACING=true
run preload-clock 100 LIBWRAP_TIMER=clock_gettime
grep -q '^timer tsc\|timer tsc' exp-preload/profile.txt || grep -q '"timer": "tsc"' exp-preload/profile.json ||
    fail "the preloaded run did not use the virtual counter"
[ -f exp-linktime-traced/traces.otf2 ] || [ -d exp-linktime-traced/traces ] || ls exp-linktime-traced >&2

# Recorded arguments where AAPCS64 puts them (libwrap_param.abi_a64), after
# HFAs, an __int128 pair and in x0-x7, v7 and the stack: the values the
# driver passes, in both linkages.
args='a64_hfa:s,a64_hfa_stack:f,a64_big_make:*,a64_i128_stack:[acdefg]'
for name in linktime-args preload-args; do
    cmd=(./a64_driver.linked)
    [ $name = preload-args ] && cmd=(env LD_PRELOAD=$here/libwrap_abi_runtime.so ./a64_driver.plain)
    rm -rf "exp2-$name"
    s=0; LIBWRAP_ARGUMENTS="$args" LIBWRAP_EXPERIMENT_DIRECTORY="$here/exp2-$name" "${cmd[@]}" \
        > a64.$name.out 2> a64.$name.err || s=$?
    [ "$s" = 0 ] || { cat a64.$name.err >&2; fail "$name: a64_driver exit status $s"; }
    cmp -s a64.plain.out a64.$name.out || fail "$name: a64_driver stdout differs"
    cmp -s a64.plain.err a64.$name.err || { cat a64.$name.err >&2; fail "$name: a64_driver stderr differs"; }
    $CHECK "exp2-$name" \
        "{a['name']: (a['count'], a['sum']) for a in fn('a64_hfa')['arguments']} == {'s': (1, 3.0)}" \
        "{a['name']: (a['count'], a['sum']) for a in fn('a64_hfa_stack')['arguments']} == {'f': (1, 0.5)}" \
        "{a['name']: a.get('sum', [v['value'] for v in a.get('values', [])]) for a in fn('a64_big_make')['arguments']} == {'seed': 11, 'tag': ['big-struct']}" \
        "{a['name']: a['sum'] for a in fn('a64_i128_stack')['arguments']} == {'a': 3, 'c': 1, 'd': 2, 'e': 3, 'f': 4, 'g': 5}" ||
        fail "$name: the recorded arguments differ from the driver's: $(grep -A30 'recorded arguments' exp2-$name/profile.txt)"
    echo "ok $name"
done
